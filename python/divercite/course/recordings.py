"""Course recordings: the `__REC__*.json` files of `main_divercite.py -r`, read and written.

`read_recording(path)` reads one, checking every state against the rules; `write_recording(moves,
path)` writes any game in that format, which the course's GUI replays with its "Load JSON"
button and the course's `GameStateDivercite.from_json` reads back. Both are the C++ reader and
writer (tools/records/course_recording.h) that divercite-analyze and the app use too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .. import notation
from .._core import Position, read_course_recording, write_course_recording
from .states import CourseError

# What write_recording's players are called, and their ids (the course's GUI starts with
# these ids before a file is loaded; the C++ writer gives them).
DEFAULT_NAMES = notation.PLAYER_NAMES
RECORDING_IDS = (1, 2)


@dataclass
class CourseGame:
    """A game read from a course recording: the players' names (first, second), the moves
    from the start, and the scores (first, second) of every recorded state, the start's
    included (so one more than the moves)."""

    names: Tuple[str, str]
    moves: List[str] = field(default_factory=list)
    scores: List[Tuple[int, int]] = field(default_factory=list)

    def position(self, ply: Optional[int] = None) -> Position:
        """The position after the first `ply` moves (all of them by default)."""
        return Position.from_moves(self.moves[:ply])


def game_of_states(states: Sequence[dict]) -> CourseGame:
    """The game of a recording's states (the JSON objects the course's master sends its
    listeners): each state one piece more than the one before, from the empty board, every
    score checked against the rules."""
    return _game_of_text(json.dumps(list(states) if isinstance(states, (list, tuple)) else states))


def read_recording(path) -> CourseGame:
    """The game of a course recording (`__REC__*.json`, written by `main_divercite.py -r`)."""
    with open(path, encoding="utf-8") as file:
        text = file.read()
    try:
        return _game_of_text(text)
    except CourseError as error:
        raise CourseError(f"{path}: {error}") from None


def _game_of_text(text: str) -> CourseGame:
    try:
        names, moves, scores = read_course_recording(text)
    except ValueError as error:
        raise CourseError(str(error)) from None
    return CourseGame(names=names, moves=moves, scores=scores)


def recording_states(moves: Sequence[str], names: Sequence[str] = DEFAULT_NAMES) -> List[dict]:
    """The states of a game from the start as the course's master sends them to its listeners
    (and its recorder writes them): the start and the state after each move. ValueError if a
    move is malformed or illegal."""
    return json.loads(_recording_text(moves, names))


def write_recording(moves: Sequence[str], path, names: Sequence[str] = DEFAULT_NAMES) -> None:
    """Writes the game of `moves` from the start as a course recording (a JSON array of its
    states), which the course's GUI replays ("Load JSON") and `read_recording` reads.
    ValueError if a move is illegal (nothing is written)."""
    text = _recording_text(moves, names)
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def _recording_text(moves: Sequence[str], names: Sequence[str]) -> str:
    first, second = names
    return write_course_recording(list(moves), first, second)
