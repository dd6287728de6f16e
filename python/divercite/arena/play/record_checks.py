"""What a game's record must be before the arena keeps it, and what a kept one must be before
the standings read it (issue 55). A record comes from a worker's machine: it is that machine's
word only, and one bad line stops `divercite-match -ratings`, which every page's standings and
every matchmade claim wait on. No Django here: pure functions over a record and what the arena
knows of its game.

    check_record(record, names, clocks, max_plies)
                                           before a record is kept (worker_api's result,
                                           worker.play): the game replayed with the rules
    check_stored(text, result, names, scores)
                                           before the standings read a kept one: the cheap
                                           checks only (no replay: 10,000 games are read)

Both raise RecordRefused (a ValueError) whose text says why, in words a teacher can act on.

A record holds what the match runner writes for one game of the arena (tools/records/
game_record.h, tools/match/game_runner.cc): the players' names, their clocks as `tc=SECONDS`,
the engines' moves from the start position, the final scores (the rules' own, the last-move
tie-break of ../shared/RULES.md included: equal final scores are a draw), and how it ended:
`normal` once the board is full, the result the scores'; `maxplies` for a check game cut after
its first moves (runner.CHECK_PLIES), a draw; else a loss for the side at fault, `time`,
`illegal`, `crash`, `stall` or `limit`, with the runner's reason. Each move's `cpu` and `wait`
and the game's per side (-cputime) are the worker's measure of how much of a core each agent
had: fairness.py reads them. The side at fault is
the side whose move the runner was waiting for, but for a failure at the start, before any
move, where each engine is started and either may crash, stall or hit a limit."""

from __future__ import annotations

import json
import math
from typing import Optional, Sequence

from ...records import GameRecord

RESULTS = ("1-0", "0-1", "1/2-1/2")
# The runner's terminations (tools/records/game_record.cc), all readable by -ratings.
TERMINATIONS = ("normal", "time", "illegal", "crash", "stall", "limit", "adjudication",
                "maxplies")
# How an engine fails while the runner starts it, before the first move (EnsureStarted,
# NewGame): either side may, whoever is to move.
STARTING_FAULTS = ("crash", "stall", "limit")
PROVEN = ("win", "draw", "loss")
# The members the runner writes (GameRecord::ToJson), each with a value, never null.
RECORD_MEMBERS = ("game", "round", "pair", "p1", "p2", "result", "termination", "reason",
                  "start", "opening", "engines", "tc", "moves", "final")
INT_RANGE = (-(1 << 31), (1 << 31) - 1)  # the C++ reader's int
INT64_RANGE = (-(1 << 63), (1 << 63) - 1)


class RecordRefused(ValueError):
    """A record the arena does not keep (or, kept, does not count): the text says why."""


def _integer(value, bounds=INT_RANGE) -> bool:
    """Whether the C++ reader takes `value` as an integer: a JSON integer, or a number
    without a fraction, within bounds (a boolean is neither)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return False
    return bounds[0] <= value <= bounds[1]


def _pair(data: dict, key: str, is_one) -> None:
    value = data.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(map(is_one, value))):
        raise RecordRefused(f"its {key!r} is {json.dumps(value)[:80]}: the runner writes two "
                            f"{'integers' if key != 'tc' else 'texts'} there")


def _move_structure(index: int, move) -> None:
    if not isinstance(move, dict):
        raise RecordRefused(f"its move {index + 1} is not a JSON object")
    kinds = {"move": lambda v: isinstance(v, str),
             "ms": lambda v: _integer(v, INT64_RANGE),
             "score": _integer,
             "exact": lambda v: isinstance(v, bool),
             "proven": lambda v: v in PROVEN,
             "cpu": lambda v: _integer(v, (0, INT64_RANGE[1])),
             "wait": lambda v: _integer(v, (0, INT64_RANGE[1]))}
    if "move" not in move:
        raise RecordRefused(f"its move {index + 1} has no 'move'")
    for key, is_one in kinds.items():
        if key in move and not is_one(move[key]):
            raise RecordRefused(f"its move {index + 1} has {key!r} "
                                f"{json.dumps(move[key])[:40]}, not what the runner writes")


def check_structure(data) -> None:
    """The record's JSON object as the runner's own reader (GameRecord::FromJson, which
    -ratings and divercite-analyze read with) takes it: the required members, each member of
    its type, the result and the termination among the runner's, text that UTF-8 can write
    and no number JSON cannot hold. RecordRefused otherwise."""
    if not isinstance(data, dict):
        raise RecordRefused(f"the record is {type(data).__name__}, not a JSON object")
    try:
        json.dumps(data, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except ValueError as bad:  # NaN or infinity; a lone surrogate (UnicodeEncodeError)
        raise RecordRefused(f"the record holds what JSON in UTF-8 cannot: {bad}") from None
    for key in ("game", "result", "p1", "p2"):
        if key not in data:
            raise RecordRefused(f"the record has no {key!r}")
    for key, value in data.items():
        if value is None and key in RECORD_MEMBERS:
            raise RecordRefused(f"its {key!r} is null: the runner writes a value there")
    if data["result"] not in RESULTS:
        raise RecordRefused(f"its result {json.dumps(data['result'])[:40]} is none of "
                            f"{', '.join(RESULTS)}")
    if "termination" in data and data["termination"] not in TERMINATIONS:
        raise RecordRefused(f"its termination {json.dumps(data['termination'])[:40]} is none "
                            f"of the runner's ({', '.join(TERMINATIONS)})")
    for key in ("game", "round", "pair"):
        if key in data and not _integer(data[key]):
            raise RecordRefused(f"its {key!r} is {json.dumps(data[key])[:40]}, not an integer")
    for key in ("p1", "p2", "reason", "start", "opening"):
        if key in data and not isinstance(data[key], str):
            raise RecordRefused(f"its {key!r} is {json.dumps(data[key])[:40]}, not a text")
    for key, is_one in (("engines", _integer), ("tc", lambda v: isinstance(v, str)),
                        ("final", _integer), ("cpu", lambda v: _integer(v, (0, INT64_RANGE[1]))),
                        ("wait", lambda v: _integer(v, (0, INT64_RANGE[1])))):
        if key in data:
            _pair(data, key, is_one)
    if "moves" in data:
        if not isinstance(data["moves"], list):
            raise RecordRefused("its 'moves' is not a list")
        for index, move in enumerate(data["moves"]):
            _move_structure(index, move)


def check_stored(text: str, result: Optional[str], names: Sequence[str],
                 scores: Sequence[Optional[int]]) -> None:
    """A kept record (the game row's text) that the standings may read: check_structure's
    checks, and its result, players and final scores those of its row (`result`, the
    versions' entries' `names`, `scores` the row's score1 and score2). RecordRefused
    otherwise."""
    if result not in RESULTS:
        raise RecordRefused(f"the game's result {json.dumps(result)} is none of "
                            f"{', '.join(RESULTS)}")
    try:
        data = json.loads(text)
    except ValueError as bad:
        raise RecordRefused(f"the record is not JSON: {bad}") from None
    check_structure(data)
    if data["result"] != result:
        raise RecordRefused(f"the record's result {data['result']} is not the game's "
                            f"({result})")
    if [data["p1"], data["p2"]] != list(names):
        raise RecordRefused(f"the record's players {data['p1']} - {data['p2']} are not the "
                            f"game's ({' - '.join(names)})")
    final = data.get("final")
    if final is not None and list(final) != list(scores):
        raise RecordRefused(f"the record's final scores {final} are not the game's "
                            f"{list(scores)}")


def check_record(record: GameRecord, names: Sequence[str], clocks: Sequence[str],
                 max_plies: int = 0) -> None:
    """The record of the game between `names` (the first player's first) at `clocks` (the
    runner's `tc` texts, house.Seat.clock_text of each seat), cut after `max_plies` moves if
    not 0 (a
    check), checked whole: nothing in it but what the runner writes, its moves replayed with
    the rules, its end one the runner could have written (see the module's docstring).
    RecordRefused with the first problem found."""
    check_structure(record.to_dict())
    unknown = sorted(set(record.extra).union(
        *(move.extra for move in record.moves or [])))
    if unknown:
        raise RecordRefused(f"the record holds members the runner does not write: "
                            f"{', '.join(unknown)[:200]}")
    if [record.p1, record.p2] != list(names):
        raise RecordRefused(f"the game is {names[0]} - {names[1]}, the record's "
                            f"{record.p1} - {record.p2}")
    if record.tc != list(clocks):
        raise RecordRefused(f"the game's clocks are {' and '.join(clocks)}, the record's "
                            f"{json.dumps(record.tc)}")
    if record.start not in (None, "startpos") or (record.opening or "").strip():
        raise RecordRefused("the arena's games start from the start position with no "
                            f"opening; the record's starts at {record.start!r} after "
                            f"{record.opening!r}")
    termination = record.termination or "normal"
    if termination == "adjudication":
        raise RecordRefused("the arena does not ask the runner to adjudicate (no "
                            "-adjudicate): an adjudicated record is not one of its games")
    try:
        end = record.positions()[-1]
    except (ValueError, TypeError) as bad:
        raise RecordRefused(f"a move does not play: {bad}") from None
    if record.final is None:
        raise RecordRefused("the record has no final scores")
    if list(record.final) != list(end.scores):
        raise RecordRefused(f"its final scores {record.final} are not those of its moves, "
                            f"{list(end.scores)}")
    plies = len(record.moves or [])
    if termination == "maxplies":
        if not max_plies:
            raise RecordRefused("the arena cuts only a new version's check game (-maxplies); "
                                "this game is played to its end")
        if plies != max_plies or end.is_over() or record.result != "1/2-1/2":
            raise RecordRefused(f"a check game is cut after {_moves(max_plies)}, a draw; the "
                                f"record's is cut after {_moves(plies)}, {record.result}")
        return
    # A check played on (a worker from before -maxplies) is a longer check, and kept.
    if termination == "normal":
        if not end.is_over():
            raise RecordRefused(f"a normal end after {_moves(plies)}: the game ends only once "
                                "the board is full (40 moves)")
        if record.result != end.result():
            raise RecordRefused(f"its result {record.result} is not that of the final "
                                f"scores {record.final} ({end.result()})")
        return
    _check_fault(record, termination, plies, end)


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _check_fault(record: GameRecord, termination: str, plies: int, end) -> None:
    """A game lost by a side's fault: the loser the side the runner waited for."""
    if record.result not in ("1-0", "0-1"):
        raise RecordRefused(f"a game ended by {termination} is lost by the side at fault, "
                            f"not {record.result}")
    if not (record.reason or "").strip():
        raise RecordRefused(f"a game ended by {termination} carries the runner's reason; "
                            "the record's is empty")
    if end.is_over():
        raise RecordRefused(f"the board is full after its {_moves(plies)}: the game ended "
                            f"normally, not by {termination}")
    at_fault = 0 if record.result == "0-1" else 1
    to_move = 0 if end.side_to_move == "w" else 1
    starting = plies == 0 and termination in STARTING_FAULTS
    if at_fault != to_move and not starting:
        names = (record.p1, record.p2)
        raise RecordRefused(f"after its {_moves(plies)} {names[to_move]} is to move, yet the "
                            f"record blames {names[at_fault]} ({termination}, "
                            f"{record.result}): only the side to move can fail then")
