// Values: centipoints of final margin (100 = one point), from the side to move's view. An
// exact value is 100 x the true final margin under best play, the last-move tie-break
// included.
//
// Who wins is the sign of that margin: the tie-break is already in the final scores (it adds
// its point inside the scoring of the 40th move, and leaves a level score only when the game
// is drawn), so an exact value is a win from +100 up, a draw at 0 exactly, a loss from -100
// down. Exact values are whole points, so a search that proves the value >= kWinBoundary
// proves a win, and one that proves it < kDrawBoundary proves a loss.
#ifndef DIVERCITE_SEARCH_VALUE_H_
#define DIVERCITE_SEARCH_VALUE_H_

#include "engine/game_result.h"
#include "engine/position.h"

namespace divercite {

// A point on the board is a point of the final margin.
inline constexpr int kPoint = 100;
// Beyond any value: the widest window.
inline constexpr int kInfiniteValue = 32000;
// Plies from the root a search can reach: one more than the game has, for the leaf.
inline constexpr int kMaxPly = kTotalPlies + 1;

// `value` rounded to the nearest whole point (halves away from zero): where an exact value,
// always whole points, is likeliest.
constexpr int RoundToPoint(int value) {
  return kPoint * ((value + (value >= 0 ? kPoint / 2 : -kPoint / 2)) / kPoint);
}

// The boundaries of the result, as the beta of a null window: value >= kWinBoundary is a win,
// value >= kDrawBoundary at least a draw.
inline constexpr int kWinBoundary = kPoint;
inline constexpr int kDrawBoundary = 0;

// The result that an exact value means.
constexpr ProvenResult ResultOfValue(int exact_value) {
  return exact_value >= kWinBoundary    ? ProvenResult::kWin
         : exact_value >= kDrawBoundary ? ProvenResult::kDraw
                                        : ProvenResult::kLoss;
}

// What the bounds lower <= value <= upper on an exact value prove of the result.
constexpr ProvenResult ResultOfBounds(int lower, int upper) {
  if (lower >= kWinBoundary) return ProvenResult::kWin;
  if (upper < kDrawBoundary) return ProvenResult::kLoss;
  if (lower >= kDrawBoundary && upper < kWinBoundary) return ProvenResult::kDraw;
  return ProvenResult::kUnknown;
}

// The score difference so far, side to move's view, in centipoints: what every evaluation
// starts from, and the exact value of a finished game.
inline int ScoreDifference(const Position& position) {
  const Player us = position.SideToMove();
  return kPoint * (position.Score(us) - position.Score(Opponent(us)));
}

// The exact value of a finished game.
inline int FinalValue(const Position& position) { return ScoreDifference(position); }

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_VALUE_H_
