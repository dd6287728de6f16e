// Values: centipoints of final margin (100 = one point), from the side to move's view. An
// exact value is 100 x the true final margin under best play, the last-move tie-break
// included.
#ifndef DIVERCITE_SEARCH_VALUE_H_
#define DIVERCITE_SEARCH_VALUE_H_

#include "engine/position.h"

namespace divercite {

// A point on the board is a point of the final margin.
inline constexpr int kPoint = 100;
// Beyond any value: the widest window.
inline constexpr int kInfiniteValue = 32000;
// Plies from the root a search can reach: one more than the game has, for the leaf.
inline constexpr int kMaxPly = kTotalPlies + 1;

// The exact value of a finished game.
inline int FinalValue(const Position& position) {
  const Player us = position.SideToMove();
  return kPoint * (position.Score(us) - position.Score(Opponent(us)));
}

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_VALUE_H_
