"""Matches and round robins from Python, played by the match runner `divercite-match`.

    from divercite import match
    result = match.run([match.Player("divercite", name="engine", st=0.05),
                        match.Player("divercite", name="greedy", options={"Agent": "greedy"})],
                       games=2, openings="random plies=2", seed=8175)
    for game in result.records:           # divercite.records.GameRecord, one per game
        print(game.p1, game.p2, game.result)
    for standing in result.standings:     # Bradley-Terry Elo, points, ms per move
        print(standing.name, standing.points, round(standing.elo))

The runner does the work (clocks, openings, colours, adjudication, crashes, its records and
report); this module builds its command line, runs it, and reads back what it wrote: the
records (its -records file) and the standings (`divercite-match -ratings`). A player's
program is `divercite` by default, found as the runner is: beside this package (a pip or
cmake install, a build tree), then DIVERCITE_ENGINE (DIVERCITE_MATCH for the runner), then
PATH.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import List, Mapping, Optional, Sequence, Union

from . import programs
from ._protocol import option_text
from .records import GameRecord, read_records

__all__ = ["Player", "Standing", "MatchResult", "MatchError", "MatchStopped", "run", "ratings",
           "runner"]

PathLike = Union[str, os.PathLike]


class MatchError(RuntimeError):
    """The runner refused the match or failed; the message ends with what it printed."""


class MatchStopped(MatchError):
    """The match was stopped by its caller (run's `stop`): the runner was killed; the
    records file keeps the games it had finished."""


@dataclasses.dataclass
class Player:
    """One engine of the match: `-engine cmd=... name=... arg=... option.X=V <limit>`.

    `cmd` is a program's path or name (`divercite`, the default, is found as `runner()` is);
    `args` its arguments; `options` the protocol options set before each game (checked by the
    runner against those the engine lists). The limit is one of `tc` (a clock, seconds:
    "10+0.1", 900, or "inf": the engine's own schedule), `st` (seconds a move), `depth`,
    `nodes`; none is `tc=inf`."""

    cmd: PathLike = "divercite"
    name: Optional[str] = None
    args: Sequence[str] = ()
    options: Mapping[str, object] = dataclasses.field(default_factory=dict)
    tc: Union[str, float, None] = None
    st: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def arguments(self) -> List[str]:
        """The words of this player's `-engine` flag, after it."""
        limits = {key: value for key, value in (("tc", self.tc), ("st", self.st),
                                                ("depth", self.depth), ("nodes", self.nodes))
                  if value is not None}
        if len(limits) > 1:
            raise ValueError(f"player {self.name or self.cmd}: one limit of tc, st, depth and "
                             f"nodes, not {', '.join(limits)}")
        cmd = os.fspath(self.cmd)
        if cmd == "divercite":
            cmd = programs.find("divercite", "DIVERCITE_ENGINE")
        words = [f"cmd={cmd}"]
        if self.name is not None:
            words.append(f"name={self.name}")
        words += [f"arg={argument}" for argument in self.args]
        words += [f"option.{key}={option_text(value)}" for key, value in self.options.items()]
        key, value = next(iter(limits.items()), ("tc", "inf"))
        return words + [f"{key}={value}"]


@dataclasses.dataclass
class Standing:
    """One engine's line of the standings (`divercite-match -ratings`): its Bradley-Terry
    Elo over all its games with the half-width of its 95 % interval (None when unbounded),
    its points, games, score (points per game) and mean ms a move."""

    name: str
    elo: float
    points: float
    games: int
    score: float
    ms_per_move: Optional[float] = None
    elo_interval: Optional[float] = None


@dataclasses.dataclass
class MatchResult:
    """What a match left: every finished game's record (those of earlier runs of the same
    records file too: the runner resumes), the standings over them, the runner's text, and
    the records file (None for a temporary one, deleted)."""

    records: List[GameRecord]
    standings: List[Standing]
    records_path: Optional[Path]
    output: str


def runner() -> str:
    """The match runner `divercite-match` (see programs.find)."""
    return programs.find("divercite-match", "DIVERCITE_MATCH")


class OutputTail:
    """The end of a stream, in bounded memory: its last `limit` bytes, and how many lines
    came before them. A child's output is another program's (the runner relays every
    engine's stderr, and an agent may write gigabytes or bytes that are not UTF-8), so it is
    never held whole: `lines()` are the last lines, decoded with errors="replace", each cut to
    `line_limit` characters, after "... (N more lines)" when some were left out; `text()` is
    the whole when it fits in `limit` bytes, else those lines."""

    def __init__(self, limit: int, line_limit: int = 2000):
        self.limit = limit
        self.line_limit = line_limit
        self.kept = bytearray()
        self.size = 0  # bytes seen
        self.newlines = 0

    def add(self, chunk: bytes) -> None:
        self.size += len(chunk)
        self.newlines += chunk.count(b"\n")
        self.kept += chunk[-self.limit:]
        if len(self.kept) > 2 * self.limit:
            del self.kept[:-self.limit]

    def read_from(self, stream) -> None:
        """Reads `stream` (a binary file) to its end."""
        while True:
            chunk = stream.read1(1 << 16)
            if not chunk:
                return
            self.add(chunk)

    def lines(self, last: Optional[int] = None) -> List[str]:
        """The kept lines (the `last` of them), after "... (N more lines)" if some are not."""
        kept = bytes(self.kept[-self.limit:])
        complete = not kept or kept.endswith(b"\n")
        total = self.newlines + (0 if complete else 1)
        if self.size > len(kept) and b"\n" in kept:
            kept = kept[kept.index(b"\n") + 1:]  # the first line began before the kept bytes
        shown = kept.decode("utf-8", errors="replace").splitlines()
        shown = [line if len(line) <= self.line_limit else
                 line[:self.line_limit] + f" ... ({len(line) - self.line_limit} more characters)"
                 for line in shown]
        if last is not None:
            shown = shown[-last:] if last else []
        more = total - len(shown)
        return ([f"... ({more} more lines)"] if more > 0 else []) + shown

    def text(self) -> str:
        """All of it when it fits in `limit` bytes, else as `lines()` shows it."""
        if self.size <= self.limit:
            return bytes(self.kept).decode("utf-8", errors="replace")
        return "\n".join(self.lines()) + "\n"


# The runner's output as kept: its stdout is its own text (a match's progress, -ratings' JSON),
# its stderr what it and every engine said (the end of it is the reason of a failure).
STDOUT_LIMIT = 1 << 20
STDERR_LIMIT = 32 << 10
SAID_LINES = 8  # of its stderr, in a MatchError


# How often a wait for the runner looks at its caller's `stop`.
STOP_POLL_SECONDS = 0.2


def _wait(process: subprocess.Popen, command: List[str], timeout: Optional[float],
          stop: Optional[threading.Event]) -> int:
    """The runner's exit status; MatchError past `timeout` seconds, MatchStopped once `stop`
    is set (the caller kills the runner)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        step = None if stop is None else STOP_POLL_SECONDS
        if deadline is not None:
            left = max(deadline - time.monotonic(), 0)
            step = left if step is None else min(step, left)
        try:
            return process.wait(timeout=step)
        except subprocess.TimeoutExpired as expired:
            if stop is not None and stop.is_set():
                raise MatchStopped(f"divercite-match stopped: {' '.join(command)}") from None
            if deadline is not None and time.monotonic() >= deadline:
                raise MatchError(f"divercite-match did not finish within {timeout} s: "
                                 f"{' '.join(command)}") from expired


def _run(command: List[str], timeout: Optional[float],
         stop: Optional[threading.Event] = None) -> str:
    """The runner's stdout (its last STDOUT_LIMIT bytes); MatchError with its last lines if it
    fails or runs past `timeout` seconds, MatchStopped if `stop` is set first."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    out, err = OutputTail(STDOUT_LIMIT), OutputTail(STDERR_LIMIT)
    streams = ((out, process.stdout), (err, process.stderr))
    readers = [threading.Thread(target=tail.read_from, args=(stream,), daemon=True)
               for tail, stream in streams]
    for reader in readers:
        reader.start()
    try:
        code = _wait(process, command, timeout, stop)
    finally:
        if process.poll() is None:  # timed out, stopped, or interrupted
            process.kill()
            process.wait()
        # A grandchild may hold a pipe open: the readers are waited for 10 s, not forever.
        deadline = time.monotonic() + 10
        for reader, (_, stream) in zip(readers, streams):
            reader.join(timeout=max(deadline - time.monotonic(), 0))
            if not reader.is_alive():  # else its thread ends with the grandchild's pipe
                stream.close()
    if code != 0:
        said = "\n".join((err if err.size else out).lines(SAID_LINES))
        raise MatchError(f"divercite-match exited with status {code}: {said}")
    return out.text()


def ratings(*records_files: PathLike, timeout: Optional[float] = 60) -> List[Standing]:
    """The standings of the games in these records files (`divercite-match -ratings`), best
    first; the engines are told apart by name."""
    if not records_files:
        raise ValueError("ratings: give one or more records files")
    output = _run([runner(), "-ratings", *map(os.fspath, records_files)], timeout)
    try:
        engines = json.loads(output)["engines"]
    except (ValueError, KeyError, TypeError) as error:
        raise MatchError(f"divercite-match -ratings: its output is not the standings "
                         f"({error}): {output[-500:]}") from error
    fields = {field.name for field in dataclasses.fields(Standing)}
    return [Standing(**{key: value for key, value in entry.items() if key in fields})
            for entry in engines]


def run(players: Sequence[Player], *, games: int = 2, rounds: int = 1, repeat: bool = True,
        tournament: Optional[str] = None, openings: Optional[str] = None,
        seed: Optional[int] = None, concurrency: Optional[int] = None,
        records: Optional[PathLike] = None, extra: Sequence[str] = (),
        timeout: Optional[float] = None, launcher: Sequence[str] = (),
        stop: Optional[threading.Event] = None) -> MatchResult:
    """Plays a match (two players) or a tournament (more: `tournament` "roundrobin", the
    default for more than two, or "gauntlet") with `divercite-match` and returns its records
    and standings.

    `games` x `rounds` games a pair; `repeat` plays each opening with both colours;
    `openings`: the runner's words, "random plies=N" or "file=PATH [order=random]"; `seed`,
    `concurrency` (games at once): the runner's flags; `records`: the records file (kept, and
    resumed if it exists), else a temporary one, deleted; `extra`: more of the runner's
    flags, as words (["-adjudicate", "exact", "plies=4"]). MatchError with the runner's last
    lines if it refuses the match (an option an engine does not take, an engine that does not
    start) or fails; `timeout` (seconds) bounds the whole match; `launcher`: words put before
    the runner's command (a wrapper: `setpriv --pdeathsig KILL` ends it with its caller);
    `stop`: an Event another thread sets to end the match at once (the runner killed,
    MatchStopped raised)."""
    if len(players) < 2:
        raise ValueError("a match needs two players or more")
    command = [*launcher, runner()]
    for player in players:
        command += ["-engine", *player.arguments()]
    if tournament is None and len(players) > 2:
        tournament = "roundrobin"
    if tournament is not None:
        command += ["-tournament", tournament]
    command += ["-games", str(games), "-rounds", str(rounds)] + (["-repeat"] if repeat else [])
    if openings is not None:
        command += ["-openings", *openings.split()]
    if seed is not None:
        command += ["-seed", str(seed)]
    if concurrency is not None:
        command += ["-concurrency", str(concurrency)]
    with tempfile.TemporaryDirectory(prefix="divercite_match_") as folder:
        path = Path(records) if records is not None else Path(folder) / "records.jsonl"
        output = _run(command + ["-records", str(path), *extra], timeout, stop)
        games_played = list(read_records(path)) if path.exists() else []
        standings = ratings(path) if games_played else []
    return MatchResult(records=games_played, standings=standings,
                       records_path=Path(records) if records is not None else None, output=output)
