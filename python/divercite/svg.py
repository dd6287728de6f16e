"""Pictures of positions as SVG, drawn as the course's GUI draws the board.

>>> import divercite
>>> from divercite import svg
>>> position = divercite.Position.from_moves(["RC14", "RR04"])
>>> picture = svg.board(position, arrow="GR13")
>>> picture.startswith("<svg") and picture.count('class="cell ') == 41
True

`board` returns an `SvgPicture`: the SVG text as a `str` (written to a file, embedded in a page),
which draws itself in Jupyter as a picture, as python-chess's `chess.svg.board` does.

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
from .notation import CELLS  # noqa: F401  (the cells a picture draws, as before)

CANVAS = BOARD_SVG_CANVAS


class SvgPicture(str):
    """SVG text that Jupyter (IPython's rich display) draws as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def cell_centre(row: int, col: int) -> Tuple[float, float]:
    """The centre of a cell in the picture's units (main.js's getCellCoordinates)."""
    return _cell_centre(row, col)


def board(position, arrow: Optional[str] = None, last_move: Union[bool, str, None] = True,
          size: Optional[int] = 400) -> SvgPicture:
    """The SVG picture of `position` (a `divercite.Position`), as an `SvgPicture` (a str).

    `arrow`: a move string (the side to move's) drawn as an arrow onto its cell, e.g. a
    suggested move; `last_move`: True marks the position's own `last_move` when it knows it,
    a move string marks that move's cell, False or None marks nothing; `size`: the width and
    height in pixels (None: scale to the container). ValueError if `arrow` or `last_move` is
    not a move string.
    """
    marked = position.last_move if last_move is True else (last_move or None)
    return SvgPicture(board_svg(position, arrow, marked, size))


def skeleton(size: Optional[int] = None) -> SvgPicture:
    """The board without pieces, which `web/board.js` fills in from position strings
    (`DiverciteBoard.mount(container, skeleton())`, then `board.show(position.fen())`): the
    cells as `board` draws them and, in its `<defs>`, the template of every piece look, of the
    last move's outline and of an arrow per colour. `size` as `board`'s.

    >>> picture = skeleton()
    >>> picture.count('class="cell ') == 41 and 'class="piece' not in picture
    True
    """
    return SvgPicture(board_skeleton_svg(size))
