"""What an agent answers, read as the course's master reads it.

Runs in the agent's process: the move of a LightAction or HeavyAction, the check that a
HeavyAction is one the course's master would accept, and the master's serialisation of the
player after every move.
"""

import json
import operator
import os
import traceback


class AgentError(Exception):
    """What an agent did wrong on one move; it costs the move, not the bridge."""


class AgentCrash(AgentError):
    """The agent's own code raised (its constructor, or compute_action): the message says
    which exception, in which of its files and on which line. The bridge says it as `info
    string crash: ...`, which loses the game by a crash, not by an illegal move."""


def crash_text(exception, where, agent_dir):
    """`exception`'s type, the innermost line of the agent's own files it came through and
    its message, in the words a student reads first: "ZeroDivisionError in my_player.py, line
    9 (MyPlayer.compute_action): division by zero". The file is named within the agent's
    folder, never by the machine's path."""
    located = ""
    root = os.path.realpath(agent_dir)
    for frame in reversed(traceback.extract_tb(exception.__traceback__)):
        path = os.path.realpath(frame.filename)
        try:
            inside = os.path.commonpath([root, path]) == root
        except ValueError:  # another drive (Windows)
            inside = False
        if inside:
            located = f" in {os.path.relpath(path, root)}, line {frame.lineno}"
            break
    message = str(exception)
    return (f"{type(exception).__name__}{located} ({where})" +
            (f": {message}" if message else ""))


class LimitHit(AgentError):
    """A limit of the agent's sandbox (memory, processes) ended its move; the message starts
    with the limit's reason. The bridge says it as `info string limit: ...`."""


def action_move(action, course):
    """The 4-character move of the agent's action (LightAction or HeavyAction)."""
    if isinstance(action, course.LightAction):
        data = action.data if isinstance(action.data, dict) else {}
        piece, position = data.get("piece"), data.get("position")
        if position is not None and not isinstance(position, tuple):
            # The course's apply_action uses the position as a dict key: a list crashes it.
            raise AgentError(f"returned a LightAction whose position {position!r} is a "
                             f"{type(position).__name__}, not the tuple (row, col) the course "
                             "needs")
        try:
            # numpy integers are fine: the course hashes them as ints.
            row, column = (operator.index(x) for x in position)
        except (TypeError, ValueError):
            row = column = None
        if not isinstance(piece, str) or row is None:
            raise AgentError(f"returned a LightAction whose data {action.data!r} is not "
                             "{'piece': <colour><kind>, 'position': (row, col)}")
        return f"{piece}{row}{column}"
    if isinstance(action, course.HeavyAction):
        before = action.get_current_game_state().get_rep().get_env()
        after = action.get_next_game_state().get_rep().get_env()
        placed = [cell for cell, piece in after.items() if before.get(cell) != piece]
        removed = [cell for cell in before if cell not in after]
        if len(placed) != 1 or removed:
            raise AgentError(f"returned a HeavyAction whose boards differ in "
                             f"{len(placed) + len(removed)} cells, not in the one cell of a move")
        cell = placed[0]
        return f"{after[cell].get_type()[:2]}{cell[0]}{cell[1]}"
    if action is None:
        raise AgentError("returned None")
    raise AgentError(f"returned a {type(action).__name__}, not an action ({action!r:.80})")


def check_heavy_action(action, state, move, course):
    """The course's master accepts a HeavyAction only if it equals (by hash: both states'
    scores and boards) one it generates itself; so must we."""
    expected = course.HeavyAction(state, state.apply_action(course.light_action(move)))
    if hash(action) != hash(expected):
        raise AgentError(f"returned a HeavyAction to {move} that is not the course's: its "
                         "current or next state (scores, board or pieces' owners) differs "
                         "from the state it was given and the move")


def master_serialisation_problem(player):
    """Why the course's master would crash serialising `player` after a move (None if it
    would not): it sends every state to its listeners with
    json.dumps(state.to_json(), default=lambda x: x.to_json()), and a player's to_json holds
    all its attributes whose names do not start with '_'."""
    def encode(value):
        return value.to_json()

    try:
        json.dumps(player.to_json(), default=encode)
        return None
    except Exception as whole:  # whatever json or a to_json raises, as in the master
        for name, value in player.to_json().items():
            try:
                json.dumps(value, default=encode)
            except Exception as exception:
                return (f"attribute '{name}' (a {type(value).__name__}): "
                        f"{type(exception).__name__}: {exception}")
        return f"{type(whole).__name__}: {whole}"
