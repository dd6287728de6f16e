// The board as an SVG picture, drawn as the course's GUI draws it (its GUI/main.js).
//
// A 600-unit square; the 9x9 grid of the 41 cells turned by 45 degrees about the centre, so
// that the diamond of cells fills the square and each cell is a diamond (row 0 at the top
// right, row 8 at the bottom left). A resource is a diamond of its colour; a city is a disc of
// its colour on a diamond of its owner's, white for the first player (the course's "W"), dark
// for the second ("B").
//
// The structure is a contract for tests, style sheets and the review page's script:
//   <svg class="divercite-board" viewBox="0 0 600 600" [width=.. height=..]>
//     <title>POSITION STRING (scores A-B)</title>
//     <polygon class="cell city|resource" data-cell="RC" .../>          41 of them
//     <g class="piece city|resource W|B R|G|B|Y">...</g>                 one per piece, by cell
//     <polygon class="last-move" data-move="RC14" .../>                  if asked for
//     <g class="arrow" data-move="GR13">...</g>                          if asked for
//   </svg>
#ifndef DIVERCITE_TOOLS_BOARD_SVG_BOARD_SVG_H_
#define DIVERCITE_TOOLS_BOARD_SVG_BOARD_SVG_H_

#include <optional>
#include <string>

#include "engine/move.h"
#include "engine/position.h"

namespace divercite {

// The picture's side, in its own units.
inline constexpr double kBoardSvgCanvas = 600.0;

struct BoardSvgOptions {
  // A move drawn as an arrow onto its cell from the mover's side (the first player's panel
  // is on the GUI's left, the second's on its right), with the piece's outline on the cell.
  // None: no arrow.
  Move arrow = Move::None();
  // The arrow's mover; none: the position's side to move. (A review shows, on the board
  // after a move, the move its mover could have played instead.)
  std::optional<Player> arrow_mover;
  // A cell outlined as the last move's. None: no outline.
  Move last_move = Move::None();
  // Width and height in pixels; 0 leaves them out (the picture scales to its container).
  int size = 400;
};

std::string BoardSvg(const Position& position, const BoardSvgOptions& options = {});

// The arrow element alone (`<g class="arrow" ...>`, as BoardSvg draws options.arrow), to put
// into a board BoardSvg drew: the review page draws the engine's other lines with it.
std::string BoardArrowSvg(Move move, Player mover);

// The centre of the cell (row, col) in the picture's units (main.js's getCellCoordinates).
struct SvgPoint {
  double x = 0, y = 0;
};
SvgPoint CellCentre(int row, int col);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_BOARD_SVG_BOARD_SVG_H_
