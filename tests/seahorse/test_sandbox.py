"""Untrusted agents in the sandbox (course_engine.py --sandbox, issue 34): hostile agents are
stopped with the reason in their game's record and touch nothing outside; the students'
habits still play.

Each hostile agent (agents/hostile/hostile_player.py) lies in a team folder of its own
beside another team's, as a class's agents do, and makes one attack on its first move, under
divercite-match against the engine. Every attack is bounded in count and time, so that a
missing sandbox would fail these tests without harming the machine.

Run by ctest, or by hand from this folder: /usr/bin/python3 -m unittest -v test_sandbox
"""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import unittest

from bridge_support import (AGENTS, ENGINE, HERE, WRAPPER, CourseEngineTestCase, finish_match,
                            run_match)
from test_course_habits import HABITS, habit_agent, in_parallel

HOSTILE = os.path.join(AGENTS, "hostile", "hostile_player.py")
FORKING_ENGINE = os.path.join(HERE, "engines", "forking_engine.py")
# The package with its compiled core: the build tree's, beside the engine.
PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(ENGINE))), "python")
SIMPLE_MOVES = os.path.join(AGENTS, "simple_moves.py")
# A small memory limit: the memory attack stops early, and hurts nothing if unconfined.
SANDBOX = ["--sandbox", "--memory-mb", "256"]
# For a bridge's start (it stages the sandbox's files and checks that the agent imports) on
# a loaded machine: the runner's default, 10 s, is for engines that start at once.
STARTUP = ["-startuptimeout", "60"]
ILLEGAL = "illegal"


def sandboxed(agent_path, *options):
    return [f"cmd={WRAPPER}"] + [f"arg={option}" for option in SANDBOX + list(options)] + [
        f"arg={agent_path}"]


def processes_with(text):
    """The command lines of this machine's processes that hold `text`."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                line = command.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in line:
            found.append(line)
    return found


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections it gets."""

    def __init__(self, test):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()
        test.addCleanup(self.socket.close)

    def _accept(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()


class HostileAgentsTest(CourseEngineTestCase):
    """Each attack is stopped; the game is recorded with why; nothing outside is touched."""

    def team(self, name, attack, target=None, marker=None):
        """A team folder holding the hostile agent ordered to make `attack`."""
        folder = os.path.join(self.temp, "class", name)
        os.makedirs(folder)
        shutil.copy(HOSTILE, os.path.join(folder, "my_player.py"))
        shutil.copy(SIMPLE_MOVES, folder)
        with open(os.path.join(folder, "attack.json"), "w") as orders:
            json.dump({"attack": attack, "target": target, "marker": marker}, orders)
        return os.path.join(folder, "my_player.py")

    def play(self, name, agent_path, games=1, opponent="depth=1"):
        records = os.path.join(self.temp, f"{name}.jsonl")
        process = run_match(["-engine", *sandboxed(agent_path), f"name={name}", "tc=20",
                             "-engine", f"cmd={ENGINE}", "name=engine", opponent,
                             "-games", str(games), "-seed", "1", *STARTUP], records)
        return finish_match(self, process, records)

    def test_attacks_are_stopped_and_recorded(self):
        # Another team's agent, and a file of the runner's, that no agent may read.
        other = os.path.join(self.temp, "class", "other_team")
        os.makedirs(other)
        secret = os.path.join(other, "my_player.py")
        with open(secret, "w") as text:
            text.write("# another team's agent\n")
        planted = os.path.join(self.temp, "class", "planted.txt")
        listener = Listener(self)
        marker = f"{os.getpid() % 1000}.{threading.get_ident() % 100000}"
        attacks = {
            # name: (attack, target, termination, what the record's reason holds)
            "reader": ("read", secret, ILLEGAL, "FileNotFoundError"),
            # Its /tmp is its own: the file is written there, and is gone with the game.
            "writer": ("write", planted, "normal", ""),
            "network": ("connect", listener.port, ILLEGAL, "ConnectionRefusedError"),
            "forker": ("fork", None, ILLEGAL, "process limit"),
            "hog": ("memory", None, ILLEGAL, "memory limit"),
            "cores": ("cores", None, "normal", ""),
            "lingerer": ("linger", marker, "normal", ""),
        }
        paths = {name: self.team(name, attack, target, marker)
                 for name, (attack, target, _, _) in attacks.items()}
        played = in_parallel(lambda name: self.play(name, paths[name]), list(attacks))
        for name, (records, output) in played.items():
            _, _, termination, reason = attacks[name]
            with self.subTest(agent=name):
                self.assertEqual(len(records), 1, output)
                self.assertEqual(records[0]["termination"], termination, records[0]["reason"])
                self.assertIn(reason, records[0]["reason"])
        self.assertFalse(os.path.exists(planted))
        self.assertEqual(listener.connections, 0)
        # Nothing an agent started outlives its game: not the forker's children, not the
        # lingerer's detached sleep, not a sandbox.
        self.assertEqual(processes_with(f"sleep {marker}"), [])
        self.assertEqual(processes_with(os.path.join(self.temp, "class")), [])

    def test_nothing_of_the_agent_runs_while_its_opponent_thinks(self):
        # The opponent thinks 0.5 s a move: a process left running would get about 1 s by
        # the agent's third move.
        path = self.team("background", "background")
        records, output = self.play("background", path, opponent="st=0.5")
        self.assertEqual(records[0]["termination"], "normal", records[0]["reason"])

    def test_files_written_beside_the_agent_stay_in_its_game(self):
        path = self.team("beside", "beside")
        records, output = self.play("beside", path, games=2)
        self.assertEqual([r["termination"] for r in records], ["normal"] * 2, output)
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(path), "seen.txt")))


class SandboxedEngineTest(CourseEngineTestCase):
    """Any engine through python3 -m divercite.sandbox.run: ours plays as outside; a forking
    one is stopped with the reason, and nothing it started survives its game."""

    def engine(self, program, name):
        return [f"cmd={sys.executable}", "arg=-m", "arg=divercite.sandbox.run",
                "arg=--memory-mb", "arg=512", f"arg={program}", f"name={name}"]

    def play(self, name, engine, limit):
        records = os.path.join(self.temp, f"{name}.jsonl")
        environment = dict(os.environ, PYTHONPATH=PACKAGE)
        process = run_match(["-engine", *engine, limit, "-engine", f"cmd={ENGINE}",
                             "name=plain", "depth=2", "-games", "2", "-seed", "1", *STARTUP],
                            records, env=environment)
        return finish_match(self, process, records)

    def test_our_engine_plays_in_the_sandbox(self):
        records, output = self.play("boxed", self.engine(ENGINE, "boxed"), "depth=2")
        self.assertEqual([r["termination"] for r in records], ["normal"] * 2, output)

    def test_a_forking_engine_is_stopped(self):
        records, output = self.play("forking", self.engine(FORKING_ENGINE, "forking"), "tc=10")
        self.assertEqual(len(records), 2, output)
        for record in records:
            self.assertIn("process limit", record["reason"])
        self.assertEqual(processes_with(FORKING_ENGINE), [])


class HabitsInTheSandboxTest(CourseEngineTestCase):
    """The students' habits of issue 22 play inside the sandbox as they do outside it."""

    def test_each_habit_agent_plays_as_without_the_sandbox(self):
        def match(name):
            records = os.path.join(self.temp, f"{name}.jsonl")
            process = run_match(
                ["-engine", *sandboxed(habit_agent(name)), f"name={name}",
                 "tc=1" if name == "hanging" else "tc=30",
                 "-engine", f"cmd={ENGINE}", "name=engine", "depth=1", "-games", "2",
                 "-repeat", "-openings", "random", "plies=2", "-seed", "1", *STARTUP],
                records)
            return finish_match(self, process, records)

        played = in_parallel(match, list(HABITS))
        for name, (records, output) in played.items():
            termination, reason = HABITS[name][0]
            with self.subTest(agent=name):
                self.assertEqual(len(records), 2, output)
                for record in records:
                    self.assertEqual(record["termination"], termination, record["reason"])
                    self.assertIn(reason, record["reason"])


class SandboxRefusalsTest(unittest.TestCase):
    def test_limits_without_the_sandbox_are_refused(self):
        result = subprocess.run([WRAPPER, "--memory-mb", "100", HOSTILE],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("need --sandbox", result.stderr)


if __name__ == "__main__":
    unittest.main()
