// divercite-tune-patterns: fits the learned evaluation's pattern tables (search/patterns.h)
// to the positions of recorded games by regularised least squares (tools/tune/pattern_fit.h),
// reports the training and held-out error by stage of the game next to the linear
// evaluation's on the same positions, and writes the weight file.
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "tools/common/command_line.h"
#include "tools/records/record_store.h"
#include "tools/tune/pattern_file.h"
#include "tools/tune/pattern_fit.h"

ABSL_FLAG(std::vector<std::string>, records, {},
          "Match record files (JSON lines, as written by divercite-match -records), comma "
          "separated");
ABSL_FLAG(int, validation_every, 5,
          "Every Nth pair of games (a -repeat opening played with both colours) is held out "
          "to validate the fit (0: none)");
ABSL_FLAG(std::string, label, "later",
          "What the fit predicts: later (the first exact score at or after the position), "
          "search (the score the mover reported), blend (their mean)");
ABSL_FLAG(std::string, score_label, "later",
          "What the errors are measured against: later, search or blend (as --label)");
ABSL_FLAG(std::vector<std::string>, lambda, {"30"},
          "Penalties on the squared values to try (the one with the least held-out error is "
          "kept)");
ABSL_FLAG(int, min_ply, 0, "Fit only positions at this ply or later");
ABSL_FLAG(int, max_ply, 38, "Fit only positions at this ply or earlier");
ABSL_FLAG(std::string, out, "", "Write the fitted tables to this weight file");
ABSL_FLAG(std::string, data_name, "",
          "What the data is, for the weight file's header (default: the record files)");
ABSL_FLAG(std::string, compare, "",
          "A weight file whose error to report beside the fit's (on the same positions)");

namespace {

using divercite::Label;
using divercite::PatternSamples;

int Fail(absl::string_view message) {
  return divercite::UsageError("divercite-tune-patterns", message);
}

constexpr int kStageWidth = 8;
constexpr int kStages = divercite::kTotalPlies / kStageWidth;

// Squared errors by stage, in points squared.
struct StageErrors {
  double sum[kStages] = {};
  double bias[kStages] = {};
  long count[kStages] = {};
  void Add(int ply, double error) {
    sum[ply / kStageWidth] += error * error;
    bias[ply / kStageWidth] += error;
    ++count[ply / kStageWidth];
  }
  double Total() const {
    double s = 0;
    long n = 0;
    for (int k = 0; k < kStages; ++k) s += sum[k], n += count[k];
    return n ? s / n : 0;
  }
  std::string Line() const {
    std::string line;
    for (int k = 0; k < kStages; ++k) {
      absl::StrAppend(
          &line, count[k] ? absl::StrFormat(" %6.2f", sum[k] / count[k]) : std::string("      -"));
    }
    return absl::StrCat(line, absl::StrFormat("  | all %6.3f", Total()));
  }
};

template <typename Predict>
StageErrors ErrorsOf(const PatternSamples& samples, const std::vector<bool>& use, Label label,
                     Predict predict) {
  StageErrors errors;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    if (!use[s]) continue;
    const PatternSamples::Sample& sample = samples.samples[s];
    errors.Add(sample.ply, divercite::LabelOf(sample, label) - predict(sample));
  }
  return errors;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<char*> positional = divercite::ParseToolCommandLine(
      argc, argv, "pattern_tune_main.cc",
      "Fits the learned evaluation's pattern tables to recorded games.\n"
      "Usage: divercite-tune-patterns --records=a.jsonl[,b.jsonl] [--label=later] "
      "[--lambda=10,30,100] [--out=weights.eval]");
  if (positional.size() > 1) return Fail(absl::StrCat("unexpected argument '", positional[1], "'"));
  const std::vector<std::string> paths = absl::GetFlag(FLAGS_records);
  if (paths.empty()) return Fail("--records is required");
  const int validation_every = absl::GetFlag(FLAGS_validation_every);
  if (validation_every < 0) return Fail("--validation_every must be 0 or more");
  auto parse_label = [](const std::string& name) -> std::optional<Label> {
    if (name == "later") return Label::kLater;
    if (name == "search") return Label::kSearch;
    if (name == "blend") return Label::kBlend;
    return std::nullopt;
  };
  const std::string label_name = absl::GetFlag(FLAGS_label);
  const std::optional<Label> fit_label = parse_label(label_name);
  if (!fit_label) return Fail(absl::StrCat("--label: unknown label '", label_name, "'"));
  const std::optional<Label> score_label = parse_label(absl::GetFlag(FLAGS_score_label));
  if (!score_label) {
    return Fail(
        absl::StrCat("--score_label: unknown label '", absl::GetFlag(FLAGS_score_label), "'"));
  }
  const Label label = *score_label;
  std::vector<double> lambdas;
  for (const std::string& text : absl::GetFlag(FLAGS_lambda)) {
    double lambda = 0;
    if (!absl::SimpleAtod(text, &lambda) || lambda < 0) {
      return Fail(absl::StrCat("--lambda: '", text, "' is not a number >= 0"));
    }
    lambdas.push_back(lambda);
  }
  if (lambdas.empty()) return Fail("--lambda: at least one value");
  std::optional<divercite::PatternWeights> compare;
  if (!absl::GetFlag(FLAGS_compare).empty()) {
    absl::StatusOr<divercite::PatternWeights> loaded =
        divercite::ReadPatternFile(absl::GetFlag(FLAGS_compare));
    if (!loaded.ok()) return Fail(std::string(loaded.status().message()));
    compare = *loaded;
  }

  PatternSamples samples;
  int games = 0;
  for (const std::string& path : paths) {
    const absl::Status status = divercite::ForEachRecord(path, [&](const divercite::GameRecord& r) {
      ++games;
      return divercite::AddGameSamples(r, samples);
    });
    if (!status.ok()) return Fail(std::string(status.message()));
  }
  const int min_ply = absl::GetFlag(FLAGS_min_ply), max_ply = absl::GetFlag(FLAGS_max_ply);
  std::vector<bool> training(samples.size()), validation(samples.size());
  std::vector<bool> training_late(samples.size()), validation_late(samples.size());
  long num_training = 0, num_validation = 0;
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const PatternSamples::Sample& sample = samples.samples[s];
    if (sample.ply < min_ply || sample.ply > max_ply) continue;
    const bool held_out = validation_every > 0 && sample.pair % validation_every == 0;
    (held_out ? validation : training)[s] = true;
    ++(held_out ? num_validation : num_training);
  }
  std::printf(
      "%d games; positions: %ld training, %ld validation (plies %d-%d), fitted to label %s, "
      "errors against label %s\n",
      games, num_training, num_validation, min_ply, max_ply, label_name.c_str(),
      absl::GetFlag(FLAGS_score_label).c_str());
  if (num_training < 1000) return Fail("too few positions to fit");

  std::printf("mean squared error (points^2) by stage, plies");
  for (int k = 0; k < kStages; ++k) {
    std::printf(" %2d-%-3d", k * kStageWidth, k * kStageWidth + kStageWidth - 1);
  }
  std::printf("\n");
  auto old_eval = [](const PatternSamples::Sample& s) { return static_cast<double>(s.old_eval); };
  std::printf("  linear evaluation, training   %s\n",
              ErrorsOf(samples, training, label, old_eval).Line().c_str());
  std::printf("  linear evaluation, held out   %s\n",
              ErrorsOf(samples, validation, label, old_eval).Line().c_str());
  if (compare) {
    std::vector<double> values(2 * divercite::patterns::kNumPatterns);
    for (int k = 0; k < divercite::patterns::kNumPatterns; ++k) {
      values[k] = compare->values[k].start / 100.0;
      values[divercite::patterns::kNumPatterns + k] = compare->values[k].end / 100.0;
    }
    auto predict = [&](const PatternSamples::Sample& s) {
      return divercite::PredictPoints(samples, s, values);
    };
    std::printf("  %s, training   %s\n", absl::GetFlag(FLAGS_compare).c_str(),
                ErrorsOf(samples, training, label, predict).Line().c_str());
    std::printf("  %s, held out   %s\n", absl::GetFlag(FLAGS_compare).c_str(),
                ErrorsOf(samples, validation, label, predict).Line().c_str());
  }

  std::optional<divercite::PatternFit> best;
  double best_error = 0, best_lambda = 0;
  for (const double lambda : lambdas) {
    divercite::PatternFit fit = divercite::FitPatterns(samples, training, *fit_label, lambda);
    auto predict = [&](const PatternSamples::Sample& s) {
      return divercite::PredictPoints(samples, s, fit.values);
    };
    const StageErrors train = ErrorsOf(samples, training, label, predict);
    const StageErrors held = ErrorsOf(samples, validation, label, predict);
    std::printf("  patterns lambda %-6g training   %s\n", lambda, train.Line().c_str());
    std::printf("  patterns lambda %-6g held out   %s   (%d values fitted)\n", lambda,
                held.Line().c_str(), fit.columns_used);
    const double error = num_validation ? held.Total() : train.Total();
    if (!best || error < best_error) {
      best = std::move(fit);
      best_error = error;
      best_lambda = lambda;
    }
  }

  const std::string out = absl::GetFlag(FLAGS_out);
  if (!out.empty()) {
    best->weights.data = absl::GetFlag(FLAGS_data_name).empty()
                             ? absl::StrCat(absl::StrJoin(paths, ","), ": ", games, " games, ",
                                            num_training, " positions")
                             : absl::GetFlag(FLAGS_data_name);
    best->weights.fit = absl::StrFormat(
        "divercite-tune-patterns label=%s lambda=%g plies=%d-%d validation_every=%d; "
        "held-out MSE %.3f points^2 on %ld positions",
        label_name, best_lambda, min_ply, max_ply, validation_every, best_error, num_validation);
    if (absl::Status status = divercite::WritePatternFile(out, best->weights); !status.ok()) {
      return Fail(std::string(status.message()));
    }
    std::printf("wrote %s (lambda %g)\n", out.c_str(), best_lambda);
  }
  return 0;
}
