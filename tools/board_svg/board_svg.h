// The board as an SVG picture, drawn as the course's GUI draws it (its GUI/main.js).
//
// A 600-unit square; the 9x9 grid of the 41 cells turned by 45 degrees about the centre, so
// that the diamond of cells fills the square and each cell is a diamond (row 0 at the top
// right, row 8 at the bottom left). A resource is a diamond of its colour; a city is a disc of
// its colour on a diamond of its owner's, white for the first player (the course's "W"), dark
// for the second ("B").
//
// The structure is a contract for tests, style sheets and web/board.js:
//   <svg class="divercite-board" viewBox="0 0 600 600" [width=.. height=..]
//        data-arrow-first="X,Y" data-arrow-second="X,Y"   where each mover's arrows start
//        data-arrow-stop="D">                             how far before a cell's centre they end
//     <title>POSITION STRING (scores A-B)</title>
//     <defs><marker id="arrowhead">  [the skeleton's templates, below]</defs>
//     <g class="view">                                                    turned by board.js
//       <rect class="frame" .../>
//       <g class="cells" ...><polygon class="cell city|resource" data-cell="RC" data-x="X"
//         data-y="Y" .../></g>                   41 cells; (X, Y) the centre, to 0.1 unit
//       <g class="piece city|resource W|B R|G|B|Y" transform="translate(X,Y)">...</g>
//                                                 one per piece, by cell, drawn about (0, 0)
//       <polygon class="last-move" data-move="RC14" transform="translate(X,Y)" .../>  if asked
//       <g class="arrow" data-move="GR13"><polygon transform="translate(X,Y)" .../>
//         <line x1 y1 x2 y2 .../></g>                                                   if asked
//     </g>
//   </svg>
//
// The skeleton (BoardSkeletonSvg) is that picture without pieces, marks or arrows, whose
// <defs> also hold what web/board.js places, drawn about (0, 0) by the code that draws
// BoardSvg's, none of the class of what it draws:
//   <g data-piece="city|resource W|B R|G|B|Y">...</g>        16 looks: a clone is a piece's
//   <polygon data-mark="last-move" .../>                     the last move's outline
//   <g data-arrow="R|G|B|Y"><polygon .../><line .../></g>    an arrow of that colour
//   <style>: cells of class `legal` and `selected` (board.js marks them)
// so that the pages draw the board once and place each ply's pieces from its position string:
// one drawing, here.
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

// The board without pieces, with the templates web/board.js places (above); `size` as
// BoardSvgOptions's (0: it scales to its container).
std::string BoardSkeletonSvg(int size = 0);

// The arrow element alone (`<g class="arrow" ...>`, as BoardSvg draws options.arrow), to put
// into a board BoardSvg drew.
std::string BoardArrowSvg(Move move, Player mover);

// The centre of the cell (row, col) in the picture's units (main.js's getCellCoordinates).
// Pieces, marks and arrows are placed at it as printed to 0.1 unit (the cells' data-x, data-y).
struct SvgPoint {
  double x = 0, y = 0;
};
SvgPoint CellCentre(int row, int col);

}  // namespace divercite

#endif  // DIVERCITE_TOOLS_BOARD_SVG_BOARD_SVG_H_
