"""Course recordings: the `__REC__*.json` files of `main_divercite.py -r`, read and written.

`read_recording(path)` reads one, checking every state against the rules (by the C++ reader,
tools/records/course_recording.h, which divercite-analyze reads them with too);
`write_recording(moves, path)` writes any game in that format, which the course's GUI replays
with its "Load JSON" button and the course's `GameStateDivercite.from_json` reads back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .. import notation
from .._core import Position, read_course_recording
from .states import PIECE_TYPES, CourseError

# What write_recording's players are called, and their ids (the course's GUI starts with
# these ids before a file is loaded).
DEFAULT_NAMES = notation.PLAYER_NAMES
RECORDING_IDS = (1, 2)
GRID = [notation.GRID, notation.GRID]


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
    (and its recorder writes them): the start and the state after each move."""
    players = [{"name": names[p], "id": RECORDING_IDS[p], "piece_type": PIECE_TYPES[p]}
               for p in (0, 1)]
    position = Position()
    states = []
    for k in range(len(moves) + 1):
        if k:
            position.play(moves[k - 1])
        left = position.pieces_left()
        states.append({
            "scores": {str(RECORDING_IDS[p]): position.scores[p] for p in (0, 1)},
            "next_player": players[0 if position.side_to_move == "w" else 1],
            "players": players,
            "rep": {"env": {str(cell): {"piece_type": piece,
                                        "owner_id": RECORDING_IDS[PIECE_TYPES.index(piece[2])]}
                            for cell, piece in sorted(position.board().items())},
                    "dim": list(GRID)},
            "max_step": notation.PLIES,
            "step": k,
            "players_pieces_left": {str(RECORDING_IDS[p]): left["wb"[p]] for p in (0, 1)},
        })
    return states


def write_recording(moves: Sequence[str], path, names: Sequence[str] = DEFAULT_NAMES) -> None:
    """Writes the game of `moves` from the start as a course recording (a JSON array of its
    states), which the course's GUI replays ("Load JSON") and `read_recording` reads.
    ValueError if a move is illegal (nothing is written)."""
    states = recording_states(moves, names)
    with open(path, "w") as file:
        json.dump(states, file)
