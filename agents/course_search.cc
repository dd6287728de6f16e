#include "agents/course_search.h"

#include <algorithm>
#include <array>
#include <limits>

#include "engine/movegen.h"

namespace divercite {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Trivially constructible (the move is moves[order]) so that the array of 164 costs nothing
// to declare.
struct OrderedMove {
  double value;  // the child's evaluation, when the node sorts its children
  int order;     // position in generation order, to make std::sort stable without a buffer
};

// Python's sorted(..., reverse=True) keeps equal keys in their original order, as does the
// ascending sort; the generation index breaks ties the same way. std::sort with a total
// order needs no heap, unlike std::stable_sort.
// (Lambdas rather than functions, so that std::sort inlines them.)
constexpr auto HigherFirst = [](const OrderedMove& a, const OrderedMove& b) {
  return a.value > b.value || (a.value == b.value && a.order < b.order);
};
constexpr auto LowerFirst = [](const OrderedMove& a, const OrderedMove& b) {
  return a.value < b.value || (a.value == b.value && a.order < b.order);
};

struct SortedLeaves {
  int first;    // the child visited first, whose value the node returns
  int visited;  // children visited before the loop ends
};

// A node one ply above the horizon whose children are sorted: they are leaves, and their
// evaluations (the sort keys) are their values. Visited in sorted order, the first child holds
// the extreme value (the first such in generation order) and nothing after it can improve on
// it or move alpha (beta) further, so the course loop either cuts right after it or visits
// them all. Its result and its count of visited leaves follow without sorting, and most of
// the sorts are at these nodes.
SortedLeaves VisitSortedLeaves(const OrderedMove* children, int count, double alpha, double beta,
                               bool maximizing) {
  int first = 0;
  for (int i = 1; i < count; ++i) {
    if (maximizing ? children[i].value > children[first].value
                   : children[i].value < children[first].value) {
      first = i;
    }
  }
  if (maximizing) {
    alpha = std::max(alpha, children[first].value);
  } else {
    beta = std::min(beta, children[first].value);
  }
  return {first, beta <= alpha ? 1 : count};
}

}  // namespace

Move CourseSearch::Minimax(const Position& root, int depth) {
  nodes_ = 0;
  Move best = Move::None();
  value_ = MinimaxValue(root, depth, /*maximizing=*/true, &best);
  return best;
}

double CourseSearch::MinimaxValue(const Position& position, int depth, bool maximizing,
                                  Move* best_move) {
  if (depth == 0 || position.IsGameOver()) return Leaf(position);
  ++nodes_;
  double best = maximizing ? -kInfinity : kInfinity;
  MoveList moves;
  GenerateMoves(position, moves);
  for (const Move move : moves) {
    Position child = position;
    child.Play(move);
    // A child one ply from the horizon is a leaf whatever it is: skip the call.
    const double value =
        depth == 1 ? Leaf(child) : MinimaxValue(child, depth - 1, !maximizing, nullptr);
    if (maximizing ? value > best : value < best) {
      best = value;
      if (best_move != nullptr) *best_move = move;
    }
  }
  return best;
}

Move CourseSearch::AlphaBeta(const Position& root, int depth) {
  nodes_ = 0;
  Move best = Move::None();
  value_ = AlphaBetaValue(root, depth, -kInfinity, kInfinity, /*maximizing=*/true, &best);
  return best;
}

double CourseSearch::AlphaBetaValue(const Position& position, int depth, double alpha, double beta,
                                    bool maximizing, Move* best_move) {
  if (depth == 0 || position.IsGameOver()) return Leaf(position);
  ++nodes_;
  MoveList moves;
  GenerateMoves(position, moves);
  const int count = moves.size();
  std::array<OrderedMove, kMaxMoves> ordered;
  const bool sorted = count > kCourseSortThreshold;
  for (int i = 0; i < count; ++i) {
    ordered[i].order = i;
    if (sorted) {
      Position child = position;
      child.Play(moves[i]);
      ordered[i].value = evaluate_(child);
    }
  }
  if (sorted) {
    if (depth == 1) {
      const SortedLeaves leaves = VisitSortedLeaves(ordered.data(), count, alpha, beta, maximizing);
      nodes_ += static_cast<std::uint64_t>(leaves.visited);
      if (best_move != nullptr) *best_move = moves[leaves.first];
      return ordered[leaves.first].value;
    }
    if (maximizing) {
      std::sort(ordered.begin(), ordered.begin() + count, HigherFirst);
    } else {
      std::sort(ordered.begin(), ordered.begin() + count, LowerFirst);
    }
  }
  double best = maximizing ? -kInfinity : kInfinity;
  for (int i = 0; i < count; ++i) {
    const Move move = moves[ordered[i].order];
    Position child = position;
    child.Play(move);
    const double value = depth == 1
                             ? Leaf(child)
                             : AlphaBetaValue(child, depth - 1, alpha, beta, !maximizing, nullptr);
    if (maximizing) {
      if (value > best) {
        best = value;
        if (best_move != nullptr) *best_move = move;
      }
      alpha = std::max(alpha, value);
    } else {
      if (value < best) {
        best = value;
        if (best_move != nullptr) *best_move = move;
      }
      beta = std::min(beta, value);
    }
    if (beta <= alpha) break;
  }
  return best;
}

}  // namespace divercite
