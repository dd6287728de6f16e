// What a search is asked for: its limits (depth, nodes, time, clocks), whether the proof of
// the result is enough, and the root's moves to rank.
#ifndef DIVERCITE_SEARCH_SEARCH_LIMITS_H_
#define DIVERCITE_SEARCH_SEARCH_LIMITS_H_

#include <cstdint>
#include <vector>

#include "engine/move.h"
#include "engine/types.h"

namespace divercite {

struct SearchLimits {
  int depth = 0;                                 // 0: no depth limit
  std::uint64_t nodes = 0;                       // 0: no node limit
  std::int64_t movetime_ms = 0;                  // 0: none
  std::int64_t time_ms[kNumPlayers] = {-1, -1};  // clock per player (-1: no clock)
  std::int64_t increment_ms[kNumPlayers] = {0, 0};
  int movestogo = 0;  // 0: until the end of the game
  bool infinite = false;
  // Stop once the game's result is proven, without going on to the exact value.
  bool prove = false;
  // The root's moves to search (`go searchmoves`), legal ones; empty: all of them.
  std::vector<Move> searchmoves;
};

// Whether a solve of the root may prove the result first (null windows at the win and draw
// boundaries) before it solves the exact value: always, unless a depth was asked for (`go
// depth 40` solves the exact value directly, as the analysis, the adjudication and the tests
// expect).
constexpr bool ProofFirstAllowed(const SearchLimits& limits) {
  return limits.prove || limits.depth == 0;
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_SEARCH_LIMITS_H_
