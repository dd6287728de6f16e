#include "search/endgame.h"

#include <atomic>
#include <cstdint>
#include <random>

#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "search/evaluate.h"
#include "search/tt.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::BruteForceMargin;

bool NeverStop() { return false; }
bool AlwaysStop() { return true; }

class EndgameTest : public ::testing::Test {
 protected:
  EndgameTest() { tt_.Resize(1); }
  TranspositionTable tt_;
  std::atomic<std::uint64_t> nodes_{0};
};

TEST_F(EndgameTest, FailSoftValuesAgreeWithBruteForceInEveryWindow) {
  EndgameSolver solver(tt_, nodes_, DefaultPatternWeights());
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int plies = 34 + static_cast<int>(seed % 5);  // 2 to 6 plies left
    const Position position = testing::RandomGame(seed, plies).back();
    const int exact = 100 * BruteForceMargin(position);
    // The table is kept between windows on purpose: bounds stored by one must serve the next.
    EXPECT_EQ(solver.Solve(position, -32000, 32000, NeverStop), exact) << "seed " << seed;
    for (int beta = exact - 300; beta <= exact + 300; beta += 100) {
      const int value = solver.Solve(position, beta - 1, beta, NeverStop);
      if (exact >= beta) {
        EXPECT_GE(value, beta) << "seed " << seed << " beta " << beta;
        EXPECT_LE(value, exact) << "a lower bound above the value, seed " << seed;
      } else {
        EXPECT_LT(value, beta) << "seed " << seed << " beta " << beta;
        EXPECT_GE(value, exact) << "an upper bound below the value, seed " << seed;
      }
    }
    EXPECT_FALSE(solver.stopped());
  }
  EXPECT_GT(nodes_.load(), 0u);
}

TEST_F(EndgameTest, SolvesFromTenPliesLeftAsTheSearchersAgree) {
  // Larger positions than brute force can check: a full-window solve and a bisection by null
  // windows (a fresh table each) must land on the same value.
  for (std::uint64_t seed = 50; seed < 56; ++seed) {
    const Position position = testing::RandomGame(seed, 30).back();
    tt_.Clear();
    EndgameSolver solver(tt_, nodes_, DefaultPatternWeights());
    const int full = solver.Solve(position, -32000, 32000, NeverStop);
    tt_.Clear();
    int lower = -32000, upper = 32000;
    while (lower < upper) {
      const int beta = lower + (upper - lower + 1) / 2;
      if (solver.Solve(position, beta - 1, beta, NeverStop) >= beta) {
        lower = beta;
      } else {
        upper = beta - 1;
      }
    }
    EXPECT_EQ(lower, full) << "seed " << seed;
    EXPECT_EQ(full % 100, 0);
    const MarginBounds bounds = FinalMarginBounds(position);
    EXPECT_LE(bounds.lower, full);
    EXPECT_GE(bounds.upper, full);
  }
}

TEST_F(EndgameTest, StopsWhenThePollSaysSo) {
  EndgameSolver solver(tt_, nodes_, DefaultPatternWeights());
  const Position position = testing::RandomGame(3, 28).back();
  solver.Solve(position, -32000, 32000, AlwaysStop);
  EXPECT_TRUE(solver.stopped());
  // At most one poll interval of work before it noticed.
  EXPECT_LE(nodes_.load(), 1100u);
}

TEST(MarginBoundsTest, EveryWayTheGameCanEndLiesWithinTheBounds) {
  // Bounds must hold for any play, not just best play: random endings from every ply.
  std::mt19937_64 rng(11);
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      if (position.IsGameOver()) continue;
      const MarginBounds bounds = FinalMarginBounds(position);
      for (int ending = 0; ending < 5; ++ending) {
        const Position end = testing::RandomGame(rng(), kTotalPlies, position).back();
        // The margin from the view of the side to move in `position`.
        const Player us = position.SideToMove();
        const int margin = 100 * (end.Score(us) - end.Score(Opponent(us)));
        ASSERT_LE(bounds.lower, margin) << "seed " << seed << " ply " << position.Ply();
        ASSERT_GE(bounds.upper, margin) << "seed " << seed << " ply " << position.Ply();
      }
    }
  }
}

// Every ending of `position`, the extremes of the final margin (side to move's view, points).
void EveryEnding(const Position& position, Player us, int& lowest, int& highest) {
  if (position.IsGameOver()) {
    const int margin = position.Score(us) - position.Score(Opponent(us));
    lowest = std::min(lowest, margin);
    highest = std::max(highest, margin);
    return;
  }
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    EveryEnding(child, us, lowest, highest);
  }
}

TEST(MarginBoundsTest, SmallEndgamesEndWithinTheBoundsWhateverIsPlayed) {
  // Every ending, not a sample, from 2 to 6 plies left: the tie-break's +2 for the first
  // player (a level score, then the n = 2 comparison and the unconditional point) included.
  for (std::uint64_t seed = 1; seed <= 1000; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    for (int plies_left = 2; plies_left <= 6; ++plies_left) {
      const Position& position = game[kTotalPlies - plies_left];
      int lowest = 1000, highest = -1000;
      EveryEnding(position, position.SideToMove(), lowest, highest);
      const MarginBounds bounds = FinalMarginBounds(position);
      ASSERT_LE(bounds.lower, 100 * lowest) << "seed " << seed << " plies left " << plies_left;
      ASSERT_GE(bounds.upper, 100 * highest) << "seed " << seed << " plies left " << plies_left;
    }
  }
}

TEST(MarginBoundsTest, ALevelScoreCanEndTwoPointsUpForTheFirstPlayer) {
  // Found by the random endings above once the bounds were tighter: 9-9, four plies left;
  // one ending is level at 10-10 and the tie-break gives the first player 12-10.
  const Position position =
      ParsePositionString("G/RrB/GBy2/1ygbbgY/R1rRGYY1y/bgBrrBg/gYBRr/Yby/R w").value();
  int lowest = 1000, highest = -1000;
  EveryEnding(position, position.SideToMove(), lowest, highest);
  EXPECT_EQ(highest, 2);
  EXPECT_GE(FinalMarginBounds(position).upper, 200);
}

}  // namespace
}  // namespace divercite
