// The node search: negamax with alpha-beta over the shared table, its steps numbered as they
// run at each node (the root's iterations and solve are root_search.cc's and root_solve.cc's).
#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "engine/canonical_key.h"
#include "engine/movegen.h"
#include "search/margin_bounds.h"
#include "search/search_params.h"
#include "search/worker.h"

namespace divercite {

namespace {

// kReduction[depth][move number], in plies.
const auto& ReductionTable() {
  static const auto table = [] {
    std::array<std::array<std::uint8_t, kMaxMoves + 1>, kMaxPly + 1> r{};
    for (int d = 1; d <= kMaxPly; ++d) {
      for (int m = 1; m <= kMaxMoves; ++m) {
        r[d][m] = static_cast<std::uint8_t>(std::log(d) * std::log(m) * 100 / params::kLmrDivisor);
      }
    }
    return r;
  }();
  return table;
}

}  // namespace

void Worker::CheckLimits() {
  if (callbacks_ && callbacks_->on_poll) callbacks_->on_poll();
  const std::int64_t hard_ms = shared_.solving_root.load(std::memory_order_relaxed)
                                   ? shared_.solve_limit_ms.load(std::memory_order_relaxed)
                                   : shared_.budget.hard_ms;
  if (hard_ms > 0 && shared_.Elapsed() >= hard_ms) {
    shared_.RequestStop();
  }
  if (shared_.limits.nodes > 0 && nodes_of_all_ && nodes_of_all_() >= shared_.limits.nodes) {
    shared_.RequestStop();
  }
}

int Worker::SearchRoot(const SymmetricKeys& keys, int alpha, int beta, int depth, bool pv_node) {
  return Search(shared_.root, keys, EvalLink{}, alpha, beta, depth, 0, pv_node);
}

int Worker::Search(const Position& position, const SymmetricKeys& keys, const EvalLink& link,
                   int alpha, int beta, int depth, int ply, bool pv_node) {
  assert(-kInfiniteValue <= alpha && alpha < beta && beta <= kInfiniteValue);
  assert(ply <= kMaxPly);
  pv_length_[ply] = ply;
  seldepth_ = std::max(seldepth_, ply);
  CountNode();

  // Step 1. The end of the game: the exact final margin, tie-break included.
  if (position.IsGameOver()) return FinalValue(position);

  // Step 2. When the remaining plies fit the depth, solve to the end, exactly.
  const bool solving = depth >= position.PliesLeft();
  if (solving) {
    depth = position.PliesLeft();
    // Step 2a. Near the end, the lean solver (a value without a move, so never at the root).
    if (depth <= shared_.endgame_solver_plies && ply > 0) {
      seldepth_ = std::max(seldepth_, ply + depth);
      return endgame_.Solve(position, alpha, beta, [this] { return PollStop(); });
    }
    // The shortcuts below return a value without a move, so never at the root, which must
    // name the move that achieves its value (a table cutoff at the root once returned the
    // right value with a stale move: a won endgame was lost).
    // Step 2b. The last move of the game: the best final margin, nothing to order or store.
    if (depth == 1 && ply > 0) {
      int tried = 0;
      const int value = SolveLastMove(position, beta, tried);
      nodes_.store(nodes() + tried, std::memory_order_relaxed);
      return value;
    }
    // Step 2c. What the margin can still become: no need to search past a window it can
    // never reach.
    if (ply > 0) {
      const MarginBounds bounds = FinalMarginBounds(position);
      if (bounds.upper <= alpha) return bounds.upper;
      if (bounds.lower >= beta) return bounds.lower;
    }
  }

  // Step 3. The horizon: the static evaluation, incremental from the parent's patterns.
  if (depth <= 0) return StateOf(position, link).Evaluate(position, Weights());
  if (PollStop()) return 0;

  // Step 3a. Frontier nodes evaluate their children directly: more nodes, but no table or
  // ordering cost (measured: see NOTES.md, "Frontier nodes").
  if (depth == 1 && !solving && !pv_node && ply > 0) {
    return FrontierSearch(position, StateOf(position, link), beta, ply);
  }

  // Step 4. Transposition table. Entries with depth >= plies left are exact solves, valid at
  // any depth; the move is stored in the canonical frame.
  const CanonicalKey canonical = keys.Canonical();
  TTEntry entry;
  Move tt_move;
  if (shared_.tt.Probe(canonical.key, entry)) {
    tt_move = TransformMove(entry.move, InverseBoardSymmetry(canonical.symmetry));
    if (!tt_move.IsNone() && !position.IsLegal(tt_move)) tt_move = Move::None();
    const bool fail_high = entry.ProvesAtLeast(beta);
    const bool fail_low = entry.ProvesAtMost(alpha);
    if (!pv_node && entry.depth >= depth && (fail_high || fail_low)) {
      if (ply > 0) return entry.value;
      // At the root a cutoff must name its move: a fail-high entry holds the move that reached
      // its value (a fail-low needs none). Without a move, search.
      if (fail_low) return entry.value;
      if (!tt_move.IsNone() && (!root_.CutoffMustBeSelected() || root_.IsSelected(tt_move))) {
        pv_length_[0] = 0;
        UpdatePv(0, tt_move);
        return entry.value;
      }
    }
  }

  // Step 5. Moves, best first: TT move, moves that score or spoil a divercité now, killers,
  // history. At the root, one move per symmetry class.
  const NetworkEvalState eval = StateOf(position, link);
  MoveList moves = ply == 0 ? root_.selected() : LegalMoves(position);
  MoveOrderer orderer(position, moves, tt_move, history_, ply);
  if (ply == 0) orderer.PreferRootOrder(root_.values());
  // While solving, ordering by the evaluation after each move: fewer nodes, and less time
  // from kEvalOrderingMinDepth up (measured: see NOTES.md, "Evaluation ordering while
  // solving").
  if (ply > 0 && solving && depth >= params::kEvalOrderingMinDepth) {
    orderer.PreferEvaluation(position, eval, Weights());
  }

  const Player us = position.SideToMove();
  // Step 5a. Enhanced transposition cutoff: while solving, a child already proven good
  // enough in the table ends the node before anything is searched (measured: see NOTES.md,
  // "Enhanced transposition cutoffs").
  if (solving && !pv_node && depth >= params::kEtcMinDepth) {
    for (const Move move : moves) {
      SymmetricKeys child_keys = keys;
      child_keys.Play(move, us);
      TTEntry child_entry;
      if (shared_.tt.Probe(child_keys.Canonical().key, child_entry) &&
          child_entry.depth >= depth - 1 && child_entry.ProvesAtMost(-beta)) {
        pv_length_[ply + 1] = ply + 1;
        UpdatePv(ply, move);  // the move that reaches the value, for the root's sake
        return -child_entry.value;
      }
    }
  }

  const int original_alpha = alpha;
  int best_value = -kInfiniteValue;
  Move best_move;
  int searched = 0;
  // Searches one move (`quiet` as the orderer said when it gave it); true on a cutoff.
  auto search_move = [&](Move move, bool quiet) {
    SymmetricKeys child_keys = keys;
    child_keys.Play(move, us);
    shared_.tt.Prefetch(child_keys.Canonical().key);
    Position child = position;
    child.Play(move);
    const EvalLink child_link{&eval, move};

    // Step 6. Principal variation search with late move reductions. The first move gets the
    // full window; the others a null window, reduced when late and quiet, re-searched at
    // full depth and then full window when they beat alpha. Never while solving: the value
    // must stay exact.
    int value;
    if (searched == 0) {
      value = -Search(child, child_keys, child_link, -beta, -alpha, depth - 1, ply + 1, pv_node);
    } else {
      int reduction = 0;
      if (!solving && depth >= params::kLmrMinDepth && searched >= params::kLmrFirstReducedMove &&
          quiet) {
        reduction = ReductionTable()[depth][std::min(searched, kMaxMoves)] - (pv_node ? 1 : 0);
        reduction = std::clamp(reduction, 0, depth - 2);
      }
      value = -Search(child, child_keys, child_link, -alpha - 1, -alpha, depth - 1 - reduction,
                      ply + 1, false);
      if (value > alpha && reduction > 0) {
        value =
            -Search(child, child_keys, child_link, -alpha - 1, -alpha, depth - 1, ply + 1, false);
      }
      if (value > alpha && value < beta && pv_node) {
        value = -Search(child, child_keys, child_link, -beta, -alpha, depth - 1, ply + 1, true);
      }
    }
    ++searched;
    if (shared_.StopRequested()) return true;
    if (ply == 0) root_.RecordValue(move, value);

    if (value > best_value) {
      best_value = value;
      if (value > alpha) {
        best_move = move;
        UpdatePv(ply, move);
        if (value >= beta) {
          // Step 7. A cutoff: remember the move for siblings (killers) and for the whole
          // search (history), and punish the quiet moves tried before it.
          if (quiet) {
            history_.RecordCutoff(us, ply, move, depth, orderer.TriedQuietMoves());
          }
          return true;
        }
        alpha = value;
      }
    }
    return false;
  };

  // Step 6a. With several threads, a node defers the moves another thread is searching
  // (Simplified ABDADA), and comes back to them once its other moves are done.
  MovesInProgress* const in_progress =
      depth >= params::kDeferMinDepth ? shared_.moves_in_progress : nullptr;
  // A deferred move keeps the orderer's word on it: by the time it is searched, the orderer
  // has given others.
  absl::InlinedVector<std::pair<Move, bool>, 16> deferred;
  bool cut = false;
  for (Move move; !cut && orderer.Next(move);) {
    if (in_progress && searched > 0) {
      const std::uint64_t move_key = MovesInProgress::KeyOf(position.Key(), move);
      if (in_progress->Contains(move_key)) {
        deferred.emplace_back(move, orderer.LastWasQuiet());
        continue;
      }
      in_progress->Add(move_key);
      cut = search_move(move, orderer.LastWasQuiet());
      in_progress->Remove(move_key);
    } else {
      cut = search_move(move, orderer.LastWasQuiet());
    }
  }
  for (size_t i = 0; !cut && i < deferred.size(); ++i) {
    cut = search_move(deferred[i].first, deferred[i].second);
  }
  if (shared_.StopRequested()) return 0;

  // Step 8. Store the result in the canonical frame (at the root, only when all of its moves
  // were searched: the value of some of them is no bound on the root's).
  if (ply > 0 || root_.SelectedAreAll()) {
    shared_.tt.Store(canonical.key, TransformMove(best_move, canonical.symmetry), depth, best_value,
                     BoundOfResult(best_value, original_alpha, beta));
  }
  return best_value;
}

// A null-window node one ply above the horizon: the best evaluation after one move, stopping
// at the first that reaches beta. The killers of this ply first (a move that ended a sibling
// often ends this node too: see NOTES.md, "Killers at the frontier"), then the moves that can
// gain points now.
int Worker::FrontierSearch(const Position& position, const NetworkEvalState& eval, int beta,
                           int ply) {
  int best = -kInfiniteValue;
  const NetworkWeights& weights = Weights();
  // The child's value, kept in `best`; true when it reaches beta.
  auto try_move = [&](Move move) {
    Position child = position;
    child.Play(move);
    CountNode();
    best = std::max(
        best, child.IsGameOver() ? -FinalValue(child) : -eval.EvaluateAfter(child, move, weights));
    return best >= beta;
  };
  const std::array<Move, 2> killers = history_.Killers(ply);
  for (const Move killer : killers) {
    if (!killer.IsNone() && position.IsLegal(killer) && try_move(killer)) return best;
  }
  // Only a move next to a piece can score or spoil: those first, then the others, each group
  // in generation order (colour, kind, cell), generated straight from the cells of each group.
  // The children's evaluations are incremental from this node's patterns.
  const Bitboard occupied = position.Occupied();
  Bitboard next_to_pieces = 0;
  for (Bitboard pieces = occupied; pieces;) next_to_pieces |= Neighbours(PopLowestCell(pieces));
  const Bitboard empty = position.Empty();
  const Player us = position.SideToMove();
  for (const Bitboard group : {empty & next_to_pieces, empty & ~next_to_pieces}) {
    for (int c = 0; c < kNumColours; ++c) {
      const Colour colour = static_cast<Colour>(c);
      for (const Kind kind : {Kind::kCity, Kind::kResource}) {
        if (position.PiecesLeft(us, kind, colour) == 0) continue;
        for (Bitboard cells = group & CellsOfKind(kind); cells;) {
          const Move move(PopLowestCell(cells), colour);
          if (move == killers[0] || move == killers[1]) continue;
          if (try_move(move)) {
            history_.RecordKiller(ply, move);
            return best;
          }
        }
      }
    }
  }
  return best;
}

}  // namespace divercite
