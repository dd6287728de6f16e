"""What the tests of the course bridge share: paths, the course's own code as referee,
the bridge and the match runner as processes.

The variables DIVERCITE_ENGINE, DIVERCITE_MATCH (the built binaries), DIVERCITE_COURSE_DIR
(the course root or its divercite folder) and DIVERCITE_SOURCE_DIR default to this
repository's build/ and ../shared/course.
"""

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.environ.get("DIVERCITE_SOURCE_DIR") or os.path.dirname(os.path.dirname(HERE))
ENGINE = os.environ.get("DIVERCITE_ENGINE") or os.path.join(SOURCE, "build", "bin", "divercite")
MATCH = os.environ.get("DIVERCITE_MATCH") or os.path.join(SOURCE, "build", "bin",
                                                          "divercite-match")
COURSE_ROOT = os.environ.get("DIVERCITE_COURSE_DIR") or os.path.join(
    os.path.dirname(SOURCE), "shared", "course")
COURSE = (os.path.join(COURSE_ROOT, "divercite")
          if os.path.isdir(os.path.join(COURSE_ROOT, "divercite")) else COURSE_ROOT)
SEAHORSE = os.path.join(os.path.dirname(COURSE), "seahorse")
REFERENCE_GAMES = os.environ.get("DIVERCITE_REFERENCE_GAMES") or os.path.join(
    os.path.dirname(SOURCE), "shared", "reference", "games.jsonl")
WRAPPER = os.path.join(SOURCE, "tools", "seahorse", "course_engine.py")
AGENTS = os.path.join(HERE, "agents")
GREEDY = os.path.join(COURSE, "greedy_player_divercite.py")
RANDOM = os.path.join(COURSE, "random_player_divercite.py")

# The course's own code, imported from where it lies, as the referee of these tests.
sys.path[:0] = [COURSE, SEAHORSE]
from board_divercite import BoardDivercite  # noqa: E402
from game_state_divercite import GameStateDivercite  # noqa: E402
from player_divercite import PlayerDivercite  # noqa: E402
from seahorse.game.heavy_action import HeavyAction  # noqa: E402
from seahorse.game.light_action import LightAction  # noqa: E402

# tests/: the course master's helpers, shared with the other tests and the benches.
sys.path.insert(0, os.path.dirname(HERE))
from course_master import free_port  # noqa: E402,F401  (for the tests)

# Every line the wrapper may write on stdout.
PROTOCOL_LINE = re.compile(
    r"(id (name|author) .+|option name Seed type spin default 0 min 0 max 2147483647|"
    r"uciok|ugiok|readyok|bestmove ([RGBY][CR][0-8][0-8]|\(none\))|info time \d+|"
    r"info string .+|response .+|fen .+|scores -?\d+ -?\d+|result .+)")


def agent(name):
    return os.path.join(AGENTS, f"{name}_player.py")


# --------------------------------------------------------------------------------------
# The course's side: its start state, and games replayed through its apply_action.


def course_start_state():
    """The initial state exactly as the course's main_divercite.py builds it."""
    players = [PlayerDivercite("W", name="first"), PlayerDivercite("B", name="second")]
    left = {p.get_id(): {c + t: (3 if t == "R" else 2) for c in "RGBY" for t in "CR"}
            for p in players}
    return GameStateDivercite(scores={p.get_id(): 0 for p in players}, next_player=players[0],
                              players=players, rep=BoardDivercite(env={}, dim=[9, 9]), step=0,
                              players_pieces_left=left), players


def light_action(move):
    return LightAction({"piece": move[:2], "position": (int(move[2]), int(move[3]))})


def course_replay(moves, test):
    """The course's state after `moves`, each checked legal by the course's own generator."""
    state, players = course_start_state()
    for number, move in enumerate(moves, 1):
        action = light_action(move)
        test.assertIn(action, state.get_possible_light_actions(), f"move {number} {move}")
        state = state.apply_action(action)
    return state, players


def action_move(action):
    if isinstance(action, HeavyAction):
        before = action.get_current_game_state().get_rep().get_env()
        after = action.get_next_game_state().get_rep().get_env()
        (cell,) = [c for c in after if c not in before]
        return f"{after[cell].get_type()[:2]}{cell[0]}{cell[1]}"
    return f"{action.data['piece']}{action.data['position'][0]}{action.data['position'][1]}"


def reference_games():
    if not os.path.isfile(REFERENCE_GAMES):
        return []
    with open(REFERENCE_GAMES) as games:
        return [json.loads(line) for line in games if line.strip()]


# --------------------------------------------------------------------------------------
# Processes.


class Protocol:
    """A wrapper (or engine) process spoken to over pipes, with every stdout line kept."""

    def __init__(self, test, argv, env=None, stderr_path=None):
        self.stderr = open(stderr_path or os.devnull, "w")
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=self.stderr, text=True, bufsize=1,
                                        env=env)
        self.lines = []  # everything read so far
        self.queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        test.addCleanup(self.close)

    def _read(self):
        for line in self.process.stdout:
            self.queue.put(line.rstrip("\n"))
        self.queue.put(None)

    def send(self, *lines):
        for line in lines:
            self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, timeout):
        """The next line, or None at the end of the output; raises queue.Empty on timeout."""
        line = self.queue.get(timeout=timeout)
        if line is not None:
            self.lines.append(line)
        return line

    def until(self, prefix, timeout=10.0):
        """The lines read up to and including the first one starting with `prefix`."""
        deadline = time.monotonic() + timeout
        seen = []
        while True:
            line = self.read(max(deadline - time.monotonic(), 0.001))
            if line is None:
                raise AssertionError(f"output ended waiting for {prefix!r}; saw {seen}")
            seen.append(line)
            if line.startswith(prefix):
                return seen

    def ask(self, command, prefix, timeout=10.0):
        self.send(command)
        return self.until(prefix, timeout)

    def nothing_within(self, seconds):
        try:
            line = self.read(seconds)
        except queue.Empty:
            return True
        raise AssertionError(f"unexpected line {line!r}")

    def display(self):
        """fen, scores and result, from `d`."""
        lines = self.ask("d", "result ")
        return [line for line in lines if line.split()[0] in ("fen", "scores", "result")]

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        self.stderr.close()


def wrapper(test, agent_path, *options, env=None, stderr_path=None):
    return Protocol(test, [WRAPPER, *options, agent_path], env=env, stderr_path=stderr_path)


def run_match(arguments, records_path, env=None):
    """Starts divercite-match; returns the process (stdout and stderr to files)."""
    log = open(records_path + ".log", "w")
    process = subprocess.Popen([MATCH, *arguments, "-records", records_path], stdout=log,
                               stderr=subprocess.STDOUT, env=env)
    log.close()
    return process


def finish_match(test, process, records_path, timeout=120):
    code = process.wait(timeout=timeout)
    with open(records_path + ".log") as log:
        output = log.read()
    test.assertEqual(code, 0, output)
    with open(records_path) as records:
        return [json.loads(line) for line in records if line.strip()], output


# --------------------------------------------------------------------------------------


class CourseEngineTestCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        for path in (WRAPPER, ENGINE, MATCH, GREEDY, RANDOM):
            if not os.path.exists(path):
                raise AssertionError(f"missing {path}: build the project and check "
                                     "DIVERCITE_COURSE_DIR")

    def setUp(self):
        self.temp = tempfile.mkdtemp(prefix="course_engine_test_")
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)
