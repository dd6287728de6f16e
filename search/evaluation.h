// The evaluation the search runs: the network (search/network.h, the default) or the pattern
// sum (search/pattern_eval.h, what EvalFile loads from a pattern weight file).
#ifndef DIVERCITE_SEARCH_EVALUATION_H_
#define DIVERCITE_SEARCH_EVALUATION_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/position.h"
#include "search/network.h"
#include "search/pattern_eval.h"

namespace divercite {

// Exactly one of the two is set; the search compiles for each and chooses by which
// (search/eval_state.h).
struct EvalWeights {
  std::shared_ptr<const NetworkWeights> network;
  std::shared_ptr<const PatternWeights> patterns;

  const std::string& data() const { return network ? network->data : patterns->data; }
  const std::string& fit() const { return network ? network->fit : patterns->fit; }
};

// The compiled-in network (search/network.net).
const EvalWeights& DefaultEvalWeights();

// A weight file of either kind, told apart by its first line; `source` names it in errors.
absl::StatusOr<EvalWeights> ParseEvalWeights(absl::string_view text, absl::string_view source);
absl::StatusOr<EvalWeights> ReadEvalWeights(const std::string& path);

// The evaluation of a position (not a finished game) from scratch, side to move's view.
inline int Evaluate(const Position& position, const EvalWeights& weights) {
  return weights.network ? EvaluateNetwork(position, *weights.network)
                         : EvaluatePatterns(position, *weights.patterns);
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVALUATION_H_
