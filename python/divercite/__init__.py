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
pieces in upper case. `Position` says the rest.
"""

from ._core import START_FEN, Position, __version__

__all__ = ["Position", "START_FEN", "__version__"]
