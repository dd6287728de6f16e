"""Pictures of positions as SVG strings, drawn as the course's GUI draws the board.

>>> import divercite
>>> from divercite import svg
>>> position = divercite.Position.from_moves(["RC14", "RR04"])
>>> picture = svg.board(position, arrow="GR13")
>>> picture.startswith("<svg") and picture.count('class="cell ') == 41
True

The geometry is the course's `GUI/main.js`: a 600-unit square, the 9x9 grid of 41 cells
(|row - 4| + |col - 4| <= 4) turned by 45 degrees about the centre, so that the diamond of
cells fills a square and each cell is a diamond (row 0 at the top right, row 8 at the bottom
left). Its pieces are its pictures' colours: a resource is a diamond of its colour; a city
is a disc of its colour on a diamond of its owner's, white for the first player (the
course's "W"), dark for the second ("B").

Every cell is one element (`class="cell city"` or `"cell resource"`), every piece one group
(`class="piece <city|resource> <owner W|B> <colour R|G|B|Y>"`), the last move one outline
(`class="last-move"`) and the arrow one group (`class="arrow"`), for tests and style sheets.
"""

from __future__ import annotations

import math
from typing import List, Optional, Tuple, Union

from ._core import Position

# main.js: a 600-pixel canvas, margins of 12 % and 3.2 % of it between pieces.
CANVAS = 600.0
_MARGIN = 0.12 * CANVAS
_GAP = 0.032 * CANVAS
CELL = (CANVAS - 2 * _MARGIN) / 9
_PITCH = CELL + _GAP
_CENTRE = CANVAS / 2

# The colours of the course's piece pictures (GUI/assets/*.png), and of its owners' tiles.
COLOURS = {"R": "#cb284d", "G": "#05a784", "B": "#2ca6db", "Y": "#f0c933"}
OWNERS = {"W": "#ffffff", "B": "#1f2936"}
_BOARD = "#e9dcc3"
_EMPTY = {"C": "#d8c7a6", "R": "#f4ead6"}
_MARK = "#ff5722"
# From the start every well-formed move is legal: the 164 of them.
_MOVES = frozenset(Position().legal_moves())
CELLS = [(row, col) for row in range(9) for col in range(9) if abs(row - 4) + abs(col - 4) <= 4]


def cell_centre(row: int, col: int) -> Tuple[float, float]:
    """The centre of a cell in the picture's units (main.js's getCellCoordinates)."""
    x, y = (col - 4) * _PITCH, (row - 4) * _PITCH
    turn = math.pi / 4
    return (_CENTRE + x * math.cos(turn) - y * math.sin(turn),
            _CENTRE + x * math.sin(turn) + y * math.cos(turn))


def _diamond(row: int, col: int, half: float) -> str:
    # A square of side 2*half turned by 45 degrees about the cell's centre.
    x, y = cell_centre(row, col)
    r = half * math.sqrt(2)
    return f"{x:.1f},{y - r:.1f} {x + r:.1f},{y:.1f} {x:.1f},{y + r:.1f} {x - r:.1f},{y:.1f}"


def _kind(row: int, col: int) -> str:
    return "C" if (row + col) % 2 else "R"


def _cell(move: str) -> Tuple[int, int]:
    return int(move[2]), int(move[3])


def _piece(row: int, col: int, name: str) -> str:
    colour, kind, owner = name
    classes = f"piece {'city' if kind == 'C' else 'resource'} {owner} {colour}"
    x, y = cell_centre(row, col)
    if kind == "R":
        return (f'<g class="{classes}"><polygon points="{_diamond(row, col, CELL / 2)}" '
                f'fill="{COLOURS[colour]}" stroke="#00000055" stroke-width="2"/></g>')
    return (f'<g class="{classes}"><polygon points="{_diamond(row, col, CELL / 2)}" '
            f'fill="{OWNERS[owner]}" stroke="#00000088" stroke-width="2"/>'
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CELL * 0.3:.1f}" '
            f'fill="{COLOURS[colour]}"/></g>')


def _arrow(move: str, side: str) -> List[str]:
    # From the mover's side of the GUI (its panel: the first player's on the left, the
    # second's on the right) to the cell, and the piece's outline on the cell.
    row, col = _cell(move)
    x, y = cell_centre(row, col)
    start = 14.0 if side == "w" else CANVAS - 14.0
    length = math.hypot(x - start, y - _CENTRE) or 1.0
    stop = max(0.0, length - CELL * 0.55) / length
    end_x, end_y = start + (x - start) * stop, _CENTRE + (y - _CENTRE) * stop
    colour = COLOURS[move[0]]
    return [f'<g class="arrow" data-move="{move}">',
            f'<polygon points="{_diamond(row, col, CELL / 2)}" fill="none" stroke="{colour}" '
            'stroke-width="4" stroke-dasharray="8 4"/>',
            f'<line x1="{start:.1f}" y1="{_CENTRE:.1f}" x2="{end_x:.1f}" y2="{end_y:.1f}" '
            f'stroke="{colour}" stroke-width="7" stroke-linecap="round" opacity="0.8" '
            'marker-end="url(#arrowhead)"/>',
            "</g>"]


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
    for what, move in (("arrow", arrow), ("last_move", marked)):
        if move is not None and move not in _MOVES:
            raise ValueError(f"{what} {move!r} is not a move string like 'RC14'")
    dimensions = f' width="{size}" height="{size}"' if size else ""
    scores = position.scores
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CANVAS:g} {CANVAS:g}"'
             f'{dimensions} class="divercite-board">',
             f"<title>{position.fen()} (scores {scores[0]}-{scores[1]})</title>",
             '<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" '
             'markerWidth="3" markerHeight="3" orient="auto-start-reverse">'
             '<path d="M 0 0 L 10 5 L 0 10 z" fill="context-stroke"/></marker></defs>',
             f'<rect class="frame" x="0" y="0" width="{CANVAS:g}" height="{CANVAS:g}" '
             f'fill="{_BOARD}" stroke="#000" stroke-width="15"/>']
    for row, col in CELLS:
        kind = _kind(row, col)
        parts.append(f'<polygon class="cell {"city" if kind == "C" else "resource"}" '
                     f'data-cell="{row}{col}" points="{_diamond(row, col, CELL / 2)}" '
                     f'fill="{_EMPTY[kind]}" stroke="#a08c6a" stroke-width="1.5"/>')
    for (row, col), name in sorted(position.board().items()):
        parts.append(_piece(row, col, name))
    if marked is not None:
        row, col = _cell(marked)
        parts.append(f'<polygon class="last-move" data-move="{marked}" '
                     f'points="{_diamond(row, col, CELL / 2 + 4)}" fill="none" '
                     f'stroke="{_MARK}" stroke-width="5"/>')
    if arrow is not None:
        parts.extend(_arrow(arrow, position.side_to_move))
    parts.append("</svg>")
    return "\n".join(parts)
