// The exact endgame solver: the final margin under best play, for positions a few plies from
// the end. It is the bottom of every solving search, so it is built for speed where the main
// search is built for guidance: the plain Zobrist key (symmetric positions no longer arise so
// late), the table's move tried before the others are ordered, then the others by the points
// they are worth now (by the evaluation far from the end), no reductions, the margin's
// bounds tested at every node above the last two plies, and the table's cluster prefetched
// before the bounds are computed. It shares the main search's table, under keys of its own.
// Measured solve times, and what was tried and did not pay: search/NOTES.md.
#ifndef DIVERCITE_SEARCH_ENDGAME_H_
#define DIVERCITE_SEARCH_ENDGAME_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <optional>

#include "absl/functional/function_ref.h"
#include "engine/position.h"
#include "search/network.h"
#include "search/network_eval_state.h"
#include "search/search_params.h"
#include "search/tt.h"
#include "search/value.h"

namespace divercite {

// The value of a position with one move left: the best final margin over its moves, fail
// soft (it stops at the first that reaches beta). `moves_tried` gets how many it played.
int SolveLastMove(const Position& position, int beta, int& moves_tried);

class EndgameSolver {
 public:
  // `nodes` is the calling worker's counter; the network `weights` order the moves far from
  // the end.
  EndgameSolver(TranspositionTable& tt, std::atomic<std::uint64_t>& nodes,
                const NetworkWeights& weights)
      : tt_(tt), nodes_(nodes), weights_(weights) {}

  // The exact final margin (centipoints, side to move's view, tie-break included), fail-soft
  // within (alpha, beta): a value <= alpha is an upper bound, >= beta a lower bound.
  // `should_stop` is asked every params::kNodesBetweenChecks nodes; once it says true, the
  // solver returns a meaningless value at once.
  int Solve(const Position& position, int alpha, int beta, absl::FunctionRef<bool()> should_stop);

  // Whether the last Solve() was cut short by the poll.
  bool stopped() const { return stopped_; }

  // The table key of the solver's entries: the plain Zobrist key, salted so that it never
  // meets the main search's symmetry-reduced keys (whose moves are in another frame).
  static std::uint64_t TableKey(const Position& position) {
    return position.Key() ^ 0x9E3779B97F4A7C15ull;
  }

 private:
  // `parent_eval`: the parent's evaluation state if it made one, `last_move` the move that
  // led here (so that a node ordering by the evaluation makes its state incrementally).
  int Search(const Position& position, int alpha, int beta, const NetworkEvalState* parent_eval,
             Move last_move);
  // The last two moves: each player has one piece and three cells are empty, so the few
  // moves cost less to search than bounds, ordering or the table would.
  int SolveLastTwoMoves(const Position& position, int alpha, int beta);
  void CountNodes(std::uint64_t n);

  // Cutoffs per (player, move), to order the moves that are worth the same now.
  std::array<std::array<std::uint32_t, kNumMoveIndices>, kNumPlayers> history_{};
  TranspositionTable& tt_;
  std::atomic<std::uint64_t>& nodes_;
  const NetworkWeights& weights_;
  std::optional<absl::FunctionRef<bool()>> should_stop_;  // during Solve()
  std::uint64_t until_poll_ = params::kNodesBetweenChecks;
  bool stopped_ = false;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_ENDGAME_H_
