// Fitting the evaluation's weights to played games (Texel's method, with the engine's own
// exact scores as targets).
//
// The evaluation estimates the final margin, and it is linear in its features
// (search/evaluate.h). So the weights that estimate it best over a set of positions are the
// least-squares solution of
//     target - 100 x score difference  =  sum over k of  weight_k x feature_k
// where a position's target is the first exact score that an engine reported later in the
// same game (the final margin under best play from there, seen from the side to move of the
// position). Positions from that exact score on are left out: the solver plays them, not the
// evaluation.
#ifndef DIVERCITE_TOOLS_TUNE_EVAL_FIT_H_
#define DIVERCITE_TOOLS_TUNE_EVAL_FIT_H_

#include <array>
#include <cstddef>
#include <iterator>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "search/eval_weights.h"
#include "search/evaluate.h"
#include "tools/records/game_record.h"

namespace divercite {

inline constexpr int kNumFittedWeights = static_cast<int>(std::size(kEvalWeightOptions));

struct FitSample {
  int ply = 0;               // of the position (0 = start)
  int game = 0;              // the record's game number, to split by game
  int target_cp = 0;         // exact value found later, side to move's view
  int score_difference = 0;  // points, side to move's view
  // In kEvalWeightOptions' order.
  std::array<int, kNumFittedWeights> features{};
};

// The position a record starts from (before its opening), and a recorded move played on
// `position` after checking it; errors name the game, the move and the ply.
absl::StatusOr<Position> StartOf(const GameRecord& record);
absl::Status PlayText(Position& position, absl::string_view text, const GameRecord& record);

// What one game gives: a sample per position before its first exact score. A game without
// an exact score, or that did not end normally, gives none. Errors: a move in the record
// that is malformed or illegal, a bad start position.
absl::StatusOr<std::vector<FitSample>> SamplesFromGame(const GameRecord& record);

// The feature vector of a position, in kEvalWeightOptions' order.
std::array<int, kNumFittedWeights> FittedFeatures(const Position& position);

struct FitResult {
  std::array<double, kNumFittedWeights> weights{};  // centipoints per unit of feature
  bool ok = false;  // false when the features are linearly dependent over the samples
};

// The least-squares weights over `samples`. Weights marked in `fixed` keep their value in
// `start` and are not fitted.
FitResult FitWeights(const std::vector<FitSample>& samples, const EvalWeights& start,
                     const std::array<bool, kNumFittedWeights>& fixed = {});

// The evaluation of a sample's position with `weights`, in centipoints.
double PredictedValue(const FitSample& sample,
                      const std::array<double, kNumFittedWeights>& weights);

// Mean squared error of the evaluation with `weights` over `samples`, in points squared.
double MeanSquaredError(const std::vector<FitSample>& samples,
                        const std::array<double, kNumFittedWeights>& weights);
std::array<double, kNumFittedWeights> WeightsOf(const EvalWeights& weights);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_TUNE_EVAL_FIT_H_
