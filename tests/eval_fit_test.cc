#include "tools/tune/eval_fit.h"

#include <random>
#include <vector>

#include "absl/strings/str_join.h"
#include "engine/move.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "tools/tune/pattern_fit.h"

namespace divercite {
namespace {

// The evaluation is exactly the score difference plus the weighted features: the linearity
// the fit relies on, and the feature-to-weight table in the right order.
TEST(EvalFeaturesTest, EvaluationIsTheWeightedSumOfTheFeatures) {
  EvalWeights weights;
  // Distinct weights, so that a feature paired with the wrong weight shows.
  for (int k = 0; k < kNumFittedWeights; ++k) weights.*kEvalWeightOptions[k].weight = 7 + 13 * k;
  int positions_with_features = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      const EvalFeatures features = ComputeEvalFeatures(position);
      const std::array<int, kNumFittedWeights> vector = FittedFeatures(position);
      int expected = kPoint * features.score_difference;
      bool any = false;
      for (int k = 0; k < kNumFittedWeights; ++k) {
        expected += vector[k] * (weights.*kEvalWeightOptions[k].weight);
        any = any || vector[k] != 0;
      }
      positions_with_features += any;
      ASSERT_EQ(EvaluateLinear(position, weights), expected);
    }
  }
  EXPECT_GT(positions_with_features, 1000);
}

TEST(FitWeightsTest, RecoversTheWeightsThatMadeTheTargets) {
  std::mt19937_64 rng(5);
  const std::array<double, kNumFittedWeights> truth = {55, 20, -10, 90, 35, 15, -25, 60, -30};
  std::vector<FitSample> samples(500);
  for (FitSample& sample : samples) {
    sample.score_difference = static_cast<int>(rng() % 21) - 10;
    double target = kPoint * sample.score_difference;
    for (int k = 0; k < kNumFittedWeights; ++k) {
      sample.features[k] = static_cast<int>(rng() % 9) - 4;
      target += truth[k] * sample.features[k];
    }
    sample.target_cp = static_cast<int>(target);  // whole numbers: exact
  }
  const FitResult fit = FitWeights(samples, EvalWeights{});
  ASSERT_TRUE(fit.ok);
  for (int k = 0; k < kNumFittedWeights; ++k) EXPECT_NEAR(fit.weights[k], truth[k], 1e-6) << k;
  EXPECT_NEAR(MeanSquaredError(samples, fit.weights), 0, 1e-12);
  EXPECT_GT(MeanSquaredError(samples, WeightsOf(EvalWeights{})), 1);

  // A fixed weight keeps its value; the others still come out right when it is the truth.
  EvalWeights start;
  start.open_two = 90;  // EvalOpenTwo, index 3
  std::array<bool, kNumFittedWeights> fixed{};
  fixed[3] = true;
  const FitResult partial = FitWeights(samples, start, fixed);
  ASSERT_TRUE(partial.ok);
  for (int k = 0; k < kNumFittedWeights; ++k) EXPECT_NEAR(partial.weights[k], truth[k], 1e-6);
}

TEST(FitWeightsTest, DependentFeaturesAreReportedNotSolved) {
  std::vector<FitSample> samples(100);  // every feature zero
  for (int i = 0; i < 100; ++i) samples[i].target_cp = i;
  EXPECT_FALSE(FitWeights(samples, EvalWeights{}).ok);

  // Two features that move together (here EvalOpenTwo = 2 x EvalOpenThreeToMove) cannot be
  // told apart; fixing one of them makes the rest solvable.
  std::mt19937_64 rng(9);
  for (FitSample& sample : samples) {
    for (int k = 0; k < kNumFittedWeights; ++k) {
      sample.features[k] = static_cast<int>(rng() % 7) - 3;
    }
    sample.features[3] = 2 * sample.features[0];
  }
  const FitResult dependent = FitWeights(samples, EvalWeights{});
  EXPECT_FALSE(dependent.ok);
  EXPECT_EQ(dependent.weights, WeightsOf(EvalWeights{})) << "left at the start weights";
  std::array<bool, kNumFittedWeights> fixed{};
  fixed[3] = true;
  EXPECT_TRUE(FitWeights(samples, EvalWeights{}, fixed).ok);

  // Fewer samples than free weights: no unique fit either.
  samples.resize(kNumFittedWeights - 1);
  EXPECT_FALSE(FitWeights(samples, EvalWeights{}).ok);
  EXPECT_FALSE(FitWeights({}, EvalWeights{}).ok);
}

TEST(FitWeightsTest, EveryWeightFixedComesBackUnchanged) {
  std::array<bool, kNumFittedWeights> fixed;
  fixed.fill(true);
  EvalWeights start;
  start.open_two = 77;
  const FitResult fit = FitWeights(std::vector<FitSample>(20), start, fixed);
  EXPECT_TRUE(fit.ok);
  EXPECT_EQ(fit.weights, WeightsOf(start));
}

// A record of reference-like play: random moves, an exact score reported at move `exact_at`.
GameRecord RandomRecord(std::uint64_t seed, int opening_plies, int exact_at, int exact_cp) {
  const std::vector<Position> line = testing::RandomGame(seed);
  GameRecord record;
  record.game = static_cast<int>(seed);
  record.result = GameOutcome::kFirstWins;
  record.termination = Termination::kNormal;
  record.start = "startpos";
  std::vector<std::string> opening;
  for (int ply = 0; ply + 1 < static_cast<int>(line.size()); ++ply) {
    // The move between two positions: the one cell that filled.
    Bitboard placed = line[ply + 1].Occupied() & ~line[ply].Occupied();
    const int cell = PopLowestCell(placed);
    const std::string text = MoveToString(Move(cell, line[ply + 1].ColourAt(cell)));
    if (ply < opening_plies) {
      opening.push_back(text);
      continue;
    }
    MoveRecord move;
    move.move = text;
    if (ply - opening_plies >= exact_at) {
      move.exact = true;
      move.score_cp = (ply - opening_plies - exact_at) % 2 == 0 ? exact_cp : -exact_cp;
    }
    record.moves.push_back(move);
  }
  record.opening = absl::StrJoin(opening, " ");
  return record;
}

TEST(SamplesFromGameTest, OnePerPositionBeforeTheFirstExactScoreSeenFromItsSideToMove) {
  const GameRecord record = RandomRecord(11, 4, 17, 300);
  const absl::StatusOr<std::vector<FitSample>> samples = SamplesFromGame(record);
  ASSERT_TRUE(samples.ok()) << samples.status();
  ASSERT_EQ(samples->size(), 17u);
  const std::vector<Position> line = testing::RandomGame(11);
  for (int i = 0; i < 17; ++i) {
    const FitSample& sample = (*samples)[i];
    const Position& position = line[4 + i];
    EXPECT_EQ(sample.ply, 4 + i);
    EXPECT_EQ(sample.game, 11);
    // Move 17 is made by the side to move at positions 17, 15, ...: +300 there.
    EXPECT_EQ(sample.target_cp, (17 - i) % 2 == 0 ? 300 : -300) << i;
    EXPECT_EQ(sample.features, FittedFeatures(position));
    const Player us = position.SideToMove();
    EXPECT_EQ(sample.score_difference, position.Score(us) - position.Score(Opponent(us)));
  }
}

TEST(SamplesFromGameTest, GamesWithoutAnExactScoreOrNotEndedNormallyGiveNone) {
  GameRecord record = RandomRecord(12, 2, 50, 100);  // never exact
  absl::StatusOr<std::vector<FitSample>> samples = SamplesFromGame(record);
  ASSERT_TRUE(samples.ok());
  EXPECT_TRUE(samples->empty());
  record = RandomRecord(12, 2, 20, 100);
  record.termination = Termination::kTime;
  samples = SamplesFromGame(record);
  ASSERT_TRUE(samples.ok());
  EXPECT_TRUE(samples->empty());
}

TEST(SamplesFromGameTest, AnIllegalMoveOrBadStartIsAnErrorNamingIt) {
  GameRecord record = RandomRecord(13, 2, 20, 100);
  record.moves[3].move = record.moves[1].move;  // that cell is taken by then
  absl::StatusOr<std::vector<FitSample>> samples = SamplesFromGame(record);
  ASSERT_FALSE(samples.ok());
  EXPECT_NE(samples.status().message().find(record.moves[1].move), std::string::npos)
      << samples.status();
  EXPECT_NE(samples.status().message().find("ply 5"), std::string::npos) << samples.status();

  record = RandomRecord(13, 2, 20, 100);
  record.start = "fen nonsense w";
  EXPECT_FALSE(SamplesFromGame(record).ok());
  record.start = "somewhere";
  EXPECT_FALSE(SamplesFromGame(record).ok());
}

// The pattern fit recovers values planted in the labels: random positions whose label is the
// score difference plus planted start and end values of their patterns, no noise, and a tiny
// penalty. The cells' patterns seen often come back exactly; the global tables (each position
// has exactly one entry of each) only up to a constant shared by a table's entries, which no
// data can tell apart: their differences come back.
TEST(FitPatternsTest, RecoversPlantedPatternValues) {
  constexpr int n = patterns::kNumPatterns;
  std::mt19937_64 rng(21);
  std::vector<double> planted(2 * n);
  for (double& value : planted) value = static_cast<double>(rng() % 601) / 100 - 3;  // -3..3
  const PatternSamples samples = PlantedSamples(planted, 600, 22);
  std::vector<bool> all(samples.size(), true);
  const PatternFit fit = FitPatterns(samples, all, Label::kLater, 1e-6);
  std::vector<int> seen(n, 0);
  for (const PatternTerm& term : samples.terms) ++seen[term.pattern];
  int checked = 0;
  for (int k = 0; k < patterns::kThreatOffset; ++k) {
    if (seen[k] < 400) continue;
    EXPECT_NEAR(fit.values[k], planted[k], 0.02) << patterns::DescribePattern(k);
    EXPECT_NEAR(fit.values[n + k], planted[n + k], 0.02) << patterns::DescribePattern(k);
    ++checked;
  }
  EXPECT_GT(checked, 100);
  const int tables[] = {patterns::kThreatOffset, patterns::kCitiesInHandOffset,
                        patterns::kSideToMoveOffset, n};
  for (int t = 0; t + 1 < 4; ++t) {
    const int first = tables[t];
    int reference = first;
    for (int k = first; k < tables[t + 1]; ++k) {
      if (seen[k] > seen[reference]) reference = k;
    }
    for (int k = first; k < tables[t + 1]; ++k) {
      if (seen[k] < 400) continue;
      for (const int column : {0, n}) {
        EXPECT_NEAR(fit.values[column + k] - fit.values[column + reference],
                    planted[column + k] - planted[column + reference], 0.02)
            << patterns::DescribePattern(k);
      }
    }
  }
  // The predictions match the labels.
  double worst = 0;
  for (const PatternSamples::Sample& sample : samples.samples) {
    worst = std::max(worst, std::abs(PredictPoints(samples, sample, fit.values) - sample.later));
  }
  EXPECT_LT(worst, 0.01);
}

// A game's positions: labelled by the first exact score at or after them (sign by side to
// move), the mover's own score as the search label, and only until the last move.
TEST(PatternSamplesTest, LabelsFromTheExactScoreAtOrAfterEachPosition) {
  const GameRecord record = RandomRecord(11, 4, 17, 300);
  PatternSamples samples;
  ASSERT_TRUE(AddGameSamples(record, samples).ok());
  ASSERT_EQ(samples.size(), record.moves.size() - 1);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const PatternSamples::Sample& sample = samples.samples[i];
    EXPECT_EQ(sample.ply, 4 + i);
    const int sign = (static_cast<int>(i) - 17) % 2 == 0 ? 1 : -1;
    EXPECT_FLOAT_EQ(sample.later, 3.0f * sign) << i;
    EXPECT_EQ(sample.exact, i >= 17);
    EXPECT_EQ(sample.has_search, i >= 17);
    EXPECT_EQ(LabelOf(sample, Label::kSearch), sample.later);
  }
}

}  // namespace
}  // namespace divercite
