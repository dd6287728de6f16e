// The margin bounds: what the final margin can still become with any play. The search and
// the endgame solver cut with them (a node whose bounds lie outside the window needs no
// search).
#ifndef DIVERCITE_SEARCH_MARGIN_BOUNDS_H_
#define DIVERCITE_SEARCH_MARGIN_BOUNDS_H_

#include "engine/position.h"

namespace divercite {

// What the final margin can still become, in centipoints from the side to move's view, with
// any play: a city's value never drops, so a player ends with at least the score now; an open
// city gains at most up to 5 (a divercité still possible with the resources left) or its
// empty neighbours of its colour, and a colour's resources left add at most one point each
// to every city of that colour around one cell; the cities in hand take the empty city cells
// of most potential for their colours; and the tie-break moves only a level margin (to +1
// for either player, or 0 or +2 for the first).
struct MarginBounds {
  int lower;
  int upper;
};
MarginBounds FinalMarginBounds(const Position& position);

}  // namespace divercite

#endif  // DIVERCITE_SEARCH_MARGIN_BOUNDS_H_
