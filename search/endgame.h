// The exact endgame solver: the final margin under best play, for positions a few plies from
// the end. It is the bottom of every solving search, so it is built for speed where the main
// search is built for guidance: the plain Zobrist key (symmetric positions no longer arise so
// late), move ordering by the points a move is worth now, no history, no reductions, and the
// margin's bounds tested at every node. It shares the main search's table, under keys of its
// own.
//
// Measured (`go depth 40`, Hash 256, one thread; positions = the first plies of reference
// games 0-4), seconds to the exact value:
//   plies left   12: 0.02-0.14   14: 0.17-4.0   16: 4.4 / 10.5 / 15.2 / 20.6 / 29.4
//                18: 185 (game 0)
// Before it (main search to the last move, looser bounds): 16 plies, game 0: 52.8 s.
#ifndef DIVERCITE_SEARCH_ENDGAME_H_
#define DIVERCITE_SEARCH_ENDGAME_H_

#include <array>
#include <atomic>
#include <cstdint>

#include "engine/position.h"
#include "search/tt.h"

namespace divercite {

class EndgameSolver {
 public:
  // `nodes` is the calling worker's counter; `poll` is called every 1024 nodes and returns
  // true to stop (the solver then returns a meaningless value at once).
  using Poll = bool (*)(void* context);
  EndgameSolver(TranspositionTable& tt, std::atomic<std::uint64_t>& nodes, Poll poll,
                void* poll_context)
      : tt_(tt), nodes_(nodes), poll_(poll), poll_context_(poll_context) {}

  // The exact final margin (centipoints, side to move's view, tie-break included), fail-soft
  // within (alpha, beta): a value <= alpha is an upper bound, >= beta a lower bound.
  int Solve(const Position& position, int alpha, int beta);

  // Whether the last Solve() was cut short by the poll.
  bool stopped() const { return stopped_; }

  // The table key of the solver's entries: the plain Zobrist key, salted so that it never
  // meets the main search's symmetry-reduced keys (whose moves are in another frame).
  static std::uint64_t TableKey(const Position& position) {
    return position.Key() ^ 0x9E3779B97F4A7C15ull;
  }

 private:
  static constexpr int kInfiniteMargin = 32000;
  int Search(const Position& position, int alpha, int beta);
  // The last move: the best final margin, stopping at the first that reaches beta.
  int SolveLastMove(const Position& position, int beta);
  // The last two moves: each player has one piece and three cells are empty, so the few
  // moves cost less to search than bounds, ordering or the table would.
  int SolveLastTwoMoves(const Position& position, int alpha, int beta);
  void CountNodes(std::uint64_t n);

  // Cutoffs per (player, move), to order the moves that are worth the same now.
  std::array<std::array<std::uint32_t, kNumMoveIndices>, kNumPlayers> history_{};
  TranspositionTable& tt_;
  std::atomic<std::uint64_t>& nodes_;
  Poll poll_;
  void* poll_context_;
  std::uint64_t until_poll_ = 1024;
  bool stopped_ = false;
};

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_ENDGAME_H_
