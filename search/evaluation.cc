#include "search/evaluation.h"

#include <utility>

#include "absl/strings/match.h"
#include "search/network_file.h"
#include "search/pattern_file.h"
#include "search/weight_file.h"

namespace divercite {

const EvalWeights& DefaultEvalWeights() {
  static const EvalWeights weights{DefaultNetworkWeights(), nullptr};
  return weights;
}

absl::StatusOr<EvalWeights> ParseEvalWeights(absl::string_view text, absl::string_view source) {
  if (absl::StartsWith(FirstContentLine(text), kNetworkFileMagic)) {
    absl::StatusOr<std::shared_ptr<const NetworkWeights>> network = ParseNetworkFile(text, source);
    if (!network.ok()) return network.status();
    return EvalWeights{*std::move(network), nullptr};
  }
  absl::StatusOr<PatternWeights> patterns = ParsePatternFile(text, source);
  if (!patterns.ok()) return patterns.status();
  return EvalWeights{nullptr, std::make_shared<const PatternWeights>(*std::move(patterns))};
}

absl::StatusOr<EvalWeights> ReadEvalWeights(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  return ParseEvalWeights(*text, path);
}

}  // namespace divercite
