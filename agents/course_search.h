// The course agents' tree searches, as the seeds' annex code runs them: a plain minimax and an
// alpha-beta with evaluation-sorted children. Values are CourseEvaluator values, always from
// the agent's own point of view (the root's side to move maximises); no negamax, no table, no
// reductions: these are baselines and must stay as the course code played.
#ifndef DIVERCITE_AGENTS_COURSE_SEARCH_H_
#define DIVERCITE_AGENTS_COURSE_SEARCH_H_

#include <cstdint>

#include "agents/course_evaluation.h"
#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

// Children are sorted by their evaluation only when a node has more than this many moves
// ("if len(actions) > 5").
inline constexpr int kCourseSortThreshold = 5;

class CourseSearch {
 public:
  // `evaluate` must evaluate for the side to move at the roots this object searches.
  explicit CourseSearch(const CourseEvaluator& evaluate) : evaluate_(evaluate) {}

  // Annex "Code du minimax": minimax to `depth` plies (leaves: depth 0 or game over,
  // evaluated), moves in generation order, the root maximising. Returns the first move in
  // generation order that reaches the root value ("if eval > max_eval").
  Move Minimax(const Position& root, int depth);

  // Annex "Code de l'agent final" (skypiea_v5), identical in behaviour to the annex alpha-beta
  // and to Impel Down's: fail-hard alpha-beta from (-inf, +inf), where a node with more than
  // kCourseSortThreshold moves visits its children sorted by their evaluation, descending at a
  // maximising node and ascending at a minimising one, ties kept in generation order (a
  // stable sort; the course code sorted a frozenset, whose order is arbitrary). Returns the
  // first move in that order reaching the root value.
  Move AlphaBeta(const Position& root, int depth);

  // Positions visited by the last search: one per call of the course's recursive function,
  // root and leaves included (the positions created only to sort children are not counted).
  std::uint64_t nodes() const { return nodes_; }
  // The root value of the last search.
  double value() const { return value_; }

 private:
  // The minimax value of `position` searched `depth` plies deep; `best_move` (root only)
  // receives the first move reaching it.
  double MinimaxValue(const Position& position, int depth, bool maximizing, Move* best_move);
  // Alpha-beta as the course wrote it: the exact minimax value when it lies strictly inside
  // (alpha, beta); otherwise a value on the same side of the window (a cut-off node returns
  // the value that caused the cut-off).
  double AlphaBetaValue(const Position& position, int depth, double alpha, double beta,
                        bool maximizing, Move* best_move);
  // A leaf: counted as visited, then evaluated.
  double Leaf(const Position& position) {
    ++nodes_;
    return evaluate_(position);
  }

  const CourseEvaluator& evaluate_;
  std::uint64_t nodes_ = 0;
  double value_ = 0.0;
};

}  // namespace divercite

#endif  // DIVERCITE_AGENTS_COURSE_SEARCH_H_
