// divercite-tune: fits the evaluation's weights to the positions of recorded games (see
// tools/tune/eval_fit.h) and says how well the current and the fitted weights predict the
// exact scores found later in those games. The fitted weights are a proposal: a match decides.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "tools/common/command_line.h"
#include "tools/records/record_store.h"
#include "tools/tune/eval_fit.h"

ABSL_FLAG(std::vector<std::string>, records, {},
          "Match record files (JSON lines, as written by divercite-match -records), comma "
          "separated");
ABSL_FLAG(int, validation_every, 5,
          "Every Nth game (by its number in the record) is held out to validate the fit "
          "(0: none)");
ABSL_FLAG(int, min_ply, 0, "Fit only positions at this ply or later");
ABSL_FLAG(int, max_ply, 40, "Fit only positions at this ply or earlier");
ABSL_FLAG(std::vector<std::string>, fix, {},
          "Weights (option names, e.g. EvalCityInHand) kept at their current value");
ABSL_FLAG(std::vector<std::string>, weights, {},
          "Current weights to compare with, as Name=Value (default: the engine's defaults)");

namespace {

using divercite::EvalWeights;
using divercite::FitSample;
using divercite::kEvalWeightOptions;
using divercite::kNumFittedWeights;

int Fail(absl::string_view message) { return divercite::UsageError("divercite-tune", message); }

int OptionIndex(absl::string_view name) {
  for (int k = 0; k < kNumFittedWeights; ++k) {
    if (absl::EqualsIgnoreCase(name, kEvalWeightOptions[k].name)) return k;
  }
  return -1;
}

// Reads every game of a record file into samples; a line that is not a record is an error
// (with its line number), a game that gives no sample is counted. An unfinished last line (a
// match still writing, or interrupted) is left out.
absl::Status ReadSamples(const std::string& path, int validation_every,
                         std::vector<FitSample>& training, std::vector<FitSample>& validation,
                         int& games, int& games_without_samples) {
  return divercite::ForEachRecord(path, [&](const divercite::GameRecord& record) {
    absl::StatusOr<std::vector<FitSample>> samples = divercite::SamplesFromGame(record);
    if (!samples.ok()) return samples.status();
    ++games;
    if (samples->empty()) ++games_without_samples;
    const bool held_out = validation_every > 0 && record.game % validation_every == 0;
    auto& target = held_out ? validation : training;
    target.insert(target.end(), samples->begin(), samples->end());
    return absl::OkStatus();
  });
}

void PrintWeights(const char* title, const std::array<double, kNumFittedWeights>& weights,
                  const std::vector<FitSample>& training,
                  const std::vector<FitSample>& validation) {
  std::printf("%s\n", title);
  for (int k = 0; k < kNumFittedWeights; ++k) {
    std::printf("  %-22s %8.1f\n", kEvalWeightOptions[k].name, weights[k]);
  }
  std::printf("  mean squared error (points^2): training %.3f",
              divercite::MeanSquaredError(training, weights));
  if (!validation.empty()) {
    std::printf(", validation %.3f", divercite::MeanSquaredError(validation, weights));
  }
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> positional = divercite::ParseToolCommandLine(
      argc, argv, "tune_main.cc",
      "Fits the evaluation's weights to recorded games by least squares.\n"
      "Usage: divercite-tune --records=a.jsonl[,b.jsonl] [--validation_every=5] "
      "[--min_ply=P] [--max_ply=P] [--fix=Name,...] [--weights=Name=V,...]");
  if (positional.size() > 1) return Fail(absl::StrCat("unexpected argument '", positional[1], "'"));
  const std::vector<std::string> paths = absl::GetFlag(FLAGS_records);
  if (paths.empty()) return Fail("--records is required");
  const int validation_every = absl::GetFlag(FLAGS_validation_every);
  if (validation_every < 0) return Fail("--validation_every must be 0 or more");
  const int min_ply = absl::GetFlag(FLAGS_min_ply), max_ply = absl::GetFlag(FLAGS_max_ply);

  EvalWeights current;
  for (const std::string& item : absl::GetFlag(FLAGS_weights)) {
    std::vector<std::string> parts = absl::StrSplit(item, '=');
    int value = 0;
    const int k = parts.size() == 2 ? OptionIndex(parts[0]) : -1;
    if (k < 0 || !absl::SimpleAtoi(parts[1], &value)) {
      return Fail(absl::StrCat("--weights: '", item, "' is not Name=Value with a known name"));
    }
    current.*kEvalWeightOptions[k].weight = value;
  }
  std::array<bool, kNumFittedWeights> fixed{};
  for (const std::string& name : absl::GetFlag(FLAGS_fix)) {
    const int k = OptionIndex(name);
    if (k < 0) return Fail(absl::StrCat("--fix: unknown weight '", name, "'"));
    fixed[k] = true;
  }

  std::vector<FitSample> training, validation;
  int games = 0, games_without_samples = 0;
  for (const std::string& path : paths) {
    absl::Status status =
        ReadSamples(path, validation_every, training, validation, games, games_without_samples);
    if (!status.ok()) return Fail(std::string(status.message()));
  }
  auto outside_plies = [&](const FitSample& s) { return s.ply < min_ply || s.ply > max_ply; };
  std::erase_if(training, outside_plies);
  std::erase_if(validation, outside_plies);
  std::printf(
      "%d games (%d without an exact score or not ended normally); positions: "
      "%zu training, %zu validation (plies %d-%d)\n",
      games, games_without_samples, training.size(), validation.size(), min_ply, max_ply);
  if (training.size() < 10 * kNumFittedWeights) return Fail("too few positions to fit");

  const std::array<double, kNumFittedWeights> current_weights = divercite::WeightsOf(current);
  PrintWeights("current weights", current_weights, training, validation);
  const divercite::FitResult fit = divercite::FitWeights(training, current, fixed);
  if (!fit.ok) {
    return Fail("the features are linearly dependent over these positions; fix some weights");
  }
  PrintWeights("fitted weights", fit.weights, training, validation);

  // How the fit does by stage of the game: one set of weights for all plies may fit some
  // stages worse than others.
  std::printf("fitted, by stage (training):\n");
  for (int first = 0; first < divercite::kTotalPlies; first += 8) {
    std::vector<FitSample> stage;
    for (const FitSample& sample : training) {
      if (sample.ply >= first && sample.ply < first + 8) stage.push_back(sample);
    }
    if (stage.empty()) continue;
    double residual = 0;
    for (const FitSample& sample : stage) {
      residual += sample.target_cp - divercite::PredictedValue(sample, fit.weights);
    }
    std::printf("  plies %d-%d: %zu positions, mean error %+.0f cp, mean squared %.2f\n", first,
                first + 7, stage.size(), residual / stage.size(),
                divercite::MeanSquaredError(stage, fit.weights));
  }
  std::printf("as match options:");
  for (int k = 0; k < kNumFittedWeights; ++k) {
    std::printf(" option.%s=%ld", kEvalWeightOptions[k].name, std::lround(fit.weights[k]));
  }
  std::printf("\n");
  return 0;
}
