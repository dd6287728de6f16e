// The pattern tuner (tools/tune/): the linear baseline, the samples read from game records,
// and the fit.
#include "tools/tune/pattern_fit.h"

#include <random>
#include <vector>

#include "absl/strings/str_join.h"
#include "engine/move.h"
#include "gtest/gtest.h"
#include "tests/test_util.h"
#include "tools/tune/linear_eval.h"

namespace divercite {
namespace {

// The baseline must not drift, or the errors printed beside the patterns' would compare
// nothing: its values over 40 random games, as the engine last played them (e006a31).
TEST(LinearEvalTest, TheBaselineKeepsItsValues) {
  long sum = 0, sum_of_squares = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      const long value = EvaluateLinear(position);
      sum += value;
      sum_of_squares += value * value;
    }
  }
  EXPECT_EQ(sum, 77572);
  EXPECT_EQ(sum_of_squares, 204488440);
}

// A record of reference-like play: random moves, an exact score reported at move `exact_at`.
GameRecord RandomRecord(std::uint64_t seed, int opening_plies, int exact_at, int exact_cp) {
  const std::vector<Position> line = testing::RandomGame(seed);
  GameRecord record;
  record.game = static_cast<int>(seed);
  record.result = GameResult::kFirstWins;
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

TEST(PatternSamplesTest, GamesWithoutAnExactScoreOrNotEndedNormallyGiveNone) {
  PatternSamples samples;
  ASSERT_TRUE(AddGameSamples(RandomRecord(12, 2, 50, 100), samples).ok());  // never exact
  EXPECT_EQ(samples.size(), 0u);
  GameRecord record = RandomRecord(12, 2, 20, 100);
  record.termination = Termination::kTime;
  ASSERT_TRUE(AddGameSamples(record, samples).ok());
  EXPECT_EQ(samples.size(), 0u);
}

TEST(PatternSamplesTest, AnIllegalMoveOrBadStartIsAnErrorNamingIt) {
  GameRecord record = RandomRecord(13, 2, 20, 100);
  record.moves[3].move = record.moves[1].move;  // that cell is taken by then
  PatternSamples samples;
  absl::Status status = AddGameSamples(record, samples);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(record.moves[1].move), std::string::npos) << status;
  EXPECT_NE(status.message().find("ply 5"), std::string::npos) << status;

  record = RandomRecord(13, 2, 20, 100);
  record.start = "fen nonsense w";
  EXPECT_FALSE(AddGameSamples(record, samples).ok());
  record.start = "somewhere";
  EXPECT_FALSE(AddGameSamples(record, samples).ok());
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
