#include "tools/tune/eval_fit.h"

#include "Eigen/Dense"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/move.h"
#include "engine/position_string.h"

namespace divercite {

absl::StatusOr<Position> StartOf(const GameRecord& record) {
  if (record.start.empty() || record.start == "startpos") return Position::Start();
  if (!absl::StartsWith(record.start, "fen ")) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", record.game, ": bad start '", record.start, "'"));
  }
  absl::StatusOr<Position> start = ParsePositionString(record.start.substr(4));
  if (!start.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", record.game, ": start: ", start.status().message()));
  }
  return start;
}

absl::Status PlayText(Position& position, absl::string_view text, const GameRecord& record) {
  absl::StatusOr<Move> move = ParseMove(text);
  const absl::Status status = move.ok() ? position.CheckLegal(*move) : move.status();
  if (!status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("game ", record.game, ": move '", text,
                                                   "' at ply ", position.Ply(), ": ",
                                                   status.message()));
  }
  position.Play(*move);
  return absl::OkStatus();
}

std::array<int, kNumFittedWeights> FittedFeatures(const Position& position) {
  const EvalFeatures features = ComputeEvalFeatures(position);
  std::array<int, kNumFittedWeights> vector{};
  for (int k = 0; k < kNumFittedWeights; ++k) vector[k] = features.*kFeatureOfWeightOption[k];
  return vector;
}

absl::StatusOr<std::vector<FitSample>> SamplesFromGame(const GameRecord& record) {
  std::vector<FitSample> samples;
  if (record.termination != Termination::kNormal) return samples;
  absl::StatusOr<Position> start = StartOf(record);
  if (!start.ok()) return start.status();
  Position position = *start;
  for (absl::string_view text : absl::StrSplit(record.opening, ' ', absl::SkipEmpty())) {
    if (absl::Status status = PlayText(position, text, record); !status.ok()) return status;
  }
  int first_exact = -1;
  for (int i = 0; i < static_cast<int>(record.moves.size()); ++i) {
    if (record.moves[i].exact && record.moves[i].score_cp.has_value()) {
      first_exact = i;
      break;
    }
  }
  if (first_exact < 0) return samples;
  const int exact_cp = *record.moves[first_exact].score_cp;
  for (int i = 0; i < first_exact; ++i) {
    FitSample sample;
    sample.ply = position.Ply();
    sample.game = record.game;
    // The exact score is the view of the side to move before move `first_exact`: the same
    // side as before move i when the two are an even number of plies apart.
    sample.target_cp = (first_exact - i) % 2 == 0 ? exact_cp : -exact_cp;
    const Player us = position.SideToMove();
    sample.score_difference = position.Score(us) - position.Score(Opponent(us));
    sample.features = FittedFeatures(position);
    samples.push_back(sample);
    if (absl::Status status = PlayText(position, record.moves[i].move, record); !status.ok()) {
      return status;
    }
  }
  return samples;
}

std::array<double, kNumFittedWeights> WeightsOf(const EvalWeights& weights) {
  std::array<double, kNumFittedWeights> vector{};
  for (int k = 0; k < kNumFittedWeights; ++k) vector[k] = weights.*kEvalWeightOptions[k].weight;
  return vector;
}

FitResult FitWeights(const std::vector<FitSample>& samples, const EvalWeights& start,
                     const std::array<bool, kNumFittedWeights>& fixed) {
  FitResult result;
  result.weights = WeightsOf(start);
  // The least-squares problem of the free weights, one row per sample: the design matrix of
  // their features, and the target less what the score difference and the fixed weights give.
  std::vector<int> free;
  for (int k = 0; k < kNumFittedWeights; ++k) {
    if (!fixed[k]) free.push_back(k);
  }
  const Eigen::Index rows = static_cast<Eigen::Index>(samples.size());
  const Eigen::Index columns = static_cast<Eigen::Index>(free.size());
  Eigen::MatrixXd design(rows, columns);
  Eigen::VectorXd right(rows);
  for (Eigen::Index i = 0; i < rows; ++i) {
    const FitSample& sample = samples[i];
    double residual = sample.target_cp - kPoint * sample.score_difference;
    for (int k = 0; k < kNumFittedWeights; ++k) {
      if (fixed[k]) residual -= result.weights[k] * sample.features[k];
    }
    right(i) = residual;
    for (Eigen::Index j = 0; j < columns; ++j) design(i, j) = sample.features[free[j]];
  }
  if (columns == 0) {  // every weight fixed: nothing to fit
    result.ok = true;
    return result;
  }
  if (rows < columns) return result;  // fewer samples than free weights: no unique fit
  // A rank-revealing QR of the design matrix: features that are linearly dependent over the
  // samples show as a rank below the number of free weights.
  const Eigen::ColPivHouseholderQR<Eigen::MatrixXd> qr(design);
  if (qr.rank() < columns) return result;
  const Eigen::VectorXd solution = qr.solve(right);
  for (Eigen::Index j = 0; j < columns; ++j) result.weights[free[j]] = solution(j);
  result.ok = true;
  return result;
}

double PredictedValue(const FitSample& sample,
                      const std::array<double, kNumFittedWeights>& weights) {
  double evaluation = kPoint * sample.score_difference;
  for (int k = 0; k < kNumFittedWeights; ++k) evaluation += weights[k] * sample.features[k];
  return evaluation;
}

double MeanSquaredError(const std::vector<FitSample>& samples,
                        const std::array<double, kNumFittedWeights>& weights) {
  if (samples.empty()) return 0;
  double sum = 0;
  for (const FitSample& sample : samples) {
    const double error = (sample.target_cp - PredictedValue(sample, weights)) / kPoint;
    sum += error * error;
  }
  return sum / samples.size();
}

}  // namespace divercite
