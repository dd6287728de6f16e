"""Course states and actions read as positions and moves (the compiled rules check them).

`position_from_course_state(state)` (also `divercite.Position.from_course_state`) reads a
course `GameStateDivercite`; `action(move)` is the course's `LightAction` for a move string and
`move_of(action)` the move string of a `LightAction` or `HeavyAction`. The course's code is
imported only by `action` (its `LightAction`), from wherever `seahorse` lies on `sys.path`, as
it does in an agent that the course's master runs.
"""

from __future__ import annotations

from typing import Dict, Optional

from .. import notation
from .._core import Position

# The course's piece type of the first and second player (main_divercite.py creates the first
# player with "W"), and the side to move of a position string.
PIECE_TYPES = ("W", "B")
SIDES = dict(zip(PIECE_TYPES, notation.SIDES))


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


def _every_move() -> Dict[str, None]:
    # From the start every well-formed move is legal: the 164 of them.
    return dict.fromkeys(Position().legal_moves())


_EVERY_MOVE = _every_move()
