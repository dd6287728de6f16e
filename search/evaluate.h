// The static evaluation: the expected final margin, in centipoints, from the side to move's
// point of view.
//
// The search's evaluation is the learned one (search/pattern_eval.h): the score difference
// plus learned values of each city cell's pattern. The linear evaluation below came before
// it: the score difference plus nine weighted counts of what the seeds' evaluations missed
// (the cities that can still become a divercité and who can complete or spoil them, the
// own-colour resources still to come, and the cities each player holds back). The tuners
// still compute it, to compare the two on the same positions.
#ifndef DIVERCITE_SEARCH_EVALUATE_H_
#define DIVERCITE_SEARCH_EVALUATE_H_

#include <iterator>
#include <string>

#include "engine/position.h"
#include "search/eval_file.h"
#include "search/eval_weights.h"
#include "search/pattern_eval.h"
#include "search/value.h"

namespace divercite {

// Each term from the side to move's view; their sum is the evaluation.
struct EvalTerms {
  int score_difference = 0;
  int open_three = 0;
  int open_divercite = 0;
  int own_colour_slots = 0;
  int cities_in_hand = 0;
  int tempo = 0;
  int Total() const {
    return score_difference + open_three + open_divercite + own_colour_slots + cities_in_hand +
           tempo;
  }
};

// What the evaluation counts, before any weight, from the side to move's view. The
// evaluation is linear in these counts, so its weights can be fitted to game results by
// least squares (divercite-tune, tools/eval_fit.h).
struct EvalFeatures {
  int score_difference = 0;       // points
  int own_three_gain = 0;         // points our open threes would gain (we move: we complete one)
  int their_three_gain = 0;       // minus the points the opponent's open threes would gain
  int extra_threats = 0;          // (threes - 1) x best gain, ours minus theirs
  int open_twos = 0;              // cities with two colours and two holes, ours minus theirs
  int open_ones = 0;              // cities with one or no neighbour, ours minus theirs
  int own_colour_slots = 0;       // empty neighbours of cities past a divercité, ours minus theirs
  int cities_held = 0;            // cities in hand, ours minus theirs
  int first_player_to_move = 0;   // 1 or 0
  int second_player_to_move = 0;  // 1 or 0
};
EvalFeatures ComputeEvalFeatures(const Position& position);

// The weight each feature is multiplied by, in kEvalWeightOptions' order (the score
// difference is weighted by a point, always).
inline constexpr int EvalFeatures::*kFeatureOfWeightOption[] = {
    &EvalFeatures::own_three_gain,
    &EvalFeatures::their_three_gain,
    &EvalFeatures::extra_threats,
    &EvalFeatures::open_twos,
    &EvalFeatures::open_ones,
    &EvalFeatures::own_colour_slots,
    &EvalFeatures::cities_held,
    &EvalFeatures::first_player_to_move,
    &EvalFeatures::second_player_to_move,
};
static_assert(std::size(kFeatureOfWeightOption) == std::size(kEvalWeightOptions));

EvalTerms WeighFeatures(const EvalFeatures& features, const EvalWeights& weights);
inline EvalTerms EvaluateTerms(const Position& position, const EvalWeights& weights = {}) {
  return WeighFeatures(ComputeEvalFeatures(position), weights);
}
inline int EvaluateLinear(const Position& position, const EvalWeights& weights = {}) {
  return EvaluateTerms(position, weights).Total();
}

// The search's evaluation: the learned patterns' (the default tables: the compiled-in file).
inline int Evaluate(const Position& position,
                    const PatternWeights& weights = DefaultPatternWeights()) {
  return EvaluatePatterns(position, weights);
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_EVALUATE_H_
