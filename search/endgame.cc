#include "search/endgame.h"

#include <array>
#include <cassert>

#include "engine/movegen.h"
#include "engine/zobrist.h"
#include "search/margin_bounds.h"
#include "search/move_order.h"
#include "search/search_params.h"

namespace divercite {
namespace {

// Ordering keys (the table's move is searched before any ordering): points now, then
// history (below one point).
constexpr int kPointKey = 1 << 16;
constexpr std::uint32_t kHistoryCap = (1u << 24) - 1;
constexpr int kHistoryShift = 8;  // history below one point's key

}  // namespace

void EndgameSolver::CountNodes(std::uint64_t n) {
  nodes_.store(nodes_.load(std::memory_order_relaxed) + n, std::memory_order_relaxed);
  if (until_poll_ > n) {
    until_poll_ -= n;
    return;
  }
  until_poll_ = params::kNodesBetweenChecks;
  if ((*should_stop_)()) stopped_ = true;
}

int EndgameSolver::Solve(const Position& position, int alpha, int beta,
                         absl::FunctionRef<bool()> should_stop) {
  stopped_ = false;
  should_stop_.emplace(should_stop);
  const int value = Search(position, alpha, beta, nullptr, Move::None());
  should_stop_.reset();
  return value;
}

int SolveLastMove(const Position& position, int beta, int& moves_tried) {
  int best = -kInfiniteValue;
  moves_tried = 0;
  const Player us = position.SideToMove();
  ForEachLegalMove(position, [&](Move move) {
    if (best >= beta) return;
    Position child = position;
    child.Play(move);
    ++moves_tried;
    best = std::max(best, kPoint * (child.Score(us) - child.Score(Opponent(us))));
  });
  return best;
}

int EndgameSolver::SolveLastTwoMoves(const Position& position, int alpha, int beta) {
  int best = -kInfiniteValue;
  int tried = 0;
  ForEachLegalMove(position, [&](Move move) {
    if (best >= beta) return;
    Position child = position;
    child.Play(move);
    ++tried;
    int last_tried = 0;
    best = std::max(best, -SolveLastMove(child, -std::max(alpha, best), last_tried));
    CountNodes(last_tried);
  });
  CountNodes(tried);
  return best;
}

int EndgameSolver::Search(const Position& position, int alpha, int beta,
                          const NetworkEvalState* parent_eval, Move last_move) {
  assert(-kInfiniteValue <= alpha && alpha < beta && beta <= kInfiniteValue);
  CountNodes(1);
  if (stopped_) return 0;
  const int plies_left = position.PliesLeft();
  if (plies_left == 0) return FinalValue(position);
  if (plies_left == 1) {
    int tried = 0;
    const int value = SolveLastMove(position, beta, tried);
    CountNodes(tried);
    return value;
  }
  if (plies_left == 2) return SolveLastTwoMoves(position, alpha, beta);

  // The table's cluster is asked for first and the bounds computed while it loads: they
  // often end the node before the table is read.
  const bool use_table = plies_left >= params::kEndgameTableMinPlies;
  const std::uint64_t key = TableKey(position);
  if (use_table) tt_.Prefetch(key);

  // What the margin can still become, whatever is played.
  const MarginBounds bounds = FinalMarginBounds(position);
  if (bounds.upper <= alpha) return bounds.upper;
  if (bounds.lower >= beta) return bounds.lower;

  Move table_move;
  if (use_table) {
    TTEntry entry;
    if (tt_.Probe(key, entry) && entry.depth >= plies_left) {
      if (entry.bound == Bound::kExact || entry.ProvesAtLeast(beta) || entry.ProvesAtMost(alpha)) {
        return entry.value;
      }
      if (position.IsLegal(entry.move)) table_move = entry.move;
    }
  }

  const Player us = position.SideToMove();
  const bool children_use_table = plies_left > params::kEndgameTableMinPlies;
  if (children_use_table && !table_move.IsNone()) {
    tt_.Prefetch(key ^ ZobristKey(table_move.cell(), table_move.colour(), us));
  }
  MoveList moves;
  GenerateMoves(position, moves);

  // A child already proven good enough in the table ends the node before any search.
  if (use_table && plies_left >= params::kEndgameEtcMinPlies) {
    // Each child's key without playing it, and every cache line asked for before the first
    // is read: the probes' misses overlap.
    std::array<std::uint64_t, kMaxMoves> child_keys;
    for (int i = 0; i < moves.size(); ++i) {
      child_keys[i] = key ^ ZobristKey(moves[i].cell(), moves[i].colour(), us);
      tt_.Prefetch(child_keys[i]);
    }
    for (int i = 0; i < moves.size(); ++i) {
      TTEntry entry;
      if (tt_.Probe(child_keys[i], entry) && entry.ProvesAtMost(-beta)) {
        return -entry.value;
      }
    }
  }

  const int original_alpha = alpha;
  int best_value = -kInfiniteValue;
  Move best_move;
  // This node's evaluation state, made only if it orders by the evaluation; its children
  // make theirs from it.
  std::optional<NetworkEvalState> eval;
  const NetworkWeights& weights = weights_;
  // Searches one child within the window so far (the first with the full window, the others
  // with a null one first); true once the node is done.
  auto search_child = [&](Move move, bool first) {
    Position child = position;
    child.Play(move);
    const NetworkEvalState* child_parent = eval ? &*eval : nullptr;
    int value;
    if (first) {
      value = -Search(child, -beta, -alpha, child_parent, move);
    } else {
      value = -Search(child, -alpha - 1, -alpha, child_parent, move);
      if (value > alpha && value < beta) value = -Search(child, -beta, -alpha, child_parent, move);
    }
    if (stopped_) return true;
    if (value > best_value) {
      best_value = value;
      best_move = move;
      if (value > alpha) {
        if (value >= beta) {
          std::uint32_t& cutoffs = history_[Index(us)][move.Index()];
          cutoffs = std::min<std::uint32_t>(cutoffs + plies_left * plies_left, kHistoryCap);
          return true;
        }
        alpha = value;
      }
    }
    return false;
  };

  // The table's move first, before the others are ordered: it often ends the node alone, and
  // then the ordering's cost is saved.
  const bool table_move_first = !table_move.IsNone();
  if (table_move_first && search_child(table_move, true)) {
    if (stopped_) return 0;
  } else {
    // The other moves by the evaluation after them far from the end, else by what they are
    // worth now and then by their cutoffs so far. Not by the evaluation at the winner's nodes
    // of a win's proof (the null window at the win boundary, where one move must reach it):
    // there it costs more than it saves (NOTES.md, "Issue 23: a faster win proof").
    const bool proving_win = original_alpha == kWinBoundary - 1 && beta == kWinBoundary;
    const bool order_by_evaluation =
        !proving_win && plies_left >= params::kEndgameEvalOrderingMinPlies;
    if (order_by_evaluation) {
      if (parent_eval) {
        eval.emplace(parent_eval->After(position, last_move, weights));
      } else {
        eval.emplace(position, weights);
      }
    }
    std::array<int, kMaxMoves> order_keys;
    CellWorthCache worth(position);
    int count = 0;
    for (int i = 0; i < moves.size(); ++i) {  // in place: only slots up to i are written
      const Move move = moves[i];
      if (move == table_move) continue;
      int key_value;
      if (order_by_evaluation) {
        Position child = position;
        child.Play(move);
        key_value = -eval->EvaluateAfter(child, move, weights);
      } else {
        key_value = worth.Of(move) * kPointKey +
                    static_cast<int>(history_[Index(us)][move.Index()] >> kHistoryShift);
      }
      // Insertion sort, best first; equal keys keep the generation order.
      int j = count++;
      for (; j > 0 && order_keys[j - 1] < key_value; --j) {
        order_keys[j] = order_keys[j - 1];
        moves[j] = moves[j - 1];
      }
      order_keys[j] = key_value;
      moves[j] = move;
    }
    // The next child's cluster is asked for while this one is searched, so that it is in
    // the cache when that child probes it.
    auto prefetch_child = [&](int i) {
      if (children_use_table && i < count) {
        tt_.Prefetch(key ^ ZobristKey(moves[i].cell(), moves[i].colour(), us));
      }
    };
    prefetch_child(0);
    for (int i = 0; i < count; ++i) {
      prefetch_child(i + 1);
      if (search_child(moves[i], i == 0 && !table_move_first)) break;
    }
    if (stopped_) return 0;
  }

  if (use_table) {
    tt_.Store(key, best_move, plies_left, best_value,
              BoundOfResult(best_value, original_alpha, beta));
  }
  return best_value;
}

}  // namespace divercite
