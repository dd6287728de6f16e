// The numbers of divercite-match's command line, read with the error texts it has always
// given (they name the offending argument).
#ifndef DIVERCITE_TOOLS_MATCH_ARGUMENT_VALUES_H_
#define DIVERCITE_TOOLS_MATCH_ARGUMENT_VALUES_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace divercite {

// A number of seconds >= 0, the value of `key` (tc=, st=, -stalltimeout, -maxmovetime).
// Error: "<key>=<text>: expected a number of seconds".
absl::StatusOr<double> ParseSeconds(absl::string_view key, absl::string_view text);

// An integer >= 1, the value of `flag` (-games, depth=, ...).
// Error: "<flag> <text>: expected a positive integer".
absl::StatusOr<int> ParsePositiveInt(absl::string_view flag, absl::string_view text);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_MATCH_ARGUMENT_VALUES_H_
