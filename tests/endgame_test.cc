#include "search/endgame.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <vector>

#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "search/margin_bounds.h"
#include "search/network_file.h"
#include "search/tt.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::BruteForceMargin;

// The bounds as first written, cell by cell: the bit-parallel FinalMarginBounds must agree.
MarginBounds ReferenceMarginBounds(const Position& position) {
  const Player us = position.SideToMove();
  const Bitboard occupied = position.Occupied();
  // Resources of each colour still to be placed, by either player: a city can only gain
  // what is left.
  std::array<int, kNumColours> resources_left{};
  unsigned exhausted = 0;  // one bit per colour of which no resource is left
  for (int c = 0; c < kNumColours; ++c) {
    const Colour colour = static_cast<Colour>(c);
    resources_left[c] = position.PiecesLeft(Player::kFirst, Kind::kResource, colour) +
                        position.PiecesLeft(Player::kSecond, Kind::kResource, colour);
    if (resources_left[c] == 0) exhausted |= 1u << c;
  }
  // Whether a city with these neighbours filled and these colours present can still see four
  // colours around it: no colour twice, and every missing colour still to come.
  auto divercite_possible = [exhausted](Bitboard filled, unsigned present) {
    return std::popcount(present) == PopCount(filled) && !(exhausted & ~present);
  };
  // The score is the sum of the cities' values now, and a value never drops as resources
  // come: the score now is the least a player ends with. Only the open cities (with an empty
  // neighbour) can still gain.
  const int low[kNumPlayers] = {position.Score(Player::kFirst), position.Score(Player::kSecond)};
  int high[kNumPlayers] = {low[0], low[1]};
  const Bitboard holes = kResourceCells & ~occupied;
  Bitboard open_cities = 0;
  for (Bitboard cells = holes; cells;) open_cities |= Neighbours(PopLowestCell(cells));
  // A city that can no longer be a divercité gains only its own colour's resources, one point
  // each: per owner and colour, what those cities could take, and which they are.
  int own_gain[kNumPlayers][kNumColours] = {};
  Bitboard gaining[kNumPlayers][kNumColours] = {};
  for (Bitboard cities = open_cities & occupied; cities;) {
    const int city = PopLowestCell(cities);
    const int colour = Index(position.ColourAt(city));
    const int owner = Index(position.OwnerAt(city));
    const Bitboard around = Neighbours(city);
    const Bitboard filled = occupied & around;
    if (divercite_possible(filled, position.ColoursOn(around))) {
      high[owner] +=
          kDivercitePoints - PopCount(position.PiecesOf(static_cast<Colour>(colour)) & around);
    } else if (resources_left[colour] > 0) {
      own_gain[owner][colour] += std::min(PopCount(around & ~filled), resources_left[colour]);
      gaining[owner][colour] |= Bit(city);
    }
  }
  // Each resource adds a point to each city of its colour around its cell, no more: a colour's
  // few resources cannot reach every city that waits for one.
  for (int p = 0; p < kNumPlayers; ++p) {
    for (int c = 0; c < kNumColours; ++c) {
      int gain = own_gain[p][c];
      if (gain > resources_left[c]) {
        int reach = 0;  // the most such cities one cell touches
        for (Bitboard cells = holes; cells;) {
          reach = std::max(reach, PopCount(Neighbours(PopLowestCell(cells)) & gaining[p][c]));
        }
        gain = std::min(gain, reach * resources_left[c]);
      }
      high[p] += gain;
    }
  }
  // The cities in hand fill the empty city cells (as many of each); each player's best
  // case takes the cells of most potential for the colours of the cities it holds. Here a
  // player at a time: every empty city cell's potential, cell by cell in index order, all of
  // them sorted, the largest summed, one per city in hand.
  for (int p = 0; p < kNumPlayers; ++p) {
    const Player player = static_cast<Player>(p);
    int cities_in_hand = 0;
    for (int c = 0; c < kNumColours; ++c) {
      cities_in_hand += position.PiecesLeft(player, Kind::kCity, static_cast<Colour>(c));
    }
    std::vector<int> potentials;
    for (int cell = 0; cell < kNumCells; ++cell) {
      if (!IsCityCell(cell) || position.PieceAt(cell)) continue;
      const Bitboard around = Neighbours(cell);
      const Bitboard filled = occupied & around;
      if (divercite_possible(filled, position.ColoursOn(around))) {
        potentials.push_back(kDivercitePoints);
        continue;
      }
      int potential = 0;
      for (int c = 0; c < kNumColours; ++c) {
        const Colour colour = static_cast<Colour>(c);
        if (position.PiecesLeft(player, Kind::kCity, colour) == 0) continue;
        potential =
            std::max(potential, PopCount(position.PiecesOf(colour) & around) +
                                    std::min(PopCount(around & ~filled), resources_left[c]));
      }
      potentials.push_back(potential);
    }
    std::sort(potentials.begin(), potentials.end(), std::greater<>());
    EXPECT_LE(cities_in_hand, std::ssize(potentials));
    high[p] += std::accumulate(potentials.begin(), potentials.begin() + cities_in_hand, 0);
  }
  // The last-move tie-break moves only a level score: to +1 for either player, or, from the
  // first player's view, to 0 or +2 (the n = 2 comparison then the unconditional point).
  const Player them = Opponent(us);
  int lower = low[Index(us)] - high[Index(them)];
  int upper = high[Index(us)] - low[Index(them)];
  const bool level_possible = lower <= 0 && upper >= 0;
  if (level_possible) {
    // The first player's +2 needs more cities with exactly two own-colour neighbours.
    int first_most = 0, second_least = 0;
    for (int p = 0; p < kNumPlayers; ++p) {
      for (int c = 0; c < kNumColours; ++c) {
        first_most +=
            p == 0 ? position.PiecesLeft(Player::kFirst, Kind::kCity, static_cast<Colour>(c)) : 0;
      }
    }
    for (Bitboard cities = occupied & kCityCells; cities;) {
      const int city = PopLowestCell(cities);
      const Bitboard around = Neighbours(city);
      const int own = PopCount(position.PiecesOf(position.ColourAt(city)) & around);
      const int holes = PopCount(around & ~occupied);
      const int left = resources_left[Index(position.ColourAt(city))];
      if (position.OwnerAt(city) == Player::kFirst) {
        first_most += own <= 2 && own + std::min(holes, left) >= 2;
      } else {
        second_least += own == 2 && (holes == 0 || left == 0);
      }
    }
    const int first_gain = first_most > second_least ? 2 : 1;
    const bool first = us == Player::kFirst;
    lower = std::min(lower, first ? -1 : -first_gain);
    upper = std::max(upper, first ? first_gain : 1);
  }
  return {kPoint * lower, kPoint * upper};
}

bool NeverStop() { return false; }
bool AlwaysStop() { return true; }

class EndgameTest : public ::testing::Test {
 protected:
  EndgameTest() { tt_.Resize(1); }
  TranspositionTable tt_;
  std::atomic<std::uint64_t> nodes_{0};
};

TEST_F(EndgameTest, FailSoftValuesAgreeWithBruteForceInEveryWindow) {
  EndgameSolver solver(tt_, nodes_, *DefaultNetworkWeights());
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
    EndgameSolver solver(tt_, nodes_, *DefaultNetworkWeights());
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
  EndgameSolver solver(tt_, nodes_, *DefaultNetworkWeights());
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

TEST(MarginBoundsTest, BitParallelBoundsAreTheCellByCellOnes) {
  for (std::uint64_t seed = 1; seed <= 2000; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      if (position.IsGameOver()) continue;
      const MarginBounds fast = FinalMarginBounds(position);
      const MarginBounds reference = ReferenceMarginBounds(position);
      ASSERT_EQ(fast.lower, reference.lower) << "seed " << seed << " ply " << position.Ply();
      ASSERT_EQ(fast.upper, reference.upper) << "seed " << seed << " ply " << position.Ply();
    }
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
