"""Our Divercité engine as a player of the INF8175 course's own framework (seahorse).

Name this file on the course's command line, from the course's ``divercite/`` folder:

    python3 main_divercite.py -t local my_player.py path/to/divercite_player.py
    python3 main_divercite.py -t human_vs_computer path/to/divercite_player.py
    python3 main_divercite.py -t host_game -a <this machine's ip> path/to/divercite_player.py
    python3 main_divercite.py -t connect -a <the host's ip> path/to/divercite_player.py

Each ``MyPlayer`` starts one ``divercite`` engine process and speaks its UCI-style protocol
(``uci``, ``setoption``, ``isready``, ``position fen``, ``go``, ``stop``, ``quit``). Every
move, the position string is built from the course state's board and side to move (exact:
the score is a function of the board), the engine is asked ``go wtime <ms> btime <ms>`` with
the clock the master gives us (the same for the opponent's, which the course does not give),
or ``go movetime <ms>``, and its ``bestmove`` is returned as the course's ``LightAction``.

Environment variables:

- ``DIVERCITE_ENGINE`` — the engine binary. Without it: ``<repo>/build/bin/divercite`` when
  this file is ``<repo>/tools/seahorse/divercite_player.py``, ``P/bin/divercite`` when it is
  installed as ``P/share/divercite/seahorse/divercite_player.py``, then ``divercite`` on PATH.
- ``DIVERCITE_OPTIONS`` — engine options, ``Name=Value`` separated by commas, e.g.
  ``Hash=256,Threads=2`` or ``Agent=skypiea_v5``. Each is checked against the ``option``
  lines the engine prints after ``uci`` (the name, a number in range, a choice it lists)
  before any is sent, then against its answers: one the engine does not take stops the
  player at its start, naming it and why. ``MoveOverhead`` defaults to
  ``DEFAULT_MOVE_OVERHEAD_MS``, ``Hash`` to ``DEFAULT_HASH_MB`` (below).
- ``DIVERCITE_PACE`` — ``auto`` (the default): against a human at the course's GUI
  (``-t human_vs_computer``, seen by ``human_opponent``) answer in ``HUMAN_PACE_MS``, saying
  on stderr that the engine is thinking, else use the clock; ``human``: always that pace;
  ``clock``: always the full clock, even against a human.
- ``DIVERCITE_MOVETIME=<ms>`` — ``go movetime <ms>`` instead of the clock or the pace, for
  fast games; the engine searches all of it, capped so that the rest of the game, with
  ``MoveOverhead`` a move for the framework, fits in the clock.
- ``DIVERCITE_PLAYER_LOG=1`` — one line per move on stderr: ply, side, move, the wall time
  inside ``compute_action`` (ms), the engine's search time (ms), the ``remaining_time``
  received, and the pace (``bench/course_overhead.py`` reads these lines).

Safety: replies are read with a timeout (a reader thread and a queue). If the engine has not
answered by a deadline well inside the clock it is sent ``stop``; if it still does not
answer, dies, or answers an illegal move, the player says so on stderr and plays a legal
fallback move (the best immediate score by the course's scoring); a failed engine is killed,
reaped and started again at the next move, within that move's deadlines. A missing engine,
or one that does not start, raises ``DiverciteEngineError`` saying what to do. The engine is
closed (``quit``, then killed if needed, then reaped) when the player is dropped and at exit.

The master serialises each player after every move with ``to_json``, which takes every
attribute whose name does not start with ``_``: the only public ones are ``name``, ``id``
and ``piece_type``.

Standard library only, plus the course's own code (``player_divercite``, ``seahorse``).
"""

from __future__ import annotations

import collections
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

from player_divercite import PlayerDivercite

# The framework's own latency per move, charged to our clock by the master, as measured by
# bench/course_overhead.py (2-core machine, localhost, our player against itself, 8 games
# per mode at 30-150 ms per move): the time charged per move beyond compute_action's wall
# time (the framework), and beyond the engine's own search time (the framework plus this
# module's pipe and Python time: what MoveOverhead must cover), in ms, median / max (moves
# measured; -t human_vs_computer runs our player through the same proxy as host_game):
#   -t local                          framework  0.2 /   2.1   total  0.8 /  31  (304)
#   -t host_game (the host's player)  framework  0.5 /   8.7   total  1.6 /  16  (152)
#   -t connect (the remote player)    framework 72.4 / 135.0   total 73.3 / 135  (152)
# The worst mode is connect: the master polls for the remote's action every 0.1 s, then
# decodes two states from JSON. 250 ms covers its worst move (135 ms) 1.85 times over, for
# a loaded machine or a real network between the two, and keeps only 20 x 0.25 = 5 s of
# the 900-s clock in reserve over a whole game.
DEFAULT_MOVE_OVERHEAD_MS = 250

# The transposition table, in MiB, unless DIVERCITE_OPTIONS sets Hash. The course clock lets
# the engine solve 16-18 plies from the end, and those solves need room: 16 plies before the
# end of reference games 1 and 3, 93.3 / 93.7 M nodes with the engine's default 16 MiB,
# 74.1 / 79.0 M with 64, 61.3 / 83.6 M with 256 (search/NOTES.md).
DEFAULT_HASH_MB = 256

# A move's time, in ms, against a human (DIVERCITE_PACE): the course's master sends the
# board, the human's own last move included, only once we answer, so at the full clock a
# human saw nothing for 18-65 s after each of the first moves (bench/gui_human_pace.py).
# In 2 s the engine searches 10-11 plies in the middle game (7-13 M nodes) and solves exactly
# from 14 plies before the end (reference games 0-4 at ply 26: 4 of 5; all at ply 28).
HUMAN_PACE_MS = 2000

# How long the engine may take to start (answer `uci` and `isready`).
_STARTUP_TIMEOUT_S = 20.0

# The existing cells of each grid row, from the lowest column up.
_ROW_COLUMNS = [range(abs(i - 4), 9 - abs(i - 4)) for i in range(9)]
_TOTAL_PLIES = 40
_ERROR = "info string error:"  # how the engine answers a command it cannot carry out
_HERE = Path(__file__).resolve().parent


class DiverciteEngineError(RuntimeError):
    """The engine is missing, does not start, rejects an option, or died."""


class _EngineExited(Exception):
    pass


class _EngineTimeout(Exception):
    pass


def _log(message: str) -> None:
    print(f"divercite_player: {message}", file=sys.stderr, flush=True)


def _engine_places() -> list[tuple[Path, str]]:
    """Where the engine is looked for without DIVERCITE_ENGINE, in order, with what each is:
    this file in a checkout (<repo>/tools/seahorse/) or in an installed copy
    (P/share/divercite/seahorse/, from `cmake --install build --prefix P`)."""
    return [(_HERE.parent.parent / "build" / "bin" / "divercite",
             "a checkout's build, made by scripts/build.sh"),
            (_HERE.parent.parent.parent / "bin" / "divercite",
             "an installed copy, made by cmake --install build --prefix P")]


def find_engine() -> str:
    """The engine binary: DIVERCITE_ENGINE, else the first of _engine_places() that exists,
    else `divercite` on PATH; DiverciteEngineError naming the places tried if none does."""
    explicit = os.environ.get("DIVERCITE_ENGINE")
    if explicit:
        return explicit  # _Engine says so if it is missing
    for path, _ in _engine_places():
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    on_path = shutil.which("divercite")
    if on_path:
        return on_path
    tried = "; ".join(f"{path} ({what})" for path, what in _engine_places())
    raise DiverciteEngineError(
        f"divercite engine not found: tried {tried}; and divercite on PATH. Build it with "
        f"scripts/build.sh in the project's checkout, or set DIVERCITE_ENGINE to its path")


def position_string(state) -> str:
    """The engine's position string (``<rows> <side>``) of a course GameStateDivercite."""
    env = state.get_rep().get_env()
    rows = []
    for i, columns in enumerate(_ROW_COLUMNS):
        text, empty = "", 0
        for j in columns:
            piece = env.get((i, j))
            if piece is None:
                empty += 1
                continue
            kind = piece.get_type()
            if len(kind) != 3 or kind[0] not in "RGBY" or kind[2] not in "WB":
                raise ValueError(f"unexpected piece type {kind!r} on {(i, j)}")
            if empty:
                text, empty = text + str(empty), 0
            text += kind[0] if kind[2] == "W" else kind[0].lower()
        if empty:
            text += str(empty)
        rows.append(text)
    return "/".join(rows) + " " + _side_to_move(state, len(env))


def _side_to_move(state, pieces_on_board: int) -> str:
    # In the remote modes next_player is a proxy whose attributes forward to the player.
    piece_type = getattr(getattr(state, "next_player", None), "piece_type", None)
    if piece_type in ("W", "B"):
        return piece_type.lower()
    return "w" if pieces_on_board % 2 == 0 else "b"


def human_opponent(state) -> bool:
    """Whether a player of `state` is a human at the course's GUI: in `-t human_vs_computer`
    the master's state lists seahorse's InteractivePlayerProxy, which marks the player it
    wraps with player_type = "interactive" (and forwards attribute reads to it)."""
    try:
        return any(getattr(player, "player_type", None) == "interactive"
                   for player in getattr(state, "players", None) or ())
    except Exception:  # the course code changed: play as against a program
        return False


def _parse_options(text: str) -> list[tuple[str, str]]:
    options = []
    for entry in text.split(","):
        if not entry.strip():
            continue
        name, sep, value = entry.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise DiverciteEngineError(
                f"DIVERCITE_OPTIONS entry {entry.strip()!r} is not Name=Value "
                f"(e.g. DIVERCITE_OPTIONS=Hash=256,Threads=2,Agent=skypiea_v5)")
        options.append((name.strip(), value.strip()))
    return options


def _parse_option_line(line: str) -> tuple[str, dict]:
    """An engine's `option name N type T [default D] [min A] [max B] [var V]...` line as
    (N in lower case, {"name": N, "type": T, "default": D, "min": A, "max": B, "var": [V]})."""
    fields, choices, key = {"name": []}, [], "name"
    for word in line.split()[2:]:
        if word in ("type", "default", "min", "max", "var"):
            key = word
            if key == "var":
                choices.append([])
            else:
                fields[key] = []
        elif key == "var":
            choices[-1].append(word)
        else:
            fields[key].append(word)
    spec = {key: " ".join(words) for key, words in fields.items()}
    spec["var"] = [" ".join(words) for words in choices]
    return spec["name"].lower(), spec


def _option_problem(name: str, value: str, advertised: dict) -> str | None:
    """Why the engine whose options are `advertised` would not take `name`=`value`, or None.
    Names are matched as the protocol does, whatever their case; values exactly."""
    spec = advertised.get(name.lower())
    if spec is None:
        names = ", ".join(sorted(option["name"] for option in advertised.values()))
        return f"the engine has no option named {name} (it has: {names or 'none'})"
    kind, label = spec.get("type"), spec["name"]
    if kind == "spin":
        low, high = spec.get("min", ""), spec.get("max", "")
        if not re.fullmatch(r"[+-]?\d+", value):
            return f"not a number: {label} is a whole number from {low} to {high}"
        if re.fullmatch(r"-?\d+", low) and re.fullmatch(r"-?\d+", high) and \
                not int(low) <= int(value) <= int(high):
            return f"out of range: {label} is a whole number from {low} to {high}"
    elif kind == "check" and value not in ("true", "false"):
        return f"{label} is true or false"
    elif kind == "combo" and value not in spec["var"]:
        return f"{label} is one of {', '.join(spec['var'])}"
    return None


def _read_lines(pipe, sink) -> None:
    """Reader thread: every line of `pipe` into `sink` (a queue or a deque), then None."""
    try:
        for line in iter(pipe.readline, ""):
            line = line.rstrip("\r\n")
            if isinstance(sink, queue.Queue):
                sink.put(line)
            else:
                sink.append(line)
    except (OSError, ValueError):
        pass
    finally:
        if isinstance(sink, queue.Queue):
            sink.put(None)
        try:
            pipe.close()
        except OSError:
            pass


def _shut_down(process: subprocess.Popen) -> None:
    """Closes an engine: quit, then kill if it lingers, then reap. Never raises."""
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
        try:
            process.stdin.close()
        except (OSError, ValueError):
            pass
        process.wait()
    except Exception:  # at interpreter exit, be quiet whatever happens
        pass


class _Engine:
    """One engine process, its reader threads and its line queue."""

    def __init__(self, path: str, options: list[tuple[str, str]],
                 startup_timeout: float = _STARTUP_TIMEOUT_S) -> None:
        self.path = path
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise DiverciteEngineError(
                f"divercite engine not found at {path} (DIVERCITE_ENGINE): build it with "
                f"scripts/build.sh in the project's checkout, or set DIVERCITE_ENGINE to its "
                f"path")
        try:
            self.process = subprocess.Popen(
                [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, encoding="utf-8", errors="replace", bufsize=1, close_fds=True)
        except OSError as error:
            raise DiverciteEngineError(
                f"cannot start the divercite engine at {path} ({error}): build it with "
                f"scripts/build.sh, or set DIVERCITE_ENGINE to its path") from error
        self.pid = self.process.pid
        # The finalizer holds the process, never the engine or the player: it runs when
        # the engine is dropped, when close() is called, and at interpreter exit.
        self._finalizer = weakref.finalize(self, _shut_down, self.process)
        self.lines: queue.Queue = queue.Queue()
        self.stderr_tail: collections.deque = collections.deque(maxlen=20)
        for pipe, sink, role in ((self.process.stdout, self.lines, "stdout"),
                                 (self.process.stderr, self.stderr_tail, "stderr")):
            threading.Thread(target=_read_lines, args=(pipe, sink), daemon=True,
                             name=f"divercite-{role}-{self.pid}").start()
        try:
            self._handshake(options, startup_timeout)
        except BaseException:
            self.close()
            raise

    # -- low level ------------------------------------------------------------------------

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError) as error:
            raise _EngineExited() from error

    def read(self, deadline: float) -> str:
        """The next line, or _EngineTimeout at `deadline` (monotonic), or _EngineExited."""
        timeout = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, timeout)) if timeout > 0 else \
                self.lines.get_nowait()
        except queue.Empty:
            raise _EngineTimeout() from None
        if line is None:
            self.lines.put(None)  # stays at end of input
            raise _EngineExited()
        return line

    def exit_description(self, wait: float = 2.0) -> str:
        try:
            code = self.process.wait(timeout=max(0.0, wait))
        except subprocess.TimeoutExpired:
            code = None
        text = f"the divercite engine at {self.path} exited (code {code})" if code is not None \
            else f"the divercite engine at {self.path} closed its output"
        time.sleep(0.05)  # let the stderr reader catch the last lines
        tail = " | ".join(line for line in list(self.stderr_tail) if line.strip())
        return text + (f"; its last stderr lines: {tail}" if tail else "")

    def alive(self) -> bool:
        return self.process.poll() is None

    def close(self) -> None:
        self._finalizer()

    def kill(self) -> None:
        try:
            self.process.kill()
        except OSError:
            pass
        self.close()

    # -- protocol -------------------------------------------------------------------------

    def _expect(self, commands: list[str], answer: str, timeout: float) -> list[str]:
        """Sends `commands`, reads up to the line `answer`; returns the lines before it."""
        deadline = time.monotonic() + timeout
        lines = []
        command = " / ".join(commands)
        try:
            for line in commands:
                self.send(line)
            while True:
                line = self.read(deadline)
                if line.strip() == answer:
                    return lines
                lines.append(line)
        except _EngineExited:
            raise DiverciteEngineError(
                f"{self.exit_description()} before answering '{command}': check that "
                f"{self.path} is the divercite engine (build it with scripts/build.sh, or "
                f"set DIVERCITE_ENGINE to its path)") from None
        except _EngineTimeout:
            raise DiverciteEngineError(
                f"the divercite engine at {self.path} did not answer '{command}' with "
                f"'{answer}' within {timeout:.1f} s: is DIVERCITE_ENGINE the divercite "
                f"engine?") from None

    def _handshake(self, options: list[tuple[str, str, str]], timeout: float) -> None:
        """`uci`, then each (name, value, where it comes from) checked against the engine's
        `option` lines, all of them before any is sent, then sent and checked again against
        the engine's `info string error` answers."""
        advertised = dict(_parse_option_line(line)
                          for line in self._expect(["uci"], "uciok", timeout)
                          if line.startswith("option name "))
        problems = [f"{name}={value} (from {source}): {why}" for name, value, source in options
                    if (why := _option_problem(name, value, advertised))]
        if problems:
            raise DiverciteEngineError(
                f"the divercite engine at {self.path} does not take these options: "
                + "; ".join(problems))
        for name, value, source in options:
            errors = [line[len(_ERROR):].strip()
                      for line in self._expect([f"setoption name {name} value {value}",
                                                "isready"], "readyok", timeout)
                      if line.startswith(_ERROR)]
            if errors:
                raise DiverciteEngineError(
                    f"the divercite engine at {self.path} rejected the option {name}={value} "
                    f"(from {source}): {'; '.join(errors)}")
        self._expect(["isready"], "readyok", timeout)

    def think(self, position: str, go: str, stop_at: float, give_up_at: float):
        """Searches `position`; returns (move, engine ms, depth). Sends `stop` at `stop_at`;
        raises _EngineTimeout at `give_up_at`, _EngineExited if the engine dies, or
        DiverciteEngineError if it answers an error."""
        self.send(f"position fen {position}")
        self.send(go)
        engine_ms, depth, stopped = None, None, False
        while True:
            try:
                line = self.read(give_up_at if stopped else stop_at)
            except _EngineTimeout:
                if stopped:
                    raise
                self.send("stop")
                stopped = True
                continue
            if line.startswith("bestmove"):
                parts = line.split()
                return (parts[1] if len(parts) > 1 else ""), engine_ms, depth
            if line.startswith(_ERROR):
                raise DiverciteEngineError(
                    f"the divercite engine answered '{line}' to 'position fen {position}' "
                    f"/ '{go}'")
            if line.startswith("info "):
                words = line.split()
                for key, value in zip(words, words[1:]):
                    if key == "time" and value.isdigit():
                        engine_ms = int(value)
                    elif key == "depth" and value.isdigit():
                        depth = int(value)


class MyPlayer(PlayerDivercite):
    """The divercite engine as a course player (see the module's docstring)."""

    def __init__(self, piece_type: str, name: str = "divercite", *args, **kwargs) -> None:
        super().__init__(piece_type, name, *args, **kwargs)
        self._engine_path = find_engine()
        options = [(name, value, "DIVERCITE_OPTIONS")
                   for name, value in _parse_options(os.environ.get("DIVERCITE_OPTIONS", ""))]
        for name, value in (("MoveOverhead", DEFAULT_MOVE_OVERHEAD_MS),
                            ("Hash", DEFAULT_HASH_MB)):
            if not any(given.lower() == name.lower() for given, _, _ in options):
                options.insert(0, (name, str(value), "the player's defaults"))
        self._options = options
        movetime = os.environ.get("DIVERCITE_MOVETIME", "").strip()
        if movetime and (not movetime.isdigit() or int(movetime) <= 0):
            raise DiverciteEngineError(
                f"DIVERCITE_MOVETIME={movetime!r}: give a number of milliseconds, e.g. 100")
        self._movetime_ms = int(movetime) if movetime else None
        self._pace = os.environ.get("DIVERCITE_PACE", "").strip().lower() or "auto"
        if self._pace not in ("auto", "human", "clock"):
            raise DiverciteEngineError(
                f"DIVERCITE_PACE={self._pace!r}: give human (answer in "
                f"{HUMAN_PACE_MS / 1000:g} s), clock (use the course's clock) or auto (human "
                f"against a human at the course's GUI, else clock; the default)")
        self._told_pace = False
        self._log_moves = os.environ.get("DIVERCITE_PLAYER_LOG", "") not in ("", "0")
        self._engine = _Engine(self._engine_path, self._options)
        # Checked by the engine at its start: a whole number from 0 up.
        overhead = [value for name, value, _ in options if name.lower() == "moveoverhead"]
        self._move_overhead_s = max(0, int(overhead[-1])) / 1000.0

    # The pid of the current engine process (for tests and diagnostics); None if none.
    def _engine_pid(self):
        return self._engine.pid if self._engine is not None else None

    def close(self) -> None:
        """Closes the engine now (it is also closed when the player is dropped)."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def compute_action(self, current_state, remaining_time: float = 900.0, **kwargs):
        start = time.monotonic()
        remaining = max(0.0, float(remaining_time))
        position = position_string(current_state)
        legal = {}
        for action in current_state.generate_possible_light_actions():
            (row, column) = action.data["position"]
            legal[f"{action.data['piece']}{row}{column}"] = action
        step = getattr(current_state, "step", None)
        ply = step if isinstance(step, int) else sum(position.count(c) for c in "RGBYrgby")

        # Deadlines, measured from our entry. The engine stops itself by a third of the clock
        # (its hard limit); we send `stop` past that, and give up well before the clock ends.
        budget = max(remaining - self._move_overhead_s, 0.5 * remaining)
        remaining_ms = max(1, int(remaining * 1000))
        human = self._pace == "human" or (self._pace == "auto" and human_opponent(current_state))
        asked_ms = self._movetime_ms or (HUMAN_PACE_MS if human else None)
        if human and not self._told_pace:
            self._told_pace = True
            why = "DIVERCITE_PACE=human" if self._pace == "human" else \
                "a human opponent at the course's GUI"
            _log(f"{self.name}: {why}: answering in {asked_ms / 1000:g} s a move "
                 f"(DIVERCITE_PACE=clock for the full clock, DIVERCITE_MOVETIME=<ms> for "
                 f"another pace)")
        if asked_ms is not None:
            # Capped so that every move left, with its overhead, fits in the clock.
            moves_left = max(1, (_TOTAL_PLIES - ply + 1) // 2)
            cap = int((remaining_ms - self._move_overhead_s * 1000 * moves_left) / moves_left)
            movetime = max(1, min(asked_ms, cap))
            go = f"go movetime {movetime}"
            expected = movetime / 1000.0
        else:
            go = f"go wtime {remaining_ms} btime {remaining_ms}"
            expected = remaining / 3.0
        stop_at = start + min(expected + 1.0, 0.6 * budget)
        give_up_at = start + min(expected + 3.0, 0.85 * budget)

        if human:  # the course's GUI shows nothing until we answer: say why it waits
            _log(f"{self.name} is thinking (up to {expected:.1f} s)...")
        move, engine_ms, depth, problem = None, None, None, None
        try:
            if self._engine is None or not self._engine.alive():
                # Restarted within this move's deadlines, never beyond them.
                if self._engine is not None:
                    _log(f"{self._engine.exit_description(0.1)}; starting it again")
                    self._engine.close()
                    self._engine = None
                self._engine = _Engine(self._engine_path, self._options,
                                       min(_STARTUP_TIMEOUT_S, stop_at - time.monotonic()))
            move, engine_ms, depth = self._engine.think(position, go, stop_at, give_up_at)
        except _EngineTimeout:
            problem = (f"the divercite engine did not answer within "
                       f"{give_up_at - start:.2f} s, even after 'stop': killed it (it will "
                       f"be started again for the next move)")
            self._drop_engine(kill=True)
        except _EngineExited:
            wait = min(2.0, give_up_at - time.monotonic())
            problem = (f"{self._engine.exit_description(wait)} while thinking (it will be "
                       f"started again for the next move)")
            self._drop_engine(kill=False)
        except DiverciteEngineError as error:
            problem = str(error)
            self._drop_engine(kill=True)
        if problem is None and move not in legal:
            problem = (f"the divercite engine answered 'bestmove {move}', not a legal move "
                       f"in {position}")
        if problem is not None:
            move = self._fallback_move(current_state, legal)
            _log(f"{self.name}: {problem}; playing the fallback move {move}")
        action = legal[move]

        spent_ms = (time.monotonic() - start) * 1000.0
        if human:
            _log(f"{self.name} plays {move} ({spent_ms / 1000:.1f} s)")
        if self._log_moves:
            _log(f"move name={self.name} ply={ply} side={position[-1]} move={move} "
                 f"compute_ms={spent_ms:.3f} engine_ms={engine_ms} depth={depth} "
                 f"remaining_time={remaining_time!r} fallback={int(problem is not None)} "
                 f"pace={'human' if human else 'clock' if asked_ms is None else 'movetime'}")
        return action

    def _drop_engine(self, kill: bool) -> None:
        if self._engine is not None:
            if kill:
                self._engine.kill()
            else:
                self._engine.close()
            self._engine = None

    def _fallback_move(self, state, legal: dict) -> str:
        """A legal move: the best immediate score margin by the course's own scoring."""
        best, best_margin = None, None
        me = state.next_player.get_id()
        for move, action in legal.items():
            try:
                scores = state.compute_scores(
                    (action.data["position"], action.data["piece"], me))
                margin = scores[me] - sum(v for k, v in scores.items() if k != me)
            except Exception:  # the course code changed: any legal move will do
                margin = 0
            if best_margin is None or margin > best_margin:
                best, best_margin = move, margin
        return best
