#include "search/search.h"

#include <algorithm>
#include <thread>
#include <vector>

#include "absl/strings/str_split.h"
#include "engine/movegen.h"
#include "engine/position_string.h"
#include "engine/symmetry.h"
#include "gtest/gtest.h"
#include "search/margin_bounds.h"
#include "search/moves_in_progress.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

constexpr std::size_t kTestHashMegabytes = 1;

using testing::BruteForceMargin;

SearchResult SearchToDepth(const Position& position, int depth, int threads = 1,
                           int endgame_solver_plies = params::kEndgameSolverPlies) {
  Searcher searcher(kTestHashMegabytes);
  searcher.SetOptions({.threads = threads,
                       .move_overhead_ms = 0,
                       .eval_weights = DefaultNetworkWeights(),
                       .endgame_solver_plies = endgame_solver_plies});
  SearchLimits limits;
  limits.depth = depth;
  return searcher.Search(position, limits, {});
}

// Both solving paths: the lean endgame solver below the root (the default), and the main
// search's own (table cutoffs, margin bounds, ETC, evaluation ordering) down to the last move.
class SolverTest : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(EndgameSolverPlies, SolverTest,
                         ::testing::Values(params::kEndgameSolverPlies, 0));

TEST_P(SolverTest, SolverEqualsBruteForceAndItsMoveAchievesIt) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const int plies = 33 + static_cast<int>(seed % 5);  // 3 to 7 plies left
    const Position position = testing::RandomGame(seed, plies).back();
    const int margin = BruteForceMargin(position);
    const SearchResult result = SearchToDepth(position, kTotalPlies, 1, GetParam());
    ASSERT_TRUE(result.best.exact) << "seed " << seed;
    ASSERT_EQ(result.best.score, 100 * margin) << "seed " << seed;
    ASSERT_TRUE(position.IsLegal(result.best.move));
    Position child = position;
    child.Play(result.best.move);
    EXPECT_EQ(-BruteForceMargin(child), margin) << "the move must achieve the value";
    ASSERT_FALSE(result.best.pv.empty());
    EXPECT_EQ(result.best.pv[0], result.best.move);
  }
}

TEST_P(SolverTest, MoreThreadsLeaveTheSolveExact) {
  // Lazy SMP: every thread solves, all share the table; the main worker's value and move
  // must stay exact.
  for (std::uint64_t seed = 200; seed < 212; ++seed) {
    const Position position = testing::RandomGame(seed, 33 + static_cast<int>(seed % 3)).back();
    const int margin = BruteForceMargin(position);
    for (const int threads : {3, 4}) {
      const SearchResult result = SearchToDepth(position, kTotalPlies, threads, GetParam());
      ASSERT_TRUE(result.best.exact);
      ASSERT_EQ(result.best.score, 100 * margin) << "seed " << seed << " threads " << threads;
      Position child = position;
      child.Play(result.best.move);
      EXPECT_EQ(-BruteForceMargin(child), margin) << "seed " << seed << " threads " << threads;
    }
  }
}

TEST_P(SolverTest, ThreadsThatDeferMovesStayExact) {
  // Far enough from the end for the threads to defer each other's moves (Simplified ABDADA,
  // from params::kDeferMinDepth plies left): the value is one thread's, and the move
  // achieves it.
  for (std::uint64_t seed = 300; seed < 306; ++seed) {
    const Position position = testing::RandomGame(seed, 29 + static_cast<int>(seed % 2)).back();
    const SearchResult alone = SearchToDepth(position, kTotalPlies, 1, GetParam());
    ASSERT_TRUE(alone.best.exact);
    for (const int threads : {2, 4}) {
      const SearchResult result = SearchToDepth(position, kTotalPlies, threads, GetParam());
      ASSERT_TRUE(result.best.exact);
      ASSERT_EQ(result.best.score, alone.best.score) << "seed " << seed << " threads " << threads;
      Position child = position;
      child.Play(result.best.move);
      EXPECT_EQ(-SearchToDepth(child, kTotalPlies, 1, GetParam()).best.score, alone.best.score)
          << "seed " << seed << " threads " << threads;
    }
  }
}

TEST(SearchTest, FinalMarginBoundsHoldTheSolvedValue) {
  for (std::uint64_t seed = 1; seed <= 60; ++seed) {
    const int plies = 33 + static_cast<int>(seed % 7);
    for (const Position& position : testing::RandomGame(seed, plies)) {
      if (position.PliesLeft() > 7) continue;
      const int value = 100 * BruteForceMargin(position);
      const MarginBounds bounds = FinalMarginBounds(position);
      ASSERT_LE(bounds.lower, value) << "seed " << seed << " ply " << position.Ply();
      ASSERT_GE(bounds.upper, value) << "seed " << seed << " ply " << position.Ply();
    }
  }
}

TEST_P(SolverTest, DepthAtLeastThePliesLeftIsExactFromEightPliesLeft) {
  for (std::uint64_t seed = 100; seed < 106; ++seed) {
    const Position position = testing::RandomGame(seed, 32).back();
    const SearchResult exact = SearchToDepth(position, position.PliesLeft(), 1, GetParam());
    ASSERT_TRUE(exact.best.exact);
    EXPECT_EQ(exact.best.depth, position.PliesLeft());
    // Searching deeper than the game lasts gives the same value.
    EXPECT_EQ(SearchToDepth(position, kTotalPlies, 1, GetParam()).best.score, exact.best.score);
    // Two threads agree on the exact value.
    EXPECT_EQ(SearchToDepth(position, kTotalPlies, 2, GetParam()).best.score, exact.best.score);
    // A shallower search is not marked exact.
    EXPECT_FALSE(SearchToDepth(position, position.PliesLeft() - 1, 1, GetParam()).best.exact);
  }
}

TEST(SearchTest, SymmetricPositionsHaveTheSameSolvedValue) {
  const Position position = testing::RandomGame(7, 33).back();
  const int value = SearchToDepth(position, kTotalPlies).best.score;
  for (int s = 0; s < kNumBoardSymmetries; ++s) {
    for (const int k : {0, 5, 23}) {
      const Position image = TransformPosition(position, s, k);
      EXPECT_EQ(SearchToDepth(image, kTotalPlies).best.score, value) << s << "/" << k;
    }
  }
}

TEST(SearchTest, SharedTableAcrossSymmetricSearchesStaysExact) {
  // One searcher, so later searches probe entries stored by earlier ones in other frames.
  Searcher searcher(kTestHashMegabytes);
  SearchLimits limits;
  limits.depth = kTotalPlies;
  const Position position = testing::RandomGame(11, 34).back();
  const int value = searcher.Search(position, limits, {}).best.score;
  for (int s = 1; s < kNumBoardSymmetries; ++s) {
    const Position image = TransformPosition(position, s);
    const SearchResult result = searcher.Search(image, limits, {});
    EXPECT_EQ(result.best.score, value);
    EXPECT_TRUE(image.IsLegal(result.best.move)) << MoveToString(result.best.move);
  }
}

TEST(SearchTest, ARepeatedSolveOverAFullTableStillReturnsAMoveThatAchievesTheValue) {
  // The second search of a position finds the root's answer in the table: the move it returns
  // must still achieve the exact value (a table cutoff at the root once returned the right
  // value with a stale move). The move is checked by solving the child with a fresh table.
  int checked = 0;
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const Position position = testing::RandomGame(seed, 30 + static_cast<int>(seed % 3)).back();
    Searcher searcher(kTestHashMegabytes);
    SearchLimits limits;
    limits.depth = kTotalPlies;
    const int value = searcher.Search(position, limits, {}).best.score;
    for (int repeat = 0; repeat < 2; ++repeat) {
      const SearchResult result = searcher.Search(position, limits, {});
      ASSERT_EQ(result.best.score, value) << "seed " << seed;
      Position child = position;
      child.Play(result.best.move);
      ASSERT_EQ(-SearchToDepth(child, kTotalPlies).best.score, value)
          << "seed " << seed << " repeat " << repeat << " move " << MoveToString(result.best.move);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 80);
}

TEST(SearchTest, TheRootNamesAMoveThatAchievesItsValueAfterAnEarlierSolve) {
  // Game 124 of a match against skypiea_v5: solving at ply 29 left the root of ply 31 in the
  // table; the root then took a table cutoff, reported the right exact value (+4) and played a
  // stale move worth +2, and the game was lost by a point.
  const std::vector<absl::string_view> moves = absl::StrSplit(
      "BR33 YR55 BC23 YC45 BC32 YC54 YC56 BC43 YC65 BC34 RC14 GC36 RC25 BR44 GC41 GC47 GC52 "
      "RR64 RR15 RC74 RR24 GR46 BR66 RR75 RR57 RR35 GR42 BR37 GR51 RC63 BR26",
      ' ');
  const std::vector<absl::string_view> first_29(moves.begin(), moves.begin() + 29);
  const absl::StatusOr<Position> at_29 = PlayMoveTexts(Position::Start(), first_29);
  const absl::StatusOr<Position> at_31 = PlayMoveTexts(Position::Start(), moves);
  ASSERT_TRUE(at_29.ok() && at_31.ok());
  Searcher searcher(64);
  SearchLimits limits;
  limits.depth = kTotalPlies;
  searcher.Search(*at_29, limits, {});
  const SearchResult result = searcher.Search(*at_31, limits, {});
  EXPECT_EQ(result.best.score, 400);
  Position child = *at_31;
  child.Play(result.best.move);
  EXPECT_EQ(-SearchToDepth(child, kTotalPlies).best.score, result.best.score)
      << MoveToString(result.best.move) << " does not achieve the root's value";
}

TEST(SearchTest, ShallowSearchesReturnLegalMovesEverywhere) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    for (const Position& position : testing::RandomGame(seed)) {
      if (position.IsGameOver()) continue;
      const SearchResult result = SearchToDepth(position, 2);
      ASSERT_TRUE(position.IsLegal(result.best.move)) << MoveToString(result.best.move);
      ASSERT_GT(result.nodes, 0u);
    }
  }
}

// The evaluation's negamax to `depth` plies, the game's end scored as the search scores it.
// At the root, as the search, one move of each class of symmetric moves (DistinctMoves): the
// network's evaluation of two symmetric positions may differ.
int PlainNegamax(const Position& position, int depth, bool root = true) {
  if (position.IsGameOver()) return FinalValue(position);
  if (depth == 0) return EvaluateNetwork(position, *DefaultNetworkWeights());
  int best = -kInfiniteValue;
  for (const Move move : root ? DistinctMoves(position) : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    best = std::max(best, -PlainNegamax(child, depth - 1, false));
  }
  return best;
}

// Two plies, short of the end: the root's children are frontier nodes, which try this ply's
// killers first and stop at the first child that reaches beta; the value is the negamax's.
TEST(SearchTest, TwoPliesShortOfTheEndGiveTheNegamaxValue) {
  int compared = 0;
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const std::vector<Position> game = testing::RandomGame(seed);
    for (std::size_t ply = 0; ply + 3 < game.size(); ++ply) {
      const Position& position = game[ply];
      ASSERT_EQ(SearchToDepth(position, 2).best.score, PlainNegamax(position, 2))
          << "seed " << seed << " ply " << ply;
      ++compared;
    }
  }
  EXPECT_GE(compared, 400);
}

TEST(SearchTest, FinishedGameHasNoMove) {
  const Position finished = testing::RandomGame(3).back();
  EXPECT_TRUE(SearchToDepth(finished, 5).best.move.IsNone());
}

TEST(SearchTest, NodeLimitIsRespected) {
  Searcher searcher(kTestHashMegabytes);
  SearchLimits limits;
  limits.nodes = 20000;
  const SearchResult result = searcher.Search(Position::Start(), limits, {});
  EXPECT_TRUE(Position::Start().IsLegal(result.best.move));
  EXPECT_LE(result.nodes, limits.nodes + 2048) << "checked every 1024 nodes";
}

TEST(SearchTest, StopFromAnotherThreadEndsAnInfiniteSearch) {
  Searcher searcher(kTestHashMegabytes);
  SearchLimits limits;
  limits.infinite = true;
  SearchResult result;
  std::thread search([&] { result = searcher.Search(Position::Start(), limits, {}); });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  searcher.Stop();
  search.join();
  EXPECT_TRUE(Position::Start().IsLegal(result.best.move));
}

TEST(SearchTest, IterationsAreReported) {
  Searcher searcher(kTestHashMegabytes);
  SearchLimits limits;
  limits.depth = 4;
  std::vector<IterationInfo> iterations;
  SearchCallbacks callbacks;
  callbacks.on_iteration = [&](const IterationInfo& info) { iterations.push_back(info); };
  searcher.Search(Position::Start(), limits, callbacks);
  ASSERT_EQ(iterations.size(), 4u);
  for (int d = 0; d < 4; ++d) {
    EXPECT_EQ(iterations[d].depth, d + 1);
    EXPECT_FALSE(iterations[d].pv.empty());
    EXPECT_GT(iterations[d].nodes, 0u);
  }
}

TEST(TranspositionTableTest, StoresAndProbesEveryField) {
  TranspositionTable tt;
  ASSERT_TRUE(tt.Resize(1));
  EXPECT_EQ(tt.SizeBytes(), 1u << 20);
  const std::uint64_t key = 0x123456789ABCDEF0ULL;
  TTEntry entry;
  EXPECT_FALSE(tt.Probe(key, entry));
  tt.Store(key, *ParseMove("GR04"), 17, -4200, Bound::kLower);
  ASSERT_TRUE(tt.Probe(key, entry));
  EXPECT_EQ(entry.move, *ParseMove("GR04"));
  EXPECT_EQ(entry.depth, 17);
  EXPECT_EQ(entry.value, -4200);
  EXPECT_EQ(entry.bound, Bound::kLower);
  // A fail-low result without a move keeps the old move.
  tt.Store(key, Move::None(), 18, 300, Bound::kUpper);
  ASSERT_TRUE(tt.Probe(key, entry));
  EXPECT_EQ(entry.move, *ParseMove("GR04"));
  EXPECT_EQ(entry.value, 300);
  EXPECT_FALSE(tt.Probe(key ^ (std::uint64_t{1} << 63), entry)) << "other check bits";
  EXPECT_GE(tt.HashFull(), 0);
  tt.Clear();
  EXPECT_FALSE(tt.Probe(key, entry));
}

TEST(TimeManagementTest, NeverPlansBeyondTheClock) {
  for (const std::int64_t clock : {100, 1000, 10000, 900000}) {
    for (int ply = 0; ply < kTotalPlies; ++ply) {
      SearchLimits limits;
      limits.time_ms[0] = limits.time_ms[1] = clock;
      const Player us = static_cast<Player>(ply % 2);
      const TimeBudget budget = PlanTime(limits, us, ply, 30);
      EXPECT_GT(budget.soft_ms, 0);
      EXPECT_LE(budget.soft_ms, budget.hard_ms);
      EXPECT_LE(budget.hard_ms, std::max<std::int64_t>(1, clock - 30)) << clock << " " << ply;
      EXPECT_LE(budget.hard_ms, std::max<std::int64_t>(1, clock / 3));
    }
  }
}

TEST(TimeManagementTest, PlansToUseMostOfTheCourseClockOverTheGame) {
  // Simulate 20 moves under 900 s when each move takes exactly its soft budget.
  std::int64_t clock = 900000;
  std::int64_t largest = 0;
  for (int ply = 0; ply < kTotalPlies; ply += 2) {
    SearchLimits limits;
    limits.time_ms[0] = limits.time_ms[1] = clock;
    const TimeBudget budget = PlanTime(limits, Player::kFirst, ply, 30);
    largest = std::max(largest, budget.soft_ms);
    clock -= budget.soft_ms + 30;
  }
  EXPECT_GE(clock, 0);
  EXPECT_LT(clock, 900000 / 10) << "more than 90% of the clock is used";
  EXPECT_LT(largest, 900000 / 8) << "no single move gets an eighth of the clock";
}

// At a second a game, the overhead kept for the moves to come (30 ms each) no longer leaves
// most of the clock unused: each move taking its soft budget and overshooting by 5 ms, the
// game uses more than half of the clock and never all of it. At a tenth of a second, every
// move leaves kMinReservePerMoveMs for itself and each move after it.
TEST(TimeManagementTest, UsesMostOfAFastClock) {
  for (const std::int64_t start : {100, 1000}) {
    std::int64_t clock = start;
    for (int ply = 0; ply < kTotalPlies; ply += 2) {
      SearchLimits limits;
      limits.time_ms[0] = limits.time_ms[1] = clock;
      const TimeBudget budget = PlanTime(limits, Player::kFirst, ply, 30);
      EXPECT_LE(budget.hard_ms, std::max<std::int64_t>(1, clock - 30)) << start << " " << ply;
      EXPECT_LE(budget.soft_ms,
                std::max<std::int64_t>(1, clock - params::kMinReservePerMoveMs * MovesLeft(ply)))
          << start << " " << ply;
      clock -= budget.soft_ms + (start == 1000 ? params::kMinReservePerMoveMs : 1);
    }
    EXPECT_GE(clock, 0) << start;
    if (start == 1000) {
      EXPECT_LT(clock, start / 2) << "more than half of the clock is used";
    }
  }
}

TEST(TimeManagementTest, AttemptsOnlySolvesThatTypicallyEndInTime) {
  const TimeBudget none;  // depth, nodes or infinite: no hard limit
  EXPECT_TRUE(SolveFitsBudget(none, 30, 1000, 1000));
  // The course clock at ply 20: ~195 s left to the solve's limit at 8 M nodes/s.
  const TimeBudget course{60000, 120000, 200000};
  EXPECT_FALSE(SolveFitsBudget(course, 20, 5000, 40'000'000)) << "20 plies in 195 s";
  EXPECT_TRUE(SolveFitsBudget(course, 18, 5000, 40'000'000)) << "18 plies in 195 s";
  // tc=10 near the end: a second left is plenty for 12 plies, not for 16.
  const TimeBudget fast{400, 1200, 1200};
  EXPECT_TRUE(SolveFitsBudget(fast, 12, 200, 1'600'000));
  EXPECT_FALSE(SolveFitsBudget(fast, 16, 200, 1'600'000));
  EXPECT_FALSE(SolveFitsBudget(fast, 12, 1200, 9'600'000)) << "no time left at all";
  EXPECT_GT(TypicalSolveNodes(18), 10 * TypicalSolveNodes(16));
}

TEST(TimeManagementTest, AttemptsWinProofsFartherOutAndAbandonsThemInTime) {
  // The course clock at ply 20, 115 s to the move's hard limit at 8 M nodes/s: a win's proof
  // from 20 plies fits where the exact value does not.
  const TimeBudget course{60000, 120000, 200000};
  EXPECT_TRUE(ProofFitsBudget(course, 20, 5000, 40'000'000));
  EXPECT_FALSE(SolveFitsBudget(course, 20, 5000, 40'000'000));
  EXPECT_LT(TypicalProofNodes(18), TypicalSolveNodes(18) / 5);
  // Abandoned at kProofPatience times its typical cost, not before the soft budget and
  // never past the move's hard limit.
  const std::int64_t limit = ProofLimitMs(course, 20, 5000, 40'000'000);
  const double typical_ms = TypicalProofNodes(20) / 8000.0;
  EXPECT_NEAR(limit,
              std::min(120000.0, std::max(60000.0, 5000 + params::kProofPatience * typical_ms)), 1);
  EXPECT_EQ(ProofLimitMs(course, 16, 5000, 40'000'000), course.soft_ms) << "cheap: soft";
  EXPECT_EQ(ProofLimitMs(course, 22, 5000, 40'000'000), course.hard_ms) << "dear: hard";
  // tc=10 near the end: the move's hard limit, never the exact solve's share of the clock.
  const TimeBudget fast{400, 1200, 3000};
  EXPECT_EQ(ProofLimitMs(fast, 16, 200, 1'600'000), 1200);
  EXPECT_FALSE(ProofFitsBudget(fast, 20, 200, 1'600'000));
  EXPECT_EQ(ProofLimitMs(TimeBudget{}, 20, 0, 0), 0) << "no limit without a clock";
}

TEST(TimeManagementTest, LetsTheExactSolveTakeUpToHalfTheClockAndNoMore) {
  for (const std::int64_t clock : {100, 1000, 10000, 389000, 900000}) {
    for (int ply = 0; ply < kTotalPlies; ++ply) {
      SearchLimits limits;
      limits.time_ms[0] = limits.time_ms[1] = clock;
      const Player us = static_cast<Player>(ply % 2);
      const TimeBudget budget = PlanTime(limits, us, ply, 30);
      EXPECT_GE(budget.solve_hard_ms, budget.hard_ms);
      if (budget.solve_hard_ms > budget.hard_ms) {
        EXPECT_LE(budget.solve_hard_ms, clock / 2) << clock << " " << ply;
        EXPECT_LE(budget.solve_hard_ms,
                  clock - std::min<std::int64_t>(30 * MovesLeft(ply), clock / 4))
            << clock << " " << ply;
      }
    }
  }
  // The course game's ply 22, 389 s left: 130 s for the 18-ply solve was too little.
  SearchLimits limits;
  limits.time_ms[0] = limits.time_ms[1] = 389000;
  EXPECT_EQ(PlanTime(limits, Player::kFirst, 22, 30).solve_hard_ms, 389000 / 2);
  limits.movetime_ms = 5000;
  const TimeBudget fixed = PlanTime(limits, Player::kFirst, 22, 30);
  EXPECT_EQ(fixed.solve_hard_ms, fixed.hard_ms) << "a fixed move time stays fixed";
}

TEST(TimeManagementTest, AFixedMoveTimeIsSearchedWhole) {
  // The overhead belongs to clocks: a move time is what the user asked to search.
  for (const std::int64_t movetime : {1, 200, 300, 5000}) {
    SearchLimits limits;
    limits.movetime_ms = movetime;
    const TimeBudget budget = PlanTime(limits, Player::kSecond, 1, 250);
    EXPECT_EQ(budget.soft_ms, movetime);
    EXPECT_EQ(budget.hard_ms, movetime);
    EXPECT_EQ(budget.SolveLimitMs(), movetime);
  }
}

TEST(MovesInProgressTest, HoldsWhatIsAddedUntilRemoved) {
  MovesInProgress moves;
  const Move a = *ParseMove("GR04"), b = *ParseMove("RC14");
  const std::uint64_t key = 0x0123456789ABCDEFull;
  EXPECT_NE(MovesInProgress::KeyOf(key, a), MovesInProgress::KeyOf(key, b));
  EXPECT_FALSE(moves.Contains(MovesInProgress::KeyOf(key, a)));
  moves.Add(MovesInProgress::KeyOf(key, a));
  EXPECT_TRUE(moves.Contains(MovesInProgress::KeyOf(key, a)));
  EXPECT_FALSE(moves.Contains(MovesInProgress::KeyOf(key, b)));
  moves.Remove(MovesInProgress::KeyOf(key, a));
  EXPECT_FALSE(moves.Contains(MovesInProgress::KeyOf(key, a)));
  // A full set gives up its first way: still never a false "free" for the newest move.
  for (std::uint64_t i = 1; i <= 6; ++i) moves.Add(key + (i << 40));
  EXPECT_TRUE(moves.Contains(key + (6ull << 40)));
}

TEST(MovesInProgressTest, ThreadsAddAndRemoveConcurrently) {
  // For TSan: the set is shared without locks.
  MovesInProgress moves;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&moves, t] {
      for (std::uint64_t i = 0; i < 20000; ++i) {
        const std::uint64_t key = (i % 64) * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(t);
        moves.Add(key);
        moves.Remove(key);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::uint64_t i = 0; i < 64; ++i) {
    for (std::uint64_t t = 0; t < 4; ++t) {
      EXPECT_FALSE(moves.Contains(i * 0x9E3779B97F4A7C15ull + t)) << "all removed";
    }
  }
}

TEST(EvaluateTest, FinalValueIsTheSideToMovesMargin) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Position end = testing::RandomGame(seed).back();  // a copy: the game is a temporary
    ASSERT_TRUE(end.IsGameOver());
    EXPECT_EQ(FinalValue(end),
              100 * (end.Score(end.SideToMove()) - end.Score(Opponent(end.SideToMove()))));
  }
}

}  // namespace
}  // namespace divercite
