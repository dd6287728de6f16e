#include "tools/match/argument_values.h"

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace divercite {

absl::StatusOr<double> ParseSeconds(absl::string_view key, absl::string_view text) {
  double value = 0;
  // `!(value >= 0)` also refuses NaN.
  if (!absl::SimpleAtod(text, &value) || !(value >= 0)) {
    return absl::InvalidArgumentError(
        absl::StrCat(key, "=", text, ": expected a number of seconds"));
  }
  return value;
}

absl::StatusOr<int> ParsePositiveInt(absl::string_view flag, absl::string_view text) {
  int value = 0;
  if (!absl::SimpleAtoi(text, &value) || value < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, " ", text, ": expected a positive integer"));
  }
  return value;
}

}  // namespace divercite
