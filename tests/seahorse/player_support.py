"""What the course-player tests share: paths, the course's code on sys.path, the module
under test (the player), course states, process checks and a
protocol engine that misbehaves on demand.

Environment (ctest sets them; the defaults suit a checkout beside ../shared):
DIVERCITE_ENGINE (default <repo>/build/bin/divercite), DIVERCITE_COURSE_DIR (default
<repo>/../shared/course, holding divercite/ and seahorse/), DIVERCITE_SOURCE_DIR (default
this file's repository).
"""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import textwrap
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("DIVERCITE_SOURCE_DIR") or Path(__file__).resolve().parents[2])
ENGINE = Path(os.environ.get("DIVERCITE_ENGINE") or SOURCE_DIR / "build" / "bin" / "divercite")
COURSE_DIR = Path(os.environ.get("DIVERCITE_COURSE_DIR") or SOURCE_DIR.parent / "shared" / "course")
PLAYER = SOURCE_DIR / "tools" / "seahorse" / "divercite_player.py"
# The Python package the player speaks to the engine through (divercite.engine), in the build
# tree of ENGINE.
PACKAGE = ENGINE.resolve().parent.parent / "python" / "divercite"
MAIN = COURSE_DIR / "divercite" / "main_divercite.py"
GREEDY = COURSE_DIR / "divercite" / "greedy_player_divercite.py"
RANDOM = COURSE_DIR / "divercite" / "random_player_divercite.py"
for folder in (COURSE_DIR / "divercite", COURSE_DIR / "seahorse", PLAYER.parent,
               Path(__file__).resolve().parents[1]):  # tests/, for course_master
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import divercite_player  # noqa: E402,F401  (the module under test; it finds the package)
from divercite.course.bridge.rules import Course  # noqa: E402  (builds the course's states)
from game_state_divercite import GameStateDivercite  # noqa: E402  (the course's code)
from player_divercite import PlayerDivercite  # noqa: E402,F401  (for the tests)
from course_master import free_port, interrupt, play_game  # noqa: E402,F401  (for the tests)

_COURSE = Course()


@contextlib.contextmanager
def environment(**values):
    """Sets (a value) or removes (None) environment variables for the block."""
    saved = {key: os.environ.get(key) for key in values}
    try:
        for key, value in values.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = str(value)
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


# The player's own variables, cleared so that the caller's shell does not leak in.
CLEAN = dict(DIVERCITE_ENGINE=str(ENGINE), DIVERCITE_OPTIONS=None, DIVERCITE_MOVETIME=None,
             DIVERCITE_PACE=None, DIVERCITE_PLAYER_LOG=None)


def initial_state(first, second) -> GameStateDivercite:
    """The course's start state, built as main_divercite.py's play() builds it (by the course
    bridge, divercite.course.bridge)."""
    return _COURSE.initial_state([first, second])


def move_name(action) -> str:
    row, column = action.data["position"]
    return f"{action.data['piece']}{row}{column}"


def legal_names(state) -> set[str]:
    return {move_name(a) for a in state.generate_possible_light_actions()}


def reaped(pid: int) -> bool:
    """True if `pid` is no child of ours any more (neither running nor a zombie)."""
    try:
        waited, _ = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        pass  # not our child: reaped already
    else:
        return False  # 0: still running; pid: it was a zombie that we just reaped
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return f"PPid:\t{os.getpid()}\n" not in status  # the pid was reused by someone else


def children_named(name: str) -> list[int]:
    """Our child processes (running or zombie) whose process name is `name`."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError):
            text = status.read_text()
            if f"PPid:\t{os.getpid()}\n" in text and f"Name:\t{name[:15]}\n" in text:
                found.append(int(status.parent.name))
    return found


def write_script(folder: Path, name: str, body: str) -> Path:
    path = folder / name
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent(body))
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return path


# A protocol engine whose behaviour on `go` is chosen by its name: it answers uci (with the
# real engine's main options) and isready like the real one, then on go: "crash" exits with
# code 5, "hang" never answers (not even to stop), "needs_stop" answers `bestmove BC14` only
# after `stop`, "record" answers `bestmove BC14` at once; "rejects" answers an error to any
# setoption of Threads. Each writes the lines it receives to the file named by
# FAKE_ENGINE_RECORD, if set.
FAKE_ENGINE = """\
import os, sys
mode = os.path.basename(sys.argv[0]).split(".")[0]
record = os.environ.get("FAKE_ENGINE_RECORD")
for line in sys.stdin:
    if record:
        with open(record, "a") as f:
            f.write(line)
    words = line.split()
    word = words[0] if words else ""
    if word == "uci":
        print("id name fake\\n"
              "option name Hash type spin default 16 min 1 max 65536\\n"
              "option name Threads type spin default 1 min 1 max 256\\n"
              "option name MoveOverhead type spin default 30 min 0 max 5000\\n"
              "option name Agent type combo default engine var engine var skypiea_v5\\n"
              "uciok", flush=True)
    elif word == "setoption" and mode == "rejects" and words[2].lower() == "threads":
        print("info string error: setoption: Threads: not on this machine", flush=True)
    elif word == "isready":
        print("readyok", flush=True)
    elif word == "go":
        if mode == "crash":
            print("fake engine: crashing on go", file=sys.stderr, flush=True)
            sys.exit(5)
        if mode == "record":
            print("info depth 1 time 0\\nbestmove BC14", flush=True)
    elif word == "stop" and mode == "needs_stop":
        print("bestmove BC14", flush=True)
    elif word == "quit" and mode != "hang":
        break
"""
