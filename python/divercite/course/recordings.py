"""Course recordings: the `__REC__*.json` files of `main_divercite.py -r`, read and written.

`read_recording(path)` reads one, checking every state against the rules; `write_recording(
moves, path)` writes any game in that format, which the course's GUI replays with its "Load
JSON" button and the course's `GameStateDivercite.from_json` reads back.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from .. import notation
from .._core import Position
from .states import PIECE_TYPES, SIDES, CourseError

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


def _cell_of_key(key: str) -> Tuple[int, int]:
    # The course writes its board's keys with str((row, col)): "(4, 4)".
    try:
        cell = ast.literal_eval(key)
        return int(cell[0]), int(cell[1])
    except (ValueError, SyntaxError, TypeError, IndexError):
        raise CourseError(f"board key {key!r} is not '(row, col)'") from None


def game_of_states(states: Sequence[dict]) -> CourseGame:
    """The game of a recording's states (the JSON objects the course's master sends its
    listeners): each state one piece more than the one before, from the empty board, every
    score checked against the rules."""
    if not states:
        raise CourseError("a course recording is a non-empty JSON array of game states")
    players = states[0].get("players") or []
    side_of_id = {str(p.get("id")): SIDES.get(p.get("piece_type")) for p in players}
    names = {SIDES.get(p.get("piece_type")): p.get("name") for p in players}
    if sorted(filter(None, side_of_id.values())) != ["b", "w"]:
        raise CourseError("state 0: expected two players with ids and piece types W and B")
    game = CourseGame(names=(names["w"], names["b"]))
    position, board = Position(), {}
    for k, state in enumerate(states):
        env = (state.get("rep") or {}).get("env")
        if not isinstance(env, dict):
            raise CourseError(f"state {k}: no board ('rep' with 'env')")
        now = {_cell_of_key(key): piece.get("piece_type") for key, piece in env.items()}
        added = [cell for cell in now if cell not in board]
        if any(now.get(cell) != piece for cell, piece in board.items()):
            raise CourseError(f"state {k}: a piece changed or disappeared")
        if len(added) != (0 if k == 0 else 1):
            raise CourseError(f"state {k}: {len(added)} pieces appeared, expected "
                              f"{0 if k == 0 else 1}")
        for cell in added:
            piece = now[cell]
            move = f"{str(piece)[:2]}{cell[0]}{cell[1]}"
            if SIDES.get(str(piece)[2:]) != position.side_to_move:
                raise CourseError(f"state {k}: {move} played by the player not to move")
            try:
                position.play(move)
            except ValueError as error:
                raise CourseError(f"state {k}: {error}") from None
            game.moves.append(move)
        board = now
        recorded = {side_of_id.get(i): v for i, v in (state.get("scores") or {}).items()}
        scores = (recorded.get("w"), recorded.get("b"))
        if scores != position.scores:
            raise CourseError(f"state {k}: the recording's scores {scores}, the rules' "
                              f"{position.scores}")
        game.scores.append(position.scores)
    return game


def read_recording(path) -> CourseGame:
    """The game of a course recording (`__REC__*.json`, written by `main_divercite.py -r`)."""
    with open(path) as file:
        try:
            states = json.load(file)
        except json.JSONDecodeError as error:
            raise CourseError(f"{path}: {error}") from None
    try:
        return game_of_states(states if isinstance(states, list) else [])
    except CourseError as error:
        raise CourseError(f"{path}: {error}") from None


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
