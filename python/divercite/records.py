"""The match runner's game records (`divercite-match -records`, one JSON line a game) and
`divercite-analyze --json` lines, read and written as dataclasses, and as rows for pandas.

    for record in divercite.records.read_records("v5.jsonl"):
        print(record.game, record.result, len(record.moves), record.positions()[-1].scores)
    rows = divercite.records.to_rows(divercite.records.read_records("v5.jsonl"))
    # pandas.DataFrame(rows): one row a move (game, ply, mover, engine, move, ms, score, ...)

The fields are the C++ writers' (tools/records/game_record.h, tools/review/
analysis_report.cc), under the same names; a field a line does not hold is None (and is not
written back), and a member no field knows is kept in `extra`, so that a line read and
written again gives the same JSON.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
from typing import Iterable, Iterator, Optional, Union

from ._core import START_FEN, Position

__all__ = ["GameRecord", "MoveRecord", "AnalysisRecord", "AnalysisMove", "AnalysisLine",
           "read_records", "read_analyses", "write_records", "to_rows"]


class _JsonObject:
    """from_json/to_json over a dataclass whose fields are the JSON members (plus `extra`).
    _NESTED: member -> the class of its object or of its list's objects. _KEEP_NULL: None
    is written as null (the analysis writes every member) rather than left out, but for the
    members of _OPTIONAL, which the writer leaves out when it has none."""

    _NESTED: dict = {}
    _KEEP_NULL = False
    _OPTIONAL: tuple = ()
    _REQUIRED: tuple = ()

    @classmethod
    def from_json(cls, data: Union[str, dict]):
        """From a JSON line or its dict; ValueError if it is not an object with the required
        members."""
        if isinstance(data, str):
            data = json.loads(data)
        if not isinstance(data, dict):
            raise ValueError(f"{cls.__name__}: expected a JSON object, got {type(data).__name__}")
        missing = [key for key in cls._REQUIRED if key not in data]
        if missing:
            raise ValueError(f"{cls.__name__}: no {', '.join(missing)}")
        names = {field.name for field in dataclasses.fields(cls)} - {"extra"}
        known, extra = {}, {}
        for key, value in data.items():
            if key not in names:
                extra[key] = value
                continue
            nested = cls._NESTED.get(key)
            if nested is not None and value is not None and not isinstance(value, (list, dict)):
                raise ValueError(f"{cls.__name__}: {key} is {type(value).__name__}, not a list "
                                 "or an object")
            if nested is not None and isinstance(value, list):
                value = [nested.from_json(item) for item in value]
            elif nested is not None and isinstance(value, dict):
                value = nested.from_json(value)
            known[key] = value
        return cls(**known, extra=extra)

    def to_dict(self) -> dict:
        """The JSON object as a dict, members in the C++ writer's order, then `extra`."""
        data = {}
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if field.name == "extra" or (value is None and (
                    not self._KEEP_NULL or field.name in self._OPTIONAL)):
                continue
            if isinstance(value, list):
                value = [item.to_dict() if isinstance(item, _JsonObject) else item
                         for item in value]
            elif isinstance(value, _JsonObject):
                value = value.to_dict()
            data[field.name] = value
        data.update(self.extra)
        return data

    def to_json(self) -> str:
        """One line of JSON, compact, as the C++ writers write it."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)


def _start_position(start: Optional[str]) -> Position:
    """The position a record's `start` names: "startpos" (or none), or "fen <rows> <side>"."""
    if not start or start == "startpos":
        return Position(START_FEN)
    if not start.startswith("fen "):
        raise ValueError(f"start {start!r}: expected startpos or fen <rows> <side>")
    return Position(start[4:])


@dataclasses.dataclass
class MoveRecord(_JsonObject):
    """One engine move of a game record: `ms` its time, `score` its last score
    (centipoints, the mover's view), `exact` that score is the exact final margin, `proven`
    the result it proved ("win", "draw", "loss"; the mover's view); with -cputime, `cpu` and
    `wait` the mover's processor time and its threads' wait for a core (ms)."""

    move: Optional[str] = None
    ms: Optional[int] = None
    score: Optional[int] = None
    exact: Optional[bool] = None
    proven: Optional[str] = None
    cpu: Optional[int] = None
    wait: Optional[int] = None
    extra: dict = dataclasses.field(default_factory=dict)

    _REQUIRED = ("move",)


@dataclasses.dataclass
class GameRecord(_JsonObject):
    """One game of `divercite-match -records`: p1 moves first; `opening` (moves separated by
    spaces) is played from `start` before the engines' `moves`; `result` is "1-0", "0-1" or
    "1/2-1/2"; `termination` normal, time, illegal, crash, stall, limit (a resource limit of
    the engine's sandbox), adjudication or maxplies (cut by -maxplies: a draw), and `reason`
    why (for limit, the limit's reason first); `engines` the engines' indices; `tc` their time
    controls; `final` the final scores; with -cputime, `cpu` and `wait` each engine's
    processor time and wait for a core over the game (ms, p1's first)."""

    game: int
    round: Optional[int] = None
    pair: Optional[int] = None
    p1: Optional[str] = None
    p2: Optional[str] = None
    result: Optional[str] = None
    termination: Optional[str] = None
    reason: Optional[str] = None
    start: Optional[str] = None
    opening: Optional[str] = None
    engines: Optional[list] = None
    tc: Optional[list] = None
    moves: Optional[list] = None
    final: Optional[list] = None
    cpu: Optional[list] = None
    wait: Optional[list] = None
    extra: dict = dataclasses.field(default_factory=dict)

    _NESTED = {"moves": MoveRecord}
    _REQUIRED = ("game", "result", "p1", "p2")

    def opening_moves(self) -> list:
        return (self.opening or "").split()

    def positions(self) -> list:
        """The positions of the game, from `start` through the opening and every move:
        len(opening) + len(moves) + 1 of them. ValueError names a move that does not play."""
        position = _start_position(self.start)
        positions = [position.copy()]
        for ply, move in enumerate(self.opening_moves() + [m.move for m in self.moves or []]):
            try:
                position.play(move)
            except (ValueError, TypeError) as error:
                raise ValueError(f"game {self.game}, ply {ply}: {error}") from None
            positions.append(position.copy())
        return positions


@dataclasses.dataclass
class AnalysisLine(_JsonObject):
    """One of the engine's best lines in the position before a move (`divercite-analyze
    --multipv N`): its first `move`, `value` (centipoints, the mover's view), `bound`
    ("lower", "upper" or None), `exact`, `proven` ("win", "draw", "loss" or None) and `pv`."""

    move: Optional[str] = None
    value: Optional[int] = None
    bound: Optional[str] = None
    exact: Optional[bool] = None
    proven: Optional[str] = None
    pv: Optional[list] = None
    extra: dict = dataclasses.field(default_factory=dict)

    _KEEP_NULL = True


@dataclasses.dataclass
class AnalysisMove(_JsonObject):
    """One move of `divercite-analyze --json`: values in centipoints from the mover's view
    (`value` the position's, `played` the move's, `loss` the difference), `best` the
    engine's move ("-" if none), `proven_before`/`proven_after` the mover's proven result;
    `lines` the engine's best lines (AnalysisLine, best first) with --multipv above 1, else
    None."""

    ply: Optional[int] = None
    side: Optional[str] = None
    move: Optional[str] = None
    best: Optional[str] = None
    value: Optional[int] = None
    played: Optional[int] = None
    loss: Optional[int] = None
    exact: Optional[bool] = None
    opening: Optional[bool] = None
    proven_before: Optional[str] = None
    proven_after: Optional[str] = None
    result_changing: Optional[bool] = None
    lines: Optional[list] = None
    extra: dict = dataclasses.field(default_factory=dict)

    _NESTED = {"lines": AnalysisLine}
    _KEEP_NULL = True
    _OPTIONAL = ("lines",)


@dataclasses.dataclass
class AnalysisRecord(_JsonObject):
    """One game of `divercite-analyze --json`: `settings` and `summary` as the writer's
    dicts (`summary["p1"]["result_changing"]`, `summary["proven_ply"]`, ...)."""

    game: Optional[int] = None
    p1: Optional[str] = None
    p2: Optional[str] = None
    start: Optional[str] = None
    result: Optional[str] = None
    final: Optional[list] = None
    settings: Optional[dict] = None
    moves: Optional[list] = None
    summary: Optional[dict] = None
    extra: dict = dataclasses.field(default_factory=dict)

    _NESTED = {"moves": AnalysisMove}
    _KEEP_NULL = True
    _REQUIRED = ("moves",)


def _read(source, cls) -> Iterator:
    if isinstance(source, (str, os.PathLike)):
        # The runner writes valid UTF-8; a file that is not (an older runner's, where an
        # engine's bytes reached a reason) is read with U+FFFD for each bad byte sequence.
        with open(source, encoding="utf-8", errors="replace") as file:
            yield from _read(file, cls)
        return
    name = getattr(source, "name", "<stream>")
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            yield cls.from_json(line)
        except (ValueError, TypeError) as error:
            raise ValueError(f"{name}:{number}: {error}") from None


def read_records(source: Union[str, os.PathLike, io.TextIOBase]) -> Iterator[GameRecord]:
    """The GameRecords of a records file (a path or an open text file), in order; blank
    lines skipped; a malformed line raises ValueError naming the file and the line. A path's
    bytes that are not UTF-8 are read as U+FFFD."""
    return _read(source, GameRecord)


def read_analyses(source: Union[str, os.PathLike, io.TextIOBase]) -> Iterator[AnalysisRecord]:
    """The AnalysisRecords of `divercite-analyze --json` output, as read_records reads."""
    return _read(source, AnalysisRecord)


def write_records(records: Iterable, destination: Union[str, os.PathLike, io.TextIOBase],
                  append: bool = False) -> None:
    """Writes records (GameRecord or AnalysisRecord) one JSON line each."""
    if isinstance(destination, (str, os.PathLike)):
        with open(destination, "a" if append else "w", encoding="utf-8") as file:
            write_records(records, file)
        return
    for record in records:
        destination.write(record.to_json() + "\n")


def to_rows(records: Iterable) -> list:
    """One dict a move, ready for pandas.DataFrame: for GameRecords `game`, `round`, `ply`
    (counting the opening; p1 moves on even plies), `mover` ("p1"/"p2"), `engine` (its
    name), `move`, `ms`, `score`, `exact`, `proven`, `result`, `termination`; for
    AnalysisRecords the game, the mover's name and each member of its moves."""
    rows = []
    for record in records:
        if isinstance(record, AnalysisRecord):
            for move in record.moves or []:
                name = record.p1 if move.side == "p1" else record.p2
                rows.append({"game": record.game, "engine": name, **move.to_dict()})
            continue
        first = len(record.opening_moves())
        for index, move in enumerate(record.moves or []):
            ply = first + index
            mover = "p1" if ply % 2 == 0 else "p2"
            rows.append({"game": record.game, "round": record.round, "ply": ply,
                         "mover": mover, "engine": record.p1 if mover == "p1" else record.p2,
                         "move": move.move, "ms": move.ms, "score": move.score,
                         "exact": move.exact, "proven": move.proven, "result": record.result,
                         "termination": record.termination})
    return rows
