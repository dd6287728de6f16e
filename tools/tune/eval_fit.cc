#include "tools/tune/eval_fit.h"

#include <cmath>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine/move.h"
#include "engine/position_string.h"

namespace divercite {
namespace {

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

// Solves the n x n system a x = b in place (Gaussian elimination with partial pivoting);
// false if it is singular.
template <int n>
bool SolveLinearSystem(std::array<std::array<double, n>, n>& a, std::array<double, n>& b,
                       std::array<double, n>& x) {
  for (int col = 0; col < n; ++col) {
    int pivot = col;
    for (int row = col + 1; row < n; ++row) {
      if (std::abs(a[row][col]) > std::abs(a[pivot][col])) pivot = row;
    }
    if (std::abs(a[pivot][col]) < 1e-9) return false;
    std::swap(a[pivot], a[col]);
    std::swap(b[pivot], b[col]);
    for (int row = col + 1; row < n; ++row) {
      const double factor = a[row][col] / a[col][col];
      for (int k = col; k < n; ++k) a[row][k] -= factor * a[col][k];
      b[row] -= factor * b[col];
    }
  }
  for (int row = n - 1; row >= 0; --row) {
    double sum = b[row];
    for (int k = row + 1; k < n; ++k) sum -= a[row][k] * x[k];
    x[row] = sum / a[row][row];
  }
  return true;
}

}  // namespace

std::array<int, kNumFittedWeights> FittedFeatures(const Position& position) {
  const EvalFeatures features = ComputeEvalFeatures(position);
  std::array<int, kNumFittedWeights> vector{};
  for (int k = 0; k < kNumFittedWeights; ++k) vector[k] = features.*kFeatureOfWeightOption[k];
  return vector;
}

absl::StatusOr<std::vector<FitSample>> SamplesFromGame(const GameRecord& record) {
  std::vector<FitSample> samples;
  if (record.termination != "normal") return samples;
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
  constexpr int n = kNumFittedWeights;
  FitResult result;
  result.weights = WeightsOf(start);
  // The normal equations of the free weights; the fixed ones move to the right-hand side.
  // A fixed weight gets the identity row, so that it comes back unchanged.
  std::array<std::array<double, n>, n> normal{};
  std::array<double, n> right{};
  for (const FitSample& sample : samples) {
    double residual = sample.target_cp - kPoint * sample.score_difference;
    for (int k = 0; k < n; ++k) {
      if (fixed[k]) residual -= result.weights[k] * sample.features[k];
    }
    for (int i = 0; i < n; ++i) {
      if (fixed[i]) continue;
      right[i] += sample.features[i] * residual;
      for (int j = 0; j < n; ++j) {
        if (!fixed[j]) normal[i][j] += static_cast<double>(sample.features[i]) * sample.features[j];
      }
    }
  }
  for (int k = 0; k < n; ++k) {
    if (fixed[k]) {
      normal[k][k] = 1;
      right[k] = result.weights[k];
    }
  }
  std::array<double, n> solution{};
  result.ok = SolveLinearSystem<n>(normal, right, solution);
  if (result.ok) result.weights = solution;
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
