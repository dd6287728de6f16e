"""The course's own framework for the Python package's tests: its folders on sys.path, its
start state, its states along a game, and its master run headless in a subprocess.

DIVERCITE_COURSE_DIR (ctest sets it; default ../shared/course beside the checkout) holds the
course's divercite/ and seahorse/ folders.
"""

import contextlib
import os
import subprocess
import sys
from pathlib import Path

from reference_data import REPO

COURSE_DIR = Path(os.environ.get("DIVERCITE_COURSE_DIR")
                  or Path(REPO).parent / "shared" / "course")
MAIN = COURSE_DIR / "divercite" / "main_divercite.py"
GREEDY = COURSE_DIR / "divercite" / "greedy_player_divercite.py"
RANDOM = COURSE_DIR / "divercite" / "random_player_divercite.py"
AGENTS = Path(__file__).resolve().parent / "agents"
for folder in (COURSE_DIR / "divercite", COURSE_DIR / "seahorse"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
# The course bridge (divercite.course.bridge) builds the course's start state as
# main_divercite.py does: the project's one copy of that set-up.
from divercite.course.bridge.rules import Course  # noqa: E402

sys.path.insert(0, str(Path(REPO) / "tests"))
from course_master import free_port, interrupt, wait_for_verdict  # noqa: E402
from game_state_divercite import GameStateDivercite  # noqa: E402,F401  (for the tests)
from player_divercite import PlayerDivercite  # noqa: E402

_COURSE = Course()


def players(names=("first", "second"), ids=(None, None)):
    """The course's two plain players, first ("W") and second ("B")."""
    return [PlayerDivercite(t, name=n, id=i) for t, n, i in zip("WB", names, ids)]


def initial_state(first, second):
    """The course's start state, built as main_divercite.py's play() builds it."""
    return _COURSE.initial_state([first, second])


def course_states(moves, start):
    """The course's states from `start` along `moves`, played by its own apply_action."""
    from seahorse.game.light_action import LightAction
    states = [start]
    for move in moves:
        action = LightAction({"piece": move[:2], "position": (int(move[2]), int(move[3]))})
        states.append(states[-1].apply_action(action))
    return states


def run_master(player_files, folder, record=False, timeout=120):
    """Runs a headless game of the course's master (`-t local`) in `folder` between two player
    files; returns the master's log once its VERDICT line is written (and the master has
    exited, or was interrupted as a student's Ctrl-C would: its shutdown sometimes hangs)."""
    # A free port can be taken between the probe and the master's bind (beside other tests):
    # the master then stops before any move, and the game is started again on another port.
    for _ in range(5):
        log = _run_master_on(free_port(), player_files, folder, record, timeout)
        if "VERDICT" in log or "address already in use" not in log:
            return log
    return log


# seahorse 1.1.3 writes a recording (`-r`) when its StateRecorder's socket.io client sees its
# connection end, and ends a game by cancelling every asyncio task in the order of a set of
# tasks, that is of their memory addresses. If the recorder's own read loop is cancelled
# before the server's handler of its connection, the close never reaches it and no file is
# written, the game otherwise fine. Which order comes is fixed by what the process imported
# before: with Debian's python3-gunicorn installed (aiohttp imports it, for its gunicorn
# worker, whenever it is importable) no recording is ever written here, and importing
# tkinter or statistics as well turns it back. So the master runs through this bootstrap,
# the course's files untouched: it hands seahorse the tasks with the clients' loops last, so
# that every connection is closed by the server's side first, as in the runs that record.
_LISTENERS_LAST = """
import asyncio, os, runpy, sys
all_tasks = asyncio.all_tasks
asyncio.all_tasks = lambda loop=None: sorted(all_tasks(loop), key=lambda task: getattr(
    task.get_coro(), "__qualname__", "").startswith("AsyncClient."))
sys.argv = sys.argv[1:]
sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))  # as for the script itself
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _run_master_on(port, player_files, folder, record, timeout):
    # The course's seahorse, then ours (the divercite package, for the agents that use it).
    import divercite
    path = [str(COURSE_DIR / "seahorse"), str(Path(divercite.__file__).resolve().parents[1])]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=os.pathsep.join(path))
    command = [sys.executable, "-c", _LISTENERS_LAST, str(MAIN), "-t", "local", "-g", "-l",
               "INFO", "-p", str(port)] + (["-r"] if record else []) + \
        [str(p) for p in player_files]
    log_path = Path(folder) / "master.log"
    with open(log_path, "w") as log:
        process = subprocess.Popen(command, cwd=folder, env=env, stdout=log,
                                   stderr=subprocess.STDOUT)
    try:
        assert wait_for_verdict(log_path, process, timeout), log_path.read_text()[-3000:]
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
    finally:
        interrupt(process)
    return log_path.read_text()
