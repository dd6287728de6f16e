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

The notation's constants are the package's too (`divercite.notation`, pure Python):
`PLIES` (40), `CELLS` (the 41 `(row, col)`), `COLOURS` ("RGBY"), `KINDS` ("CR": city,
resource), `START_FEN`.

Modules:
    notation  cells, moves and position strings as text, in pure Python
    course    the course's framework both ways: `Position.from_course_state(state)`, the
              course's action of a move (`course.action`) and back, its recordings read and
              written (the files its GUI replays), our games exported as recordings
              (`python3 -m divercite.course.export records.jsonl -d replays/`), a course agent
              as an engine (`python3 -m divercite.course.engine my_player.py`), our engine as
              a course player
    svg     `svg.board(position)`: an SVG picture drawn as the course's GUI draws the board;
            a position shows itself so in Jupyter (`Position._repr_svg_`)
    engine  any engine of our protocol from Python (`engine.Engine.popen(path)`, `play`,
            `analyse`), imported on demand: `from divercite.engine import Engine`
    records the match runner's records and `divercite-analyze --json` lines as dataclasses,
            and as rows for pandas: `from divercite import records`
"""

import sys as _sys

from . import course, notation
from .notation import CELLS, COLOURS, KINDS, PLIES, START_FEN

try:
    from ._core import Position, __version__
except ImportError as _error:
    # The compiled rules are built for one Python (CMake's DIVERCITE_PYTHON, Debian's by
    # default): under another (a virtualenv of another version, conda) they do not load.
    # The protocol's client, divercite.engine, needs none of them, so the package still
    # imports (the course player and the course bridge, divercite.course, run on whatever
    # Python the course is run with); the names below say why they are missing.
    _CORE_MISSING = (
        f"divercite's compiled rules (divercite._core) do not load in this Python "
        f"({_sys.executable}, {_sys.version.split()[0]}): {_error}. They are built for the "
        f"Python CMake was given (-DDIVERCITE_PYTHON=..., /usr/bin/python3 by default); "
        f"divercite.engine, divercite.notation and the course's engine and player work "
        f"without them")

    def __getattr__(name: str):
        if name in ("Position", "__version__", "svg", "records"):
            raise ImportError(_CORE_MISSING)
        raise AttributeError(f"module 'divercite' has no attribute {name!r}")

    __all__ = ["CELLS", "COLOURS", "KINDS", "PLIES", "START_FEN", "course", "notation"]
else:
    from . import svg

    # Python-side methods of the C++ class (the C++ side knows nothing of the course or SVG).
    Position.from_course_state = staticmethod(course.position_from_course_state)
    Position._repr_svg_ = lambda position: str(svg.board(position))

    __all__ = ["Position", "CELLS", "COLOURS", "KINDS", "PLIES", "START_FEN", "__version__",
               "course", "notation", "svg"]
