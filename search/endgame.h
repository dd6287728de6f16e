// The exact endgame solver: the final margin under best play, for positions a few plies from
// the end. It is the bottom of every solving search, so it is built for speed where the main
// search is built for guidance: the plain Zobrist key (symmetric positions no longer arise so
// late), move ordering by the points a move is worth now, no history, no reductions, and the
// margin's bounds tested at every node above the last two plies. It shares the main search's
// table, under keys of its own.
//
// Measured (bench/engine_figures.py solve: `go depth 40`, Hash 256; positions = N plies
// before the end of reference games 0-4), seconds to the exact value, with the fitted
// evaluation weights (which order the solver's moves from 11 plies left up):
//   12 plies, one thread   0.01 / 0.02 / 0.03 / 0.09 / 0.02
//   14 plies, one thread   0.17 / 0.29 / 1.29 / 2.32 / 0.67
//   16 plies, one thread   2.9 / 7.3 / 8.6 / 15.1 / 17.9  (median 8.6; 20-123 M nodes)
//   16 plies, two threads  2.6 / 3.5 / 7.3 /  8.6 / 11.7  (median 7.3, Lazy SMP on both cores)
//   18 plies, one thread   116 / 408 / 72  (games 0-2; 0.44-3.1 G nodes)
// With the previous hand-set weights, 16 plies on one thread took median 11.4 s.
// Before it (main search to the last move, looser bounds): game 0 took 52.8 s. The solver is
// bound by the table's cache misses more than by its instructions: computing the bounds from
// the score now, skipping them and the ordering on the last two plies, and probing the table
// first cut the instructions by 28 % (callgrind, 14 plies left, games 0-1) but the time by
// only 0.4-7 %. Two-sided table entries and helpers testing other null windows than the
// main worker's were tried and measured no faster (16 plies, two threads, two runs each).
// Asking for a node's cluster before computing its bounds, and for the next child's while
// one is searched, hides part of the misses: median 12.1 -> 11.4 s, same nodes, in one run
// (before the fitted weights).
// A small private table per thread for the nodes 4-6 plies from the end (1 or 4 MiB, kept
// in the cache) lost more to its misses of capacity than it saved: 8-26 % more nodes and
// 2-21 % more time on games 1-2. Leaving the nodes 3 plies from the end unordered, or
// handing the solver the nodes 15 plies from the end, changed the time by +-10 %, no gain.
// A countermove bonus (the last cutoff's reply to the previous move, worth half a point or
// two and a half in the ordering) made more nodes: games 0-2, 25.2 / 53.9 / 84.8 M ->
// 28.3 / 60.1 / 88.5 M and 33.2 / 87.6 / 98.1 M.
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
