"""Pictures of positions as SVG strings, drawn as the course's GUI draws the board.

>>> import divercite
>>> from divercite import svg
>>> position = divercite.Position.from_moves(["RC14", "RR04"])
>>> picture = svg.board(position, arrow="GR13")
>>> picture.startswith("<svg") and picture.count('class="cell ') == 41
True

The drawing is the C++ one (tools/board_svg/, bound as `divercite._core.board_svg`): its
pieces are the templates of the board's skeleton (`skeleton()`) that `web/board.js` places on
the review pages of `divercite-analyze --html`. The geometry is the course's
`GUI/main.js`: a 600-unit square, the 9x9 grid of 41 cells (|row - 4| + |col - 4| <= 4)
turned by 45 degrees about the centre, so that the diamond of cells fills a square and each
cell is a diamond (row 0 at the top right, row 8 at the bottom left). Its pieces are its
pictures' colours: a resource is a diamond of its colour; a city is a disc of its colour on a
diamond of its owner's, white for the first player (the course's "W"), dark for the second
("B").

Every cell is one element (`class="cell city"` or `"cell resource"`), every piece one group
(`class="piece <city|resource> <owner W|B> <colour R|G|B|Y>"`), the last move one outline
(`class="last-move"`) and the arrow one group (`class="arrow"`), for tests and style sheets.
"""

from __future__ import annotations

from typing import Optional, Tuple, Union

from ._core import BOARD_SVG_CANVAS, board_skeleton_svg, board_svg, cell_centre as _cell_centre

CANVAS = BOARD_SVG_CANVAS
CELLS = [(row, col) for row in range(9) for col in range(9) if abs(row - 4) + abs(col - 4) <= 4]


def cell_centre(row: int, col: int) -> Tuple[float, float]:
    """The centre of a cell in the picture's units (main.js's getCellCoordinates)."""
    return _cell_centre(row, col)


def board(position, arrow: Optional[str] = None, last_move: Union[bool, str, None] = True,
          size: Optional[int] = 400) -> str:
    """The SVG picture of `position` (a `divercite.Position`).

    `arrow`: a move string (the side to move's) drawn as an arrow onto its cell, e.g. a
    suggested move; `last_move`: True marks the position's own `last_move` when it knows it,
    a move string marks that move's cell, False or None marks nothing; `size`: the width and
    height in pixels (None: scale to the container). ValueError if `arrow` or `last_move` is
    not a move string.
    """
    marked = position.last_move if last_move is True else (last_move or None)
    return board_svg(position, arrow, marked, size)


def skeleton(size: Optional[int] = None) -> str:
    """The board without pieces, which `web/board.js` fills in from position strings
    (`DiverciteBoard.mount(container, skeleton())`, then `board.show(position.fen())`): the
    cells as `board` draws them and, in its `<defs>`, the template of every piece look, of the
    last move's outline and of an arrow per colour. `size` as `board`'s.

    >>> picture = skeleton()
    >>> picture.count('class="cell ') == 41 and 'class="piece' not in picture
    True
    """
    return board_skeleton_svg(size)
