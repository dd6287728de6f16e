"""Divercité, the placement game of Polytechnique Montréal's INF8175 course, at C++ speed.

The rules are the engine's C++ library (the course code's rules, scores and last-move
tie-break, checked against games the course code played), bound with pybind11:

>>> import divercite
>>> position = divercite.Position()
>>> len(position.legal_moves())
164
>>> position.play("RC14")
>>> position.play("rr04")
Traceback (most recent call last):
  ...
ValueError: move 'rr04': unknown colour 'r' (expected R, G, B or Y)
>>> position.play("RR04")
>>> position.scores, position.side_to_move, position.fen()
((1, 0), 'w', 'r/1R1/5/7/9/7/5/3/1 w')
>>> divercite.Position.from_moves(["RC14", "RR04"]) == position
True

The second player's red resource scored for the first player's red city beside it. Moves are
`<colour><kind><row><col>` (`RR04`: a red resource on row 0, column 4), whoever plays them;
position strings are `<rows> <side>` (`divercite.START_FEN` is the start), the first player's
pieces in upper case. `Position` says the rest; `board()` gives the pieces as the course
names them:

>>> position.board()
{(0, 4): 'RRB', (1, 4): 'RCW'}
>>> position.last_move
'RR04'

Modules:
    course  the course's framework both ways: `Position.from_course_state(state)`, the
            course's action of a move (`course.action`) and back, its recordings read and
            written (the files its GUI replays)
    svg     `svg.board(position)`: an SVG picture drawn as the course's GUI draws the board;
            a position shows itself so in Jupyter (`Position._repr_svg_`)
    engine  any engine of our protocol from Python (`engine.Engine.popen(path)`, `play`,
            `analyse`), imported on demand: `from divercite.engine import Engine`
    records the match runner's records and `divercite-analyze --json` lines as dataclasses,
            and as rows for pandas: `from divercite import records`
"""

from . import course, svg
from ._core import START_FEN, Position, __version__

# Python-side methods of the C++ class (the C++ side knows nothing of the course or SVG).
Position.from_course_state = staticmethod(course.position_from_course_state)
Position._repr_svg_ = svg.board

__all__ = ["Position", "START_FEN", "__version__", "course", "svg"]
