// The root's proof of the result (issue 23): every proven result must be the sign class of
// the exact value, and the move it keeps must keep that result.
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"
#include "search/search.h"
#include "tests/reference_games.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::ReferenceGames;

constexpr std::size_t kHashMegabytes = 16;

// How many positions each source gives: a tenth in an unoptimised build (-O0, some 10 times
// slower), which keeps it under a minute.
#ifdef __OPTIMIZE__
constexpr int kReferenceGames = 170;
constexpr int kRandomGames = 60;
constexpr int kDrawTries = 600;
constexpr int kMinDraws = 10;
constexpr int kKeptGames = 6;
#else
constexpr int kReferenceGames = 17;
constexpr int kRandomGames = 6;
constexpr int kDrawTries = 60;
constexpr int kMinDraws = 0;
constexpr int kKeptGames = 2;
#endif

Position After(const std::vector<std::string>& moves, int plies) {
  Position position = Position::Start();
  for (int i = 0; i < plies; ++i) {
    absl::StatusOr<Move> move = ParseMove(moves[i]);
    EXPECT_TRUE(move.ok() && position.IsLegal(*move)) << moves[i];
    position.Play(*move);
  }
  return position;
}

SearchResult Solve(Searcher& searcher, const Position& position) {
  SearchLimits limits;
  limits.depth = kTotalPlies;
  const SearchResult result = searcher.Search(position, limits, {});
  EXPECT_TRUE(result.best.exact);
  return result;
}

// The positions 10 to 14 plies from the end: of the reference games (mostly 10-12 plies
// left, a few 13-14: those cost the most to solve), and of random games, whose margins are
// wider; both sides win in each, and some are drawn.
std::vector<Position> TestPositions() {
  std::vector<Position> positions;
  const std::vector<std::vector<std::string>> games = ReferenceGames(kReferenceGames);
  for (int g = 0; g < static_cast<int>(games.size()); ++g) {
    const int plies_left = g < kReferenceGames * 15 / 17 ? 10 + g % 3 : 13 + g % 2;
    positions.push_back(After(games[g], kTotalPlies - plies_left));
  }
  for (int seed = 1; seed <= kRandomGames; ++seed) {
    positions.push_back(testing::RandomGame(seed, kTotalPlies - 10 - seed % 3).back());
  }
  // Draws are rare in both (2 in 230): the reference games played on at random to 10 plies
  // left, the drawn ones kept.
  Searcher searcher(kHashMegabytes);
  for (int t = 0, found = 0; t < kDrawTries && found < 2 * kMinDraws + 2; ++t) {
    const std::vector<std::string>& moves = games[t % games.size()];
    const Position position =
        testing::RandomGame(1000 + t, 2, After(moves, kTotalPlies - 12)).back();
    searcher.NewGame();
    if (Solve(searcher, position).best.score == 0) {
      positions.push_back(position);
      ++found;
    }
  }
  return positions;
}

TEST(ProofTest, EveryProvenResultIsTheExactValuesAndItsMoveKeepsIt) {
  const std::vector<Position> positions = TestPositions();
  ASSERT_GE(positions.size(), static_cast<size_t>(kReferenceGames + kRandomGames));
  // The exact values from a searcher of their own, so that no proof's entry reaches them.
  Searcher exact(kHashMegabytes);
  Searcher prover(kHashMegabytes);
  int counts[4] = {};
  for (size_t i = 0; i < positions.size(); ++i) {
    const Position& position = positions[i];
    const std::string where = absl::StrCat("position ", i, ": ", ToPositionString(position));
    exact.NewGame();
    prover.NewGame();
    // Some proofs with two threads: the helpers prove too, and one of them may finish first.
    prover.SetOptions({.threads = i % 4 == 3 ? 2 : 1, .move_overhead_ms = 0});
    const SearchResult solved = Solve(exact, position);
    SearchLimits limits;
    limits.prove = true;
    const SearchResult proof = prover.Search(position, limits, {});
    const ProvenResult expected = ResultOfValue(solved.best.score);
    ASSERT_EQ(proof.best.proven, expected) << where << " exact " << solved.best.score;
    ++counts[static_cast<int>(expected)];
    ASSERT_EQ(proof.best.depth, position.PliesLeft()) << where;
    switch (expected) {
      case ProvenResult::kWin:
        EXPECT_FALSE(proof.best.exact) << where;
        EXPECT_EQ(proof.best.bound, Bound::kLower) << where;
        EXPECT_GE(proof.best.score, kWinBoundary) << where;
        EXPECT_LE(proof.best.score, solved.best.score) << where;
        break;
      case ProvenResult::kDraw:
        EXPECT_TRUE(proof.best.exact) << where;
        EXPECT_EQ(proof.best.score, 0) << where;
        break;
      case ProvenResult::kLoss:
        EXPECT_FALSE(proof.best.exact) << where;
        EXPECT_EQ(proof.best.bound, Bound::kUpper) << where;
        EXPECT_LT(proof.best.score, kDrawBoundary) << where;
        EXPECT_GE(proof.best.score, solved.best.score) << where;
        break;
      case ProvenResult::kUnknown:
        FAIL() << where;
    }
    ASSERT_TRUE(position.IsLegal(proof.best.move)) << where;
    if (expected != ProvenResult::kLoss) {
      // The move kept keeps the result: after it, the opponent's exact value is its mirror.
      Position child = position;
      child.Play(proof.best.move);
      EXPECT_EQ(ResultOfValue(-Solve(exact, child).best.score), expected)
          << where << " move " << MoveToString(proof.best.move);
    }
  }
  // Both sides win among these positions, and some are drawn.
  EXPECT_GE(counts[static_cast<int>(ProvenResult::kWin)], static_cast<int>(positions.size()) / 5);
  EXPECT_GE(counts[static_cast<int>(ProvenResult::kLoss)], static_cast<int>(positions.size()) / 5);
  EXPECT_GE(counts[static_cast<int>(ProvenResult::kDraw)], kMinDraws);
  std::printf("wins %d, draws %d, losses %d\n", counts[3], counts[2], counts[1]);
}

TEST(ProofTest, WithTimeLeftTheProofGoesOnToTheExactValue) {
  // A node limit (no depth asked): the proof first, then the exact value over its table.
  const std::vector<std::vector<std::string>> games = ReferenceGames(8);
  Searcher exact(kHashMegabytes);
  Searcher searcher(kHashMegabytes);
  for (const auto& moves : games) {
    const Position position = After(moves, kTotalPlies - 11);
    exact.NewGame();
    searcher.NewGame();
    const SearchResult solved = Solve(exact, position);
    SearchLimits limits;
    limits.nodes = 1'000'000'000;
    const SearchResult result = searcher.Search(position, limits, {});
    EXPECT_TRUE(result.best.exact);
    EXPECT_EQ(result.best.score, solved.best.score);
    EXPECT_EQ(result.best.proven, ResultOfValue(solved.best.score));
    Position child = position;
    child.Play(result.best.move);
    EXPECT_EQ(-Solve(exact, child).best.score, solved.best.score) << MoveToString(result.best.move);
  }
}

TEST(ProofTest, AWinProvenOnceIsKeptToTheEnd) {
  // The winner at 14 plies left of reference games, each of its moves a proof by one
  // searcher (the table kept from move to move), the loser's random: every move proves the
  // win again and keeps it, as the exact solve of the child says.
  const std::vector<std::vector<std::string>> games = ReferenceGames(kKeptGames);
  Searcher exact(kHashMegabytes);
  int kept = 0;
  for (size_t g = 0; g < games.size(); ++g) {
    Position position = After(games[g], kTotalPlies - 14);
    exact.NewGame();
    if (ResultOfValue(Solve(exact, position).best.score) != ProvenResult::kWin) continue;
    const Player winner = position.SideToMove();
    Searcher searcher(kHashMegabytes);
    std::mt19937_64 rng(g);
    while (!position.IsGameOver()) {
      SearchLimits limits;
      limits.prove = true;
      const SearchResult result = searcher.Search(position, limits, {});
      ASSERT_EQ(result.best.proven, ProvenResult::kWin)
          << "game " << g << " ply " << position.Ply();
      position.Play(result.best.move);
      ASSERT_EQ(ResultOfValue(-Solve(exact, position).best.score), ProvenResult::kWin)
          << "game " << g << " ply " << position.Ply();
      ++kept;
      if (position.IsGameOver()) break;
      const MoveList replies = LegalMoves(position);
      position.Play(replies[static_cast<int>(rng() % replies.size())]);
    }
    EXPECT_EQ(position.Result(),
              winner == Player::kFirst ? GameResult::kFirstWins : GameResult::kSecondWins);
  }
  EXPECT_GE(kept, 7);
}

TEST(ProofTest, ADepthSolvesTheExactValueAsBefore) {
  const std::vector<std::vector<std::string>> games = ReferenceGames(1);
  Searcher searcher(kHashMegabytes);
  const SearchResult result = Solve(searcher, After(games[0], kTotalPlies - 10));
  EXPECT_EQ(result.best.bound, Bound::kExact);
  EXPECT_EQ(result.best.proven, ResultOfValue(result.best.score));
}

TEST(ProofTest, ValuesMapToResults) {
  EXPECT_EQ(ResultOfValue(100), ProvenResult::kWin);
  EXPECT_EQ(ResultOfValue(0), ProvenResult::kDraw);
  EXPECT_EQ(ResultOfValue(-100), ProvenResult::kLoss);
  EXPECT_EQ(ResultOfBounds(100, kInfiniteValue), ProvenResult::kWin);
  EXPECT_EQ(ResultOfBounds(-kInfiniteValue, -100), ProvenResult::kLoss);
  EXPECT_EQ(ResultOfBounds(0, 0), ProvenResult::kDraw);
  EXPECT_EQ(ResultOfBounds(0, kInfiniteValue), ProvenResult::kUnknown);
  EXPECT_EQ(ResultOfBounds(-kInfiniteValue, 0), ProvenResult::kUnknown);
}

}  // namespace
}  // namespace divercite
