"""An engine of our protocol (README, "Protocol"), driven from Python, after python-chess's
chess.engine but synchronous: a process, a reader thread per pipe and a queue.

    with divercite.engine.Engine.popen("build/bin/divercite", {"Hash": 64}) as engine:
        result = engine.play(divercite.Position(), movetime=200)
        print(result.move, result.score, result.exact, result.proven)

Any engine of the protocol will do (ours, a course agent wrapped by
tools/seahorse/course_engine.py, the fakes of the tests). Positions are sent as `position
fen`: the game has no history (the last-move tie-break needs only the board). Nothing hangs:
every answer is awaited with a deadline, after which the engine is killed and
EngineTimeoutError raised; an engine that dies raises EngineTerminatedError with its exit
code and last stderr lines; a garbled or illegal answer raises EngineError naming the line.
"""

from __future__ import annotations

import collections
import dataclasses
import os
import queue
import subprocess
import sys
import threading
import time
import weakref
from typing import List, Optional, Union

from . import programs
from ._protocol import (ERROR_PREFIX, Option, SearchReader, find_option, go_command,
                        parse_option_line)

try:
    from ._core import Position
except ImportError:  # the compiled rules do not load in this Python (see __init__.py)
    Position = None

__all__ = ["Engine", "EngineError", "EngineTerminatedError", "EngineTimeoutError", "Option",
           "SearchResult", "PlayResult", "DEFAULT_SEARCH_TIMEOUT", "TIMEOUT_MARGIN"]

DEFAULT_SEARCH_TIMEOUT = 300.0  # seconds a search without a clock or movetime may take
TIMEOUT_MARGIN = 5.0  # seconds past a movetime or a clock before `stop`
STOP_GRACE = 1.0  # seconds from `stop` to giving up


class EngineError(RuntimeError):
    """The engine refused a command, or answered something that is not the protocol."""


class EngineTerminatedError(EngineError):
    """The engine's process ended; `returncode` and `stderr` (its last lines) say how."""

    def __init__(self, message: str, returncode: Optional[int], stderr: list) -> None:
        super().__init__(message)
        self.returncode, self.stderr = returncode, stderr


class EngineTimeoutError(EngineError):
    """The engine did not answer in time; it has been killed."""


@dataclasses.dataclass
class SearchResult:
    """One line of the engine's last report on a search, as play() and analyse() return it.

    `move`: play()'s `bestmove` (None for `bestmove (none)` on a finished game), analyse()'s
    line's first move. `score`: centipoints of final margin (100 = one point) from the view
    of `side_to_move` (the side to move in the position searched, "w" or "b"); `margin(side)`
    gives it in points from either player's view. `bound`: "exact" for a plain score, "lower"
    or "upper" when the score is a bound (a proof's). `exact`: the score is the game's exact
    final margin (`info string exact`); `proven`: the result it proved for the side to move,
    "win", "draw" or "loss" (`info string proven`), else None. `multipv`: the line's rank
    (1 the best). `info`: the whole `info` line as parsed."""

    move: Optional[str]
    score: Optional[int] = None
    bound: Optional[str] = None
    exact: bool = False
    proven: Optional[str] = None
    depth: Optional[int] = None
    seldepth: Optional[int] = None
    nodes: Optional[int] = None
    time_ms: Optional[int] = None
    multipv: int = 1
    pv: list = dataclasses.field(default_factory=list)
    side_to_move: Optional[str] = None
    info: dict = dataclasses.field(default_factory=dict)

    def margin(self, side: Optional[str] = None) -> Optional[float]:
        """The score in points of final margin from `side`'s view: "w" (or "first") for the
        first player, "b" (or "second") for the second, None for the side to move's. None
        without a score. A bound stays a bound: a lower one for the side to move is an upper
        one for the other."""
        if self.score is None:
            return None
        sides = {"w": "w", "first": "w", "b": "b", "second": "b", None: self.side_to_move}
        if side not in sides:
            raise ValueError(f"side {side!r}: give 'w' or 'first', 'b' or 'second', or None")
        sign = 1 if sides[side] == self.side_to_move else -1
        return sign * self.score / 100


# The result of play() (the name it had before analyse() returned the same shape).
PlayResult = SearchResult


def _result(report: dict, side_to_move: Optional[str], move: Optional[str] = None,
            rank: int = 1) -> SearchResult:
    """A SearchResult of one line of a report ({"info", "exact", "proven"}); `move` the
    bestmove, else the line's first move."""
    info = report.get("info", {})
    pv = info.get("pv", [])
    return SearchResult(move=move if move is not None else (pv[0] if pv else None),
                        score=info.get("score"), bound=info.get("bound"),
                        exact=report.get("exact", False), proven=report.get("proven"),
                        depth=info.get("depth"), seldepth=info.get("seldepth"),
                        nodes=info.get("nodes"), time_ms=info.get("time"),
                        multipv=info.get("multipv", rank), pv=pv, side_to_move=side_to_move,
                        info=info)


def _read_lines(pipe, sink) -> None:
    """Reader thread: each line of `pipe` into `sink` (a queue, then None, or a deque)."""
    try:
        for line in iter(pipe.readline, ""):
            (sink.put if isinstance(sink, queue.Queue) else sink.append)(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    finally:
        if isinstance(sink, queue.Queue):
            sink.put(None)


def _shut_down(process: subprocess.Popen) -> None:
    """`quit`, a kill if it lingers, then reaped. Never raises (it runs at exit too)."""
    try:
        if process.poll() is None:
            try:
                process.stdin.write("stop\nquit\n")
                process.stdin.flush()
            except (OSError, ValueError):
                pass
            try:
                process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                process.kill()
        for pipe in (process.stdin, process.stdout, process.stderr):
            try:
                pipe.close()
            except (OSError, ValueError):
                pass
        process.wait()
    except Exception:
        pass


def _default_engine() -> str:
    """The engine Engine.popen() starts without a command: see there."""
    try:
        return programs.find("divercite", "DIVERCITE_ENGINE")
    except programs.ProgramNotFoundError as error:
        raise EngineError(f"no engine given and none found: {error}; or give its path: "
                          f"Engine.popen('build/bin/divercite') (Python {sys.executable})") \
            from None


class Engine:
    """One engine process. Start it with Engine.popen(); `id` (`name`, `author`) and
    `options` (the engine's names -> Option) are what it said after `uci`."""

    def __init__(self, command: list, name: str, process: subprocess.Popen,
                 timeout: float) -> None:
        self.command, self.name, self.process = command, name, process
        self.timeout = timeout  # seconds for an answer outside a search
        self.id: dict = {}
        self.options: dict = {}
        self._multipv = 1
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=20)
        self._finalizer = weakref.finalize(self, _shut_down, process)
        for pipe, sink in ((process.stdout, self._lines), (process.stderr, self._stderr)):
            threading.Thread(target=_read_lines, args=(pipe, sink), daemon=True).start()

    @classmethod
    def popen(cls, command: Union[str, os.PathLike, list, None] = None,
              options: Optional[dict] = None, timeout: float = 10.0, *,
              name: Optional[str] = None, **popen_args) -> "Engine":
        """Starts `command` (a path, or a list of the program and its arguments), reads its
        `uci` answer, sets `options` (checked first: ValueError names an option it does not
        list or a value it does not take) and waits for `readyok`, each within `timeout`
        seconds. `popen_args` go to subprocess.Popen (cwd, env).

        Without `command`, our engine `divercite`: the one installed beside this package
        (`pip install`: the environment's bin/), else the program DIVERCITE_ENGINE names,
        else `divercite` on PATH; EngineError names the places looked in if none is."""
        if command is None:
            command = _default_engine()
        command = [os.fspath(command)] if isinstance(command, (str, os.PathLike)) else \
            [str(word) for word in command]
        try:
            process = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1, **popen_args)
        except OSError as error:
            raise EngineError(f"cannot start {command[0]}: {error}") from error
        engine = cls(command, name or command[0], process, timeout)
        try:
            for line in engine._exchange(["uci"], "uciok", timeout):
                words = line.split(None, 2)
                if len(words) == 3 and words[0] == "id":
                    engine.id[words[1]] = words[2]
                elif (option := parse_option_line(line)) is not None:
                    engine.options[option.name] = option
            engine.configure(options or {})
            engine.ping()
        except BaseException:
            engine.close()
            raise
        return engine

    # -- lines ---------------------------------------------------------------------------

    def _send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):
            raise self._terminated(f"sending '{line}'") from None

    def _read(self, deadline: float, waiting: str, quiet: bool = False) -> Optional[str]:
        """The next line; at `deadline`, None if `quiet`, else EngineTimeoutError (the
        engine killed)."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            if quiet:
                return None
            self.kill()
            raise EngineTimeoutError(f"{self.name}: no {waiting} in time; the engine was "
                                     f"killed") from None
        if line is None:
            self._lines.put(None)
            raise self._terminated(f"waiting for {waiting}")
        return line

    def _terminated(self, doing: str) -> EngineTerminatedError:
        try:
            code = self.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.05)  # the stderr reader's last lines
        stderr = [line for line in self._stderr if line.strip()]
        how = "closed its output" if code is None else f"exited with code {code}"
        tail = f"; its last stderr lines: {' | '.join(stderr)}" if stderr else ""
        return EngineTerminatedError(f"{self.name}: the engine {how} while {doing}{tail}",
                                     code, stderr)

    def _exchange(self, commands: list, answer: str, timeout: Optional[float] = None) -> list:
        """Sends `commands`, returns the lines read before the line `answer`."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        for command in commands:
            self._send(command)
        lines = []
        while (line := self._read(deadline, f"'{answer}' to '{' / '.join(commands)}'")) \
                != answer:
            lines.append(line)
        return lines

    def _errors(self, lines: list) -> list:
        return [line[len(ERROR_PREFIX):].strip() for line in lines
                if line.startswith(ERROR_PREFIX)]

    # -- commands ------------------------------------------------------------------------

    def configure(self, options: dict) -> None:
        """Sets `options` (name -> value): all checked against the advertised options
        first (ValueError naming the option), then each sent; an `info string error`
        answer raises EngineError naming the option and the engine's reason."""
        checked = []
        for name, value in options.items():
            option = find_option(self.options, name)
            checked.append((option, option.check(value)))
        for option, value in checked:
            command = f"setoption name {option.name}" + \
                ("" if option.type == "button" else f" value {value}")
            errors = self._errors(self._exchange([command, "isready"], "readyok"))
            if errors:
                raise EngineError(f"{self.name}: the engine refused the option "
                                  f"{option.name}={value}: {'; '.join(errors)}")
            if option.name.lower() == "multipv":
                self._multipv = int(value)

    def check_option(self, name: str, value) -> str:
        """`value` as `setoption` would send it for the option `name` (whatever its case);
        ValueError naming the option if the engine does not list it or would not take the
        value. Sends nothing."""
        return find_option(self.options, name).check(value)

    def ping(self, timeout: Optional[float] = None) -> None:
        """`isready`, `readyok` within `timeout` (the popen timeout by default)."""
        self._exchange(["isready"], "readyok", timeout)

    def new_game(self) -> None:
        """`ucinewgame`: the engine forgets the game (its table)."""
        self._exchange(["ucinewgame", "isready"], "readyok")

    def play(self, position, *, timeout: Optional[float] = None, grace: float = STOP_GRACE,
             **limits) -> SearchResult:
        """Searches `position` (a divercite.Position or a position string) within `limits`
        (movetime, depth, nodes, wtime, btime, winc, binc in ms or plies; prove=True for `go
        prove`; searchmoves=[moves] to search only those); at least one of the first
        five, or prove=True alone (the search ends at the proof).
        Raises EngineError if the engine answers an error (an illegal searchmoves move too),
        no move, or an illegal one. Without `timeout` (seconds from the call), a search waits
        for its movetime or its side's clock plus TIMEOUT_MARGIN, else DEFAULT_SEARCH_TIMEOUT
        seconds; then `stop`, then the engine is killed (EngineTimeoutError) `grace` seconds
        later.

        Without the compiled rules (divercite._core built for another Python), positions are
        strings and the move is not checked against the legal moves: the caller checks it."""
        side_to_move, move, reports = self._search(position, limits, timeout, grace)
        return _result(reports.get(1, {}), side_to_move, move)

    def analyse(self, position, *, multipv: int = 1, timeout: Optional[float] = None,
                grace: float = STOP_GRACE,
                **limits) -> Union[SearchResult, List[SearchResult]]:
        """Searches as play() does and returns the final report's line as a SearchResult
        (its `move` the line's first move). With multipv=N > 1, a list of them, best first,
        one per line the engine reported (N, or fewer when the position has fewer moves up to
        symmetry; each line's score is its own move's), which needs an engine with the
        option MultiPV (EngineError otherwise)."""
        if multipv != 1 or self._multipv != 1:
            if not any(name.lower() == "multipv" for name in self.options):
                raise EngineError(f"{self.name}: the engine has no MultiPV option, so it "
                                  f"analyses one line only: use multipv=1")
            self.configure({"MultiPV": multipv})
        side_to_move, _, reports = self._search(position, limits, timeout, grace)
        lines = [_result(report, side_to_move, rank=rank)
                 for rank, report in sorted(reports.items())]
        return lines if multipv > 1 else (lines[0] if lines else _result({}, side_to_move))

    def _search(self, position, limits: dict, timeout: Optional[float], grace: float):
        if Position is not None and not isinstance(position, Position):
            position = Position(position)
        fen = position.fen() if Position is not None else str(position).strip()
        side_to_move = position.side_to_move if Position is not None else fen.rsplit(None, 1)[-1]
        command, seconds = go_command(limits, side_to_move)
        if timeout is None:
            timeout = DEFAULT_SEARCH_TIMEOUT if seconds is None else seconds + TIMEOUT_MARGIN
        deadline = time.monotonic() + timeout
        errors = self._errors(self._exchange([f"position fen {fen}", "isready"], "readyok",
                                             min(self.timeout, timeout)))
        if errors:
            raise EngineError(f"{self.name}: the engine refused the position "
                              f"{fen}: {'; '.join(errors)}")
        self._send(command)
        line, reports, errors = self._await_bestmove(command, deadline, grace, timeout)
        words = line.split()
        said = f" (the engine said: {'; '.join(errors)})" if errors else ""
        if len(words) < 2:
            raise EngineError(f"{self.name}: '{line}' names no move{said}")
        if Position is None:
            return side_to_move, (None if words[1] == "(none)" else words[1]), reports
        if words[1] == "(none)" and position.is_over():
            return side_to_move, None, reports
        if words[1] not in position.legal_moves():
            raise EngineError(f"{self.name}: '{line}' is not a legal move in "
                              f"{fen}{said}")
        return side_to_move, words[1], reports

    def _await_bestmove(self, command: str, deadline: float, grace: float,
                        timeout: float):
        """Reads up to `bestmove`: (that line, {multipv: {"info", "exact", "proven"}},
        the errors the engine said). `stop` at `deadline` (`timeout` seconds from the call),
        killed `grace` seconds later. An error before any report is followed by `isready`: a
        `readyok` before `bestmove` means the engine refused the `go` (and will send no
        move)."""
        waiting = f"'bestmove' to '{command}' within {timeout:.1f} s and {grace:.1f} s " \
                  f"after 'stop'"
        reader = SearchReader()
        stopped, pinged = False, False
        while True:
            line = self._read(deadline, waiting, quiet=not stopped)
            if line is None:
                self._send("stop")
                stopped, deadline = True, deadline + grace
                continue
            if line == "readyok" and pinged:
                if not reader.searched:
                    raise EngineError(f"{self.name}: the engine refused '{command}': "
                                      f"{'; '.join(reader.errors)}")
                pinged = False  # answered: nothing to wait for after the move
                continue
            if reader.feed(line):
                if pinged:
                    self._exchange([], "readyok")
                return line, reader.reports, reader.errors
            if line.startswith(ERROR_PREFIX) and not reader.searched and not pinged:
                self._send("isready")
                pinged = True

    # -- the process ---------------------------------------------------------------------

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> Optional[int]:
        """The exit code once the process has ended, else None."""
        return self.process.poll()

    def kill(self) -> None:
        """Ends the process at once (SIGKILL) and reaps it."""
        try:
            self.process.kill()
        except OSError:
            pass
        self._finalizer()

    def quit(self) -> None:
        """`quit`, then killed if it lingers; also on leaving a `with` block and when the
        Engine is dropped."""
        self._finalizer()

    close = quit

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()

    def __repr__(self) -> str:
        return f"<Engine {self.name!r} pid={self.pid}>"
