"""How a game ended, in a student's words, from its record: "eram ran out of time on move 27
(it had 6 min 13 s left and used it all on that one move)", "crash on move 5:
ZeroDivisionError in my_player.py, line 9 (MyPlayer.compute_action): division by zero". The
runner's own reason, exact for engine authors, is kept beside it in the record. No Django
here: pure functions."""

from __future__ import annotations

from typing import Optional

from ...records import GameRecord
from ..wording import counted, duration


def clock_ms(tc_text: str) -> Optional[int]:
    """The base of a runner's `tc=BASE[+INC]` in ms; None for another time control."""
    if not tc_text.startswith("tc="):
        return None
    try:
        return int(float(tc_text[3:].split("+", 1)[0]) * 1000)
    except ValueError:
        return None


def _names(record: GameRecord):
    return (record.p1 or "first player", record.p2 or "second player")


def _detail(reason: str, name: str) -> str:
    """The runner's reason without the name it starts with ("NAME: ..." or "NAME ...")."""
    for prefix in (f"{name}: ", f"{name} "):
        if reason.startswith(prefix):
            return reason[len(prefix):]
    return reason


def in_words(record: GameRecord, details: bool = True) -> str:
    """How the game ended, for its page and a version's verdict: "" for a game played to its
    end (its scores say it). Without `details` (for others than the loser's team), a fault's
    what and where are left out: an agent's exception is its own code's."""
    termination = record.termination or "normal"
    moves = record.moves or []
    if termination == "normal":
        return ""
    if termination == "maxplies":
        return (f"check passed: the game was stopped after the first "
                f"{counted(len(moves) // 2, 'move')} of each side, with nothing wrong")
    if termination == "adjudication":
        return f"decided by the runner's exact solve: {record.reason}"
    if record.result not in ("1-0", "0-1"):
        return record.reason or termination
    loser = 0 if record.result == "0-1" else 1
    name = _names(record)[loser]
    ply = len(moves) + 1
    on_move = f"on move {ply}" if moves else "before its first move"
    reason = _detail(record.reason or "", name)
    if termination == "illegal" and reason.startswith("played "):
        reason = reason[len("played "):]  # "'XX99': move 'XX99' must be ..."
    if termination == "time":
        clock = clock_ms((record.tc or ["", ""])[loser])
        if clock is None:
            return f"{name} ran out of time {on_move} ({reason})"
        left = clock - sum((move.ms or 0) for move in moves[loser::2])
        return (f"{name} ran out of time {on_move} (it had {duration(max(left, 0))} left and "
                "used it all on that one move)")
    words = {"crash": "crashed", "illegal": "played an illegal move",
             "stall": "stopped answering", "limit": "went over a limit of its sandbox"}
    said = f"{name} {words.get(termination, termination)} {on_move}"
    return f"{said}: {reason}" if details else said
