// What the tests of the course agents share (agents_test.cc, course_search_test.cc): positions
// from text, a hand-made position with a divercité to take, and the plain minimax of the
// seeds' annex, the reference for the agents' searches.
#ifndef DIVERCITE_TESTS_AGENTS_TEST_UTIL_H_
#define DIVERCITE_TESTS_AGENTS_TEST_UTIL_H_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "agents/course_evaluation.h"
#include "engine/move.h"
#include "engine/movegen.h"
#include "engine/position.h"
#include "engine/position_string.h"
#include "gtest/gtest.h"

namespace divercite::testing {

inline Position FromString(absl::string_view text) {
  const absl::StatusOr<Position> position = ParsePositionString(text);
  EXPECT_TRUE(position.ok()) << position.status();
  return *position;
}

inline Position FromMoves(const std::vector<absl::string_view>& moves) {
  const absl::StatusOr<Position> position = PlayMoveTexts(Position::Start(), moves);
  EXPECT_TRUE(position.ok()) << position.status();
  return *position;
}

// Ply 10, first player to move. Its red city on (1,4) has G (0,4), b (1,3) and y (1,5) around
// it: a red resource on (2,4) makes it a divercité, +5. The other pieces are resources far
// apart, worth at most 1 to a future city.
inline constexpr absl::string_view kDivercitePosition = "G/bRy/5/6g/r8/2y4/G3B/3/R w";
inline constexpr absl::string_view kDiverciteMove = "RR24";

inline std::string MoveText(Move move) { return MoveToString(move); }

// Plain minimax as the annex writes it, without any shortcut: the reference for CourseSearch.
struct ReferenceResult {
  double value;
  Move move;
  std::uint64_t nodes;
};
inline double ReferenceMinimax(const Position& position, int depth, bool maximizing,
                               const CourseEvaluator& evaluate, Move* best_move,
                               std::uint64_t& nodes) {
  ++nodes;
  if (depth == 0 || position.IsGameOver()) return evaluate(position);
  double best = maximizing ? -std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::infinity();
  for (const Move move : LegalMoves(position)) {
    Position child = position;
    child.Play(move);
    const double value = ReferenceMinimax(child, depth - 1, !maximizing, evaluate, nullptr, nodes);
    if (maximizing ? value > best : value < best) {
      best = value;
      if (best_move != nullptr) *best_move = move;
    }
  }
  return best;
}
inline ReferenceResult Reference(const Position& position, int depth,
                                 const CourseEvaluation& eval) {
  const CourseEvaluator evaluate(eval, position.SideToMove());
  ReferenceResult result{0.0, Move::None(), 0};
  result.value = ReferenceMinimax(position, depth, true, evaluate, &result.move, result.nodes);
  return result;
}

}  // namespace divercite::testing

#endif  // DIVERCITE_TESTS_AGENTS_TEST_UTIL_H_
