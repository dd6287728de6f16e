// The course agents' evaluations and searches (agents/course_evaluation.h, course_search.h):
// the seeds' formulas on a hand-made position, and the searches against references that share
// no code with them (a plain minimax, and the annex alpha-beta restated as negamax).
#include "agents/course_search.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "agents/course_evaluation.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "gtest/gtest.h"
#include "tests/agents_test_util.h"
#include "tests/test_util.h"

namespace divercite {
namespace {

using testing::FromString;
using testing::kDiverciteMove;
using testing::kDivercitePosition;
using testing::MoveText;
using testing::Reference;
using testing::ReferenceMinimax;
using testing::ReferenceResult;

// The annex alpha-beta (skypiea_v5's) restated as negamax, a different algorithm from the
// annex's (and CourseSearch's) two-sided loop that must visit the same nodes: every node
// maximises its own view, `sign` times the root player's evaluation (+1 where the annex
// maximises, -1 where it minimises), in the window (alpha, beta) of that view, each child's
// window negated and swapped. The annex's minimising node is the same rule seen from the other
// side: its `value < best` is `-value > -best`, its `beta = min(beta, value)` is
// `alpha = max(alpha, -value)` of its own view, its cut-off `beta <= alpha` the same; its
// ascending sort is the descending one of its view. Children sorted (stably) by that view of
// their evaluation when there are more than 5. The reference for CourseSearch::AlphaBeta's
// move, value and node count.
double NegamaxAlphaBeta(const Position& position, int depth, double alpha, double beta, double sign,
                        const CourseEvaluator& evaluate, Move* best_move, std::uint64_t& nodes) {
  ++nodes;
  if (depth == 0 || position.IsGameOver()) return sign * evaluate(position);
  struct Child {
    Move move;
    double view;  // the child's evaluation, this node's view
  };
  std::vector<Child> children;
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    children.push_back({move, sign * evaluate(child)});
  }
  if (children.size() > 5) {
    std::stable_sort(children.begin(), children.end(),
                     [](const Child& a, const Child& b) { return a.view > b.view; });
  }
  double best = -std::numeric_limits<double>::infinity();
  for (const Child& child : children) {
    Position next = position;
    next.Play(child.move);
    const double value =
        -NegamaxAlphaBeta(next, depth - 1, -beta, -alpha, -sign, evaluate, nullptr, nodes);
    if (value > best) {
      best = value;
      if (best_move != nullptr) *best_move = child.move;
    }
    alpha = std::max(alpha, value);
    if (alpha >= beta) break;
  }
  return best;
}

// --- Evaluations ----------------------------------------------------------------------------

TEST(CourseEvaluationTest, FormulasFromTheSeedsOnAHandPosition) {
  // Ply 10; the first player ("me") has 0 points, the second 0; the first player holds 7 cities
  // and 8 resources, the second 8 cities and 7 resources.
  const Position position = FromString(kDivercitePosition);
  ASSERT_EQ(position.Ply(), 10);
  const Player me = Player::kFirst;
  EXPECT_EQ(PiecesLeftOfKind(position, me, Kind::kCity), 7);
  EXPECT_EQ(PiecesLeftOfKind(position, me, Kind::kResource), 8);
  EXPECT_EQ(CourseEvaluator(kLittleGardenEvaluation, me)(position), 0.0);
  // 0 + (1 - 2*10/40)*7 + (1 + 4*10/40)*8 = 3.5 + 16.
  EXPECT_DOUBLE_EQ(CourseEvaluator(kWaterSevenEvaluation, me)(position), 19.5);
  // (1 - 24*10/40)*7 + (1 + 24*10/40)*8 = -35 + 56.
  EXPECT_DOUBLE_EQ(CourseEvaluator(kSkypieaV5Evaluation, me)(position), 21.0);
  // (1 - 4*10/40)*7 + (1 + 4*10/40)*8 = 0 + 16.
  EXPECT_DOUBLE_EQ(CourseEvaluator(kImpelDownEvaluation, me)(position), 16.0);

  // After the divercité, from each side's view: the score difference enters with its sign and
  // only the evaluating player's own pieces count.
  Position after = position;
  after.Play(*ParseMove(kDiverciteMove));
  EXPECT_EQ(after.Score(Player::kFirst), 5);
  EXPECT_EQ(CourseEvaluator(kLittleGardenEvaluation, Player::kFirst)(after), 5.0);
  EXPECT_EQ(CourseEvaluator(kLittleGardenEvaluation, Player::kSecond)(after), -5.0);
  // Second player at step 11: -5 + (1 - 22/40)*8 + (1 + 44/40)*7.
  EXPECT_DOUBLE_EQ(CourseEvaluator(kWaterSevenEvaluation, Player::kSecond)(after),
                   -5.0 + 0.45 * 8 + 2.1 * 7);
}

// --- The searches ---------------------------------------------------------------------------

TEST(CourseSearchTest, MinimaxEqualsTheNaiveAnnexCodeMoveValueAndNodes) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    const Position position = testing::RandomGame(seed, 26 + static_cast<int>(seed)).back();
    for (const CourseEvaluation& eval : {kLittleGardenEvaluation, kWaterSevenEvaluation}) {
      const ReferenceResult reference = Reference(position, 3, eval);
      const CourseEvaluator evaluate(eval, position.SideToMove());
      CourseSearch search(evaluate);
      EXPECT_EQ(search.Minimax(position, 3), reference.move) << "seed " << seed;
      EXPECT_EQ(search.value(), reference.value);
      EXPECT_EQ(search.nodes(), reference.nodes);
    }
  }
}

TEST(CourseSearchTest, AlphaBetaFindsTheMinimaxValueWithAMoveAchievingIt) {
  for (std::uint64_t seed = 10; seed <= 17; ++seed) {
    const Position position = testing::RandomGame(seed, 28 + static_cast<int>(seed % 5)).back();
    for (const CourseEvaluation& eval :
         {kWaterSevenEvaluation, kSkypieaV5Evaluation, kImpelDownEvaluation}) {
      const int depth = 3 + static_cast<int>(seed % 2);
      const ReferenceResult reference = Reference(position, depth, eval);
      const CourseEvaluator evaluate(eval, position.SideToMove());
      CourseSearch search(evaluate);
      const Move move = search.AlphaBeta(position, depth);
      ASSERT_TRUE(position.IsLegal(move));
      EXPECT_EQ(search.value(), reference.value) << "seed " << seed;
      EXPECT_LT(search.nodes(), reference.nodes) << "the sorted alpha-beta must prune";
      // The chosen move is worth the root value: the minimising reply tree below it.
      Position child = position;
      child.Play(move);
      std::uint64_t nodes = 0;
      EXPECT_EQ(ReferenceMinimax(child, depth - 1, false, evaluate, nullptr, nodes),
                reference.value);
    }
  }
}

TEST(CourseSearchTest, AlphaBetaEqualsThePlainAnnexCodeMoveValueAndNodes) {
  for (std::uint64_t seed = 20; seed <= 31; ++seed) {
    const int ply = 2 + static_cast<int>(seed * 7 % 36);
    const Position position = testing::RandomGame(seed, ply).back();
    const int depth = ply < 10 ? 2 : ply < 24 ? 3 : 4;
    for (const CourseEvaluation& eval : {kLittleGardenEvaluation, kWaterSevenEvaluation,
                                         kSkypieaV5Evaluation, kImpelDownEvaluation}) {
      const CourseEvaluator evaluate(eval, position.SideToMove());
      Move expected = Move::None();
      std::uint64_t expected_nodes = 0;
      const double expected_value = NegamaxAlphaBeta(
          position, depth, -std::numeric_limits<double>::infinity(),
          std::numeric_limits<double>::infinity(), 1.0, evaluate, &expected, expected_nodes);
      CourseSearch search(evaluate);
      EXPECT_EQ(search.AlphaBeta(position, depth), expected) << "seed " << seed;
      EXPECT_EQ(search.value(), expected_value) << "seed " << seed;
      EXPECT_EQ(search.nodes(), expected_nodes) << "seed " << seed;
    }
  }
}

TEST(CourseSearchTest, AlphaBetaVisitsSortedChildrenFirstBestInSortedOrder) {
  // Depth 1 with sorting: the root's first child in descending evaluation order (ties in
  // generation order) is the move, and without a window nothing is cut: 1 + n nodes.
  const Position position = FromString(kDivercitePosition);
  const CourseEvaluator evaluate(kLittleGardenEvaluation, Player::kFirst);
  CourseSearch search(evaluate);
  EXPECT_EQ(MoveText(search.AlphaBeta(position, 1)), kDiverciteMove);
  EXPECT_EQ(search.value(), 5.0);
  EXPECT_EQ(search.nodes(), 1u + static_cast<std::uint64_t>(position.CountLegalMoves()));
}

}  // namespace
}  // namespace divercite
