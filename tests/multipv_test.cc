// Several lines (MultiPV) and a restricted root (searchmoves), through the Searcher: each line
// is a distinct move with its own value, best first; solved lines are exact and proven lines
// bound their move's value; the root never names a move outside the searched ones.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "engine/movegen.h"
#include "engine/symmetry.h"
#include "gtest/gtest.h"
#include "search/search.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::BruteForceMargin;

struct Search {
  int lines = 1;
  int threads = 1;
  int endgame_solver_plies = params::kEndgameSolverPlies;
  SearchLimits limits;
};

// Runs `search` on `position` with a fresh table (or `searcher`'s), its reports in `reports`.
SearchResult SearchWith(const Position& position, const Search& search,
                        std::vector<IterationInfo>* reports = nullptr,
                        Searcher* searcher = nullptr) {
  Searcher fresh(1);
  Searcher& used = searcher ? *searcher : fresh;
  used.SetOptions({.threads = search.threads,
                   .move_overhead_ms = 0,
                   .eval_weights = DefaultNetworkWeights(),
                   .endgame_solver_plies = search.endgame_solver_plies,
                   .multipv = search.lines});
  SearchCallbacks callbacks;
  if (reports)
    callbacks.on_iteration = [reports](const IterationInfo& i) { reports->push_back(i); };
  return used.Search(position, search.limits, callbacks);
}

SearchLimits Depth(int depth) {
  SearchLimits limits;
  limits.depth = depth;
  return limits;
}

// The exact value of `move` at `position` (side to move's view), by a fresh solve of the child.
int ExactValueOf(const Position& position, Move move) {
  Position child = position;
  child.Play(move);
  if (child.IsGameOver()) return -FinalValue(child);
  return -SearchWith(child, {.limits = Depth(kTotalPlies)}).best.score;
}

bool Has(const MoveList& moves, Move move) {
  return std::find(moves.begin(), moves.end(), move) != moves.end();
}

// The lines of one result are distinct moves of `allowed`, each line led by its move, line 1
// the result's own.
void ExpectDistinctLines(const SearchResult& result, const MoveList& allowed) {
  ASSERT_FALSE(result.lines.empty());
  EXPECT_EQ(result.lines[0].move, result.best.move);
  EXPECT_EQ(result.lines[0].score, result.best.score);
  for (size_t i = 0; i < result.lines.size(); ++i) {
    const RootLine& line = result.lines[i];
    EXPECT_TRUE(Has(allowed, line.move)) << MoveToString(line.move);
    for (size_t j = 0; j < i; ++j) EXPECT_NE(result.lines[j].move, line.move) << i << ", " << j;
    ASSERT_FALSE(line.pv.empty());
    EXPECT_EQ(line.pv[0], line.move);
  }
}

// ... and best first.
void ExpectRankedLines(const SearchResult& result, const MoveList& allowed) {
  ExpectDistinctLines(result, allowed);
  for (size_t i = 1; i < result.lines.size(); ++i) {
    EXPECT_LE(result.lines[i].score, result.lines[i - 1].score) << "line " << i + 1;
  }
}

// Both solving paths, as in search_test.cc: the lean endgame solver below the root, and the
// main search's own (table cutoffs and ETC at the root of each line) down to the last move.
class LinesTest : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(EndgameSolverPlies, LinesTest,
                         ::testing::Values(params::kEndgameSolverPlies, 0));

TEST_P(LinesTest, EverySolvedLineIsItsMovesExactValue) {
  for (std::uint64_t seed = 1; seed <= 24; ++seed) {
    const Position position = testing::RandomGame(seed, 34 + static_cast<int>(seed % 4)).back();
    if (position.IsGameOver()) continue;
    const MoveList distinct = DistinctMoves(position);
    for (const int threads : {1, 2}) {
      SCOPED_TRACE(::testing::Message() << "seed " << seed << ", " << threads << " threads");
      const SearchResult result = SearchWith(position, {.lines = kMaxLines,
                                                        .threads = threads,
                                                        .endgame_solver_plies = GetParam(),
                                                        .limits = Depth(kTotalPlies)});
      // As many lines as moves up to symmetry: every move ranked.
      ASSERT_EQ(std::ssize(result.lines), distinct.size());
      ExpectRankedLines(result, distinct);
      for (const RootLine& line : result.lines) {
        EXPECT_TRUE(line.exact);
        EXPECT_EQ(line.bound, Bound::kExact);
        EXPECT_EQ(line.depth, position.PliesLeft());
        Position child = position;
        child.Play(line.move);
        EXPECT_EQ(line.score, -kPoint * BruteForceMargin(child)) << MoveToString(line.move);
        EXPECT_EQ(line.proven, ResultOfValue(line.score));
      }
    }
  }
}

TEST_P(LinesTest, LinesStayExactOverATableThatHoldsTheRoot) {
  // The first search leaves the root's own entry in the table; each later line, searching
  // some of the root's moves only, must neither take a cutoff from it with a move it leaves
  // out nor store its own value as the root's.
  for (std::uint64_t seed = 30; seed < 36; ++seed) {
    const Position position = testing::RandomGame(seed, 31).back();
    Searcher searcher(1);
    const int value =
        SearchWith(position, {.limits = Depth(kTotalPlies)}, nullptr, &searcher).best.score;
    const SearchResult result = SearchWith(
        position, {.lines = 4, .endgame_solver_plies = GetParam(), .limits = Depth(kTotalPlies)},
        nullptr, &searcher);
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    EXPECT_EQ(result.best.score, value);
    ExpectRankedLines(result, DistinctMoves(position));
    for (const RootLine& line : result.lines) {
      EXPECT_EQ(line.score, ExactValueOf(position, line.move)) << MoveToString(line.move);
    }
    // And the table still gives the root's own value afterwards.
    EXPECT_EQ(SearchWith(position, {.limits = Depth(kTotalPlies)}, nullptr, &searcher).best.score,
              value);
  }
}

TEST(LinesTest, ProvenLinesBoundTheirMovesValues) {
  // `go prove` from 8 to 10 plies left: each line is a proof (a bound said as such) or, for
  // a draw, the exact value.
  int bounds = 0;
  for (std::uint64_t seed = 40; seed < 52; ++seed) {
    const Position position = testing::RandomGame(seed, 30 + static_cast<int>(seed % 3)).back();
    SearchLimits prove;
    prove.prove = true;
    const SearchResult result = SearchWith(position, {.lines = 3, .limits = prove});
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    ASSERT_EQ(std::ssize(result.lines), std::min(3, DistinctMoves(position).size()));
    ExpectDistinctLines(result, DistinctMoves(position));
    for (const RootLine& line : result.lines) {
      const int value = ExactValueOf(position, line.move);
      EXPECT_EQ(line.proven, ResultOfValue(value)) << MoveToString(line.move);
      switch (line.bound) {
        case Bound::kLower:
          EXPECT_GE(value, line.score) << MoveToString(line.move);
          ++bounds;
          break;
        case Bound::kUpper:
          EXPECT_LE(value, line.score) << MoveToString(line.move);
          ++bounds;
          break;
        default:
          EXPECT_EQ(value, line.score) << MoveToString(line.move);
      }
    }
  }
  EXPECT_GT(bounds, 0) << "some lines are proofs only";
}

// Aspiration failures are reported only once a search has run for a while
// (params::kReportBoundsAfterMs): whether they come depends on the machine's speed (a Debug
// build on a busy machine), so the tests of the reports' order leave them out.
void DropAspirationFailures(std::vector<IterationInfo>& reports) {
  std::erase_if(reports, [](const IterationInfo& report) {
    return report.bound != Bound::kExact && report.proven == ProvenResult::kUnknown;
  });
}

TEST(LinesTest, EachIterationReportsItsLinesBestFirst) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Position position = testing::RandomGame(seed, 8 * static_cast<int>(seed)).back();
    std::vector<IterationInfo> reports;
    const SearchResult result = SearchWith(position, {.lines = 3, .limits = Depth(5)}, &reports);
    DropAspirationFailures(reports);
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    ASSERT_EQ(reports.size(), 5u * 3u) << "three lines per iteration";
    for (size_t i = 0; i < reports.size(); ++i) {
      EXPECT_EQ(reports[i].multipv, static_cast<int>(i % 3) + 1);
      EXPECT_EQ(reports[i].depth, static_cast<int>(i / 3) + 1);
      if (i % 3 > 0) {
        EXPECT_LE(reports[i].score, reports[i - 1].score);
        EXPECT_NE(reports[i].pv[0], reports[i - 1].pv[0]);
      }
    }
    ExpectRankedLines(result, DistinctMoves(position));
    for (int line = 0; line < 3; ++line) {
      EXPECT_EQ(result.lines[line].depth, 5);
      EXPECT_EQ(result.lines[line].pv, reports[12 + line].pv);
    }
  }
}

TEST(LinesTest, OneLineReportsNoRankAndKeepsNoLines) {
  std::vector<IterationInfo> reports;
  const SearchResult result = SearchWith(Position::Start(), {.limits = Depth(4)}, &reports);
  DropAspirationFailures(reports);
  EXPECT_TRUE(result.lines.empty());
  ASSERT_EQ(reports.size(), 4u);
  for (const IterationInfo& info : reports) EXPECT_EQ(info.multipv, 0);
}

TEST(SearchMovesTest, TheRootSearchesOnlyTheGivenMoves) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Position position = testing::RandomGame(seed, 6 * static_cast<int>(seed)).back();
    const MoveList legal = LegalMoves(position);
    SCOPED_TRACE(::testing::Message() << "seed " << seed);
    // One move, then three: the last of the list (ordering puts none of them first).
    for (const int count : {1, 3}) {
      SearchLimits limits = Depth(4);
      MoveList given;
      for (int i = 0; i < count; ++i) {
        given.Add(legal[legal.size() - 1 - i]);
        limits.searchmoves.push_back(given[i]);
      }
      const SearchResult one = SearchWith(position, {.limits = limits});
      EXPECT_TRUE(Has(given, one.best.move)) << MoveToString(one.best.move);
      const SearchResult lines = SearchWith(position, {.lines = 3, .threads = 2, .limits = limits});
      EXPECT_EQ(std::ssize(lines.lines), DistinctMoves(position, given).size());
      ExpectRankedLines(lines, given);
    }
  }
}

TEST(SearchMovesTest, ARestrictedSolveIsTheMovesExactValue) {
  for (std::uint64_t seed = 1; seed <= 12; ++seed) {
    const Position position = testing::RandomGame(seed, 35).back();
    if (position.IsGameOver()) continue;
    const MoveList legal = LegalMoves(position);
    const Move move = legal[static_cast<int>(seed) % legal.size()];
    SearchLimits limits = Depth(kTotalPlies);
    limits.searchmoves = {move};
    const SearchResult result = SearchWith(position, {.limits = limits});
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " move " << MoveToString(move));
    EXPECT_EQ(result.best.move, move);
    EXPECT_TRUE(result.best.exact);
    Position child = position;
    child.Play(move);
    EXPECT_EQ(result.best.score, -kPoint * BruteForceMargin(child));
  }
}

}  // namespace
}  // namespace divercite
