"""The divercite engine as a child process, for divercite_player.py (the course player).

Offers:

- ``find_engine()`` — the engine binary: ``DIVERCITE_ENGINE``, else a checkout's
  ``<repo>/build/bin/divercite`` (this file in ``<repo>/tools/seahorse/``), else an installed
  copy's ``P/bin/divercite`` (this file in ``P/share/divercite/seahorse/``), else
  ``divercite`` on PATH;
- ``parse_options(text)`` — ``DIVERCITE_OPTIONS``'s ``Name=Value,...`` as (name, value) pairs;
- ``Engine(path, options)`` — one engine process, started and set up: ``uci``, then each
  option (name, value, where it comes from) checked against the ``option`` lines the engine
  prints (the name, a number in range, a choice it lists) before any is sent, then sent and
  checked against its answers, then ``isready``. ``think(position, go, stop_at,
  give_up_at)`` searches a position, sending ``stop`` at the first deadline and giving up at
  the second. Replies are read with a timeout (a reader thread and a queue). The process is
  closed (``quit``, then killed if needed, then reaped) by ``close()``, when the ``Engine``
  is dropped, and at interpreter exit;
- ``DiverciteEngineError`` (the engine is missing, does not start, rejects an option or
  answers an error), ``EngineExited`` and ``EngineTimeout`` (it died, or did not answer by a
  deadline, while thinking).

Standard library only. It knows nothing of the course: the player turns the course's states
into position strings and the engine's moves into the course's actions.
"""

from __future__ import annotations

import collections
import os
import queue
import re
import shutil
import subprocess
import threading
import time
import weakref
from pathlib import Path

# How long the engine may take to start (answer `uci` and `isready`).
STARTUP_TIMEOUT_S = 20.0

_ERROR = "info string error:"  # how the engine answers a command it cannot carry out
_HERE = Path(__file__).resolve().parent


class DiverciteEngineError(RuntimeError):
    """The engine is missing, does not start, rejects an option, or died."""


class EngineExited(Exception):
    """The engine closed its output (it died) while thinking."""


class EngineTimeout(Exception):
    """The engine did not answer by a deadline."""


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
        return explicit  # Engine says so if it is missing
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


def parse_options(text: str) -> list[tuple[str, str]]:
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


class Engine:
    """One engine process, its reader threads and its line queue."""

    def __init__(self, path: str, options: list[tuple[str, str, str]],
                 startup_timeout: float = STARTUP_TIMEOUT_S) -> None:
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
            raise EngineExited() from error

    def read(self, deadline: float) -> str:
        """The next line, or EngineTimeout at `deadline` (monotonic), or EngineExited."""
        timeout = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, timeout)) if timeout > 0 else \
                self.lines.get_nowait()
        except queue.Empty:
            raise EngineTimeout() from None
        if line is None:
            self.lines.put(None)  # stays at end of input
            raise EngineExited()
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
        except EngineExited:
            raise DiverciteEngineError(
                f"{self.exit_description()} before answering '{command}': check that "
                f"{self.path} is the divercite engine (build it with scripts/build.sh, or "
                f"set DIVERCITE_ENGINE to its path)") from None
        except EngineTimeout:
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
        raises EngineTimeout at `give_up_at`, EngineExited if the engine dies, or
        DiverciteEngineError if it answers an error."""
        self.send(f"position fen {position}")
        self.send(go)
        engine_ms, depth, stopped = None, None, False
        while True:
            try:
                line = self.read(give_up_at if stopped else stop_at)
            except EngineTimeout:
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
