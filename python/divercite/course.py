"""The INF8175 course's framework (seahorse) and `divercite`, both ways.

A student's agent can search with the fast rules and answer the course's master:

    import divercite
    from divercite import course

    class MyPlayer(PlayerDivercite):
        def compute_action(self, current_state, remaining_time=1e9, **kwargs):
            position = divercite.Position.from_course_state(current_state)
            return course.action(my_search(position))  # my_search: a move string

`position_from_course_state(state)` (also `Position.from_course_state`) reads a
`GameStateDivercite`; `action(move)` is the course's `LightAction` for a move string and
`move_of(action)` the move string of a `LightAction` or `HeavyAction`. `read_recording(path)`
reads the `__REC__*.json` file that `main_divercite.py -r` writes, and `write_recording(moves,
path)` writes any game in that format, which the course's GUI replays with its "Load JSON"
button and the course's `GameStateDivercite.from_json` reads back.

The course's code is imported only by `action` (its `LightAction`), from wherever `seahorse`
lies on `sys.path`, as it does in an agent that the course's master runs.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

from ._core import Position

# The course's piece type of the first and second player (main_divercite.py creates the first
# player with "W"), and the side to move of a position string.
PIECE_TYPES = ("W", "B")
SIDES = {"W": "w", "B": "b"}
# What write_recording's players are called, and their ids (the course's GUI starts with
# these ids before a file is loaded).
DEFAULT_NAMES = ("first", "second")
RECORDING_IDS = (1, 2)
GRID = [9, 9]
MAX_STEP = 40


class CourseError(ValueError):
    """A course state, action or recording that the rules cannot read; the message says why."""


# -- states

def _piece_type(player) -> Optional[str]:
    # In the course's remote modes a player is a proxy that forwards attribute reads.
    return getattr(player, "piece_type", None)


def position_from_course_state(state) -> Position:
    """The `Position` of a course `GameStateDivercite`: its board, the side to move.

    The course's score is a function of the board (its last-move tie-break too), so the
    position is exact; its scores, pieces left and side to move are checked against the
    state's, and CourseError says which differs (a state built by hand, or another game).
    """
    try:
        env = state.get_rep().get_env()
        board = {tuple(cell): piece.get_type() for cell, piece in env.items()}
    except AttributeError as error:
        raise CourseError(f"not a course GameStateDivercite: {error}") from None
    try:
        position = Position.from_board(board)
    except ValueError as error:
        raise CourseError(f"course state: {error}") from None
    side = SIDES.get(_piece_type(state.get_next_player()))
    if side is not None and side != position.side_to_move:
        raise CourseError(f"course state: the {'first' if side == 'w' else 'second'} player "
                          f"is to move, but {position.ply} pieces on the board make it the "
                          "other's turn")
    by_side = {SIDES.get(_piece_type(player)): player.get_id() for player in state.get_players()}
    if set(by_side) == {"w", "b"}:
        scores = tuple(state.get_scores()[by_side[s]] for s in "wb")
        if scores != position.scores:
            raise CourseError(f"course state: scores {scores} (first, second), but its board "
                              f"scores {position.scores}")
        left = getattr(state, "players_pieces_left", None)
        if left is not None:
            mine = position.pieces_left()
            for s in "wb":
                if dict(left[by_side[s]]) != mine[s]:
                    raise CourseError(f"course state: the {'first' if s == 'w' else 'second'}"
                                      f" player's pieces left {dict(left[by_side[s]])}, but its "
                                      f"board leaves {mine[s]}")
    return position


# -- actions

def _check_move(move: str) -> None:
    """Raises CourseError with the rules' reason if `move` is not a move string."""
    if not isinstance(move, str):
        raise TypeError(f"a move must be a str, not {type(move).__name__}")
    if move not in _EVERY_MOVE:
        try:
            Position().play(move)
        except ValueError as error:
            raise CourseError(str(error)) from None


def action(move: str, state=None):
    """The course's `LightAction` of a move string (`"RC14"` -> `{"piece": "RC", "position":
    (1, 4)}`), what `compute_action` returns to the course's master. Given the course `state`
    the move is for, CourseError unless it is legal there."""
    _check_move(move)
    if state is not None:
        try:
            position_from_course_state(state).play(move)
        except CourseError:
            raise
        except ValueError as error:  # the rules' reason
            raise CourseError(f"not a legal move in the course state: {error}") from None
    try:
        from seahorse.game.light_action import LightAction
    except ImportError:
        raise ImportError("divercite.course.action needs the course's seahorse on sys.path "
                          "(as it is in an agent that the course's master runs)") from None
    return LightAction({"piece": move[:2], "position": (int(move[2]), int(move[3]))})


def move_of(action) -> str:
    """The move string of a course action: a `LightAction` (`{"piece", "position"}`) or a
    `HeavyAction` (the one cell its two states' boards differ in)."""
    data = getattr(action, "data", None)
    if isinstance(data, dict):
        piece, cell = data.get("piece"), data.get("position")
        try:
            move = f"{piece}{int(cell[0])}{int(cell[1])}"
        except (TypeError, ValueError, IndexError):
            raise CourseError(f"a LightAction of {data!r}, not {{'piece': 'RC', 'position': "
                              "(row, col)}") from None
        _check_move(move)
        return move
    if hasattr(action, "get_next_game_state") and hasattr(action, "get_current_game_state"):
        before = action.get_current_game_state().get_rep().get_env()
        after = action.get_next_game_state().get_rep().get_env()
        placed = [cell for cell, piece in after.items() if before.get(cell) != piece]
        if len(placed) != 1 or any(cell not in after for cell in before):
            raise CourseError("a HeavyAction whose boards do not differ by one placed piece")
        cell = placed[0]
        return f"{after[cell].get_type()[:2]}{cell[0]}{cell[1]}"
    raise CourseError(f"not a course action: {action!r:.80}")


# -- recordings

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
            "max_step": MAX_STEP,
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


def _every_move() -> Dict[str, None]:
    # From the start every well-formed move is legal: the 164 of them.
    return dict.fromkeys(Position().legal_moves())


_EVERY_MOVE = _every_move()
