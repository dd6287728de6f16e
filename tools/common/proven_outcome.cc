#include "tools/common/proven_outcome.h"

#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace divercite {
namespace {

constexpr std::pair<ProvenOutcome, absl::string_view> kTexts[] = {
    {ProvenOutcome::kWin, "win"}, {ProvenOutcome::kDraw, "draw"}, {ProvenOutcome::kLoss, "loss"}};

}  // namespace

absl::string_view ProvenOutcomeText(ProvenOutcome outcome) {
  for (const auto& [value, text] : kTexts) {
    if (value == outcome) return text;
  }
  return "?";
}

absl::StatusOr<ProvenOutcome> ParseProvenOutcome(absl::string_view text) {
  for (const auto& [value, name] : kTexts) {
    if (name == text) return value;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown proven result '", text, "' (expected win, draw or loss)"));
}

}  // namespace divercite
