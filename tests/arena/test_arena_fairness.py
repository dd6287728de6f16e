"""Games on a busy worker (issue 57): a real game of a team's agent through the bridge, in the
sandbox, with the runner's -cputime, on this machine with its cores taken by busy processes
and then free.

An agent that needs 0.1 s of processor time a move (2 s of its 5 s clock) loses on time on
the loaded machine, and the loss is the worker's (play/fairness.py: it had a small share of a
core while it could run): marked, it would count nowhere and be played again. The same agent
on the free machine plays its game to the end. Our engine's house level, which searches its
nodes and never a clock, plays on the loaded machine without a time loss.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_fairness
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

from arena_support import COURSE, package_environment

from divercite.arena.play import fairness, house, runner

# Busy work measured in processor time, not on the clock: on a starved core it takes longer.
WORKER = """import time
from player_divercite import PlayerDivercite


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="worker"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        start = time.process_time()
        while time.process_time() - start < 0.1:
            pass
        return next(iter(current_state.get_possible_light_actions()))
"""
CLOCK = 5.0
# Busy processes a core: the agent gets about a ninth of one.
SPINNERS_A_CORE = 8


class Spinners:
    """`count` processes that keep a core busy each, until the block ends: each in a session
    of its own, as other jobs' processes are (Linux's autogroup shares the cores between
    sessions, the sandbox's agent being one)."""

    def __init__(self, count: int):
        self.count = count

    def __enter__(self):
        self.processes = [subprocess.Popen([sys.executable, "-c", "while True: pass"],
                                           start_new_session=True)
                          for _ in range(self.count)]
        return self

    def __exit__(self, *exc):
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait()


class BusyWorkerTest(unittest.TestCase):
    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="arena_fairness_"))
        self.agent = self.temp / "worker" / "my_player.py"
        self.agent.parent.mkdir()
        self.agent.write_text(WORKER)
        self.cores = os.cpu_count() or 1
        # The runner's bridge imports the package from its environment.
        environment = mock.patch.dict(os.environ, package_environment())
        environment.start()
        self.addCleanup(environment.stop)

    def play(self, opponent: house.Seat, agent=True):
        team = house.Seat(name="worker", kind="team", version=1, tc=CLOCK)
        seats = [team, opponent] if agent else [opponent, house.Seat(
            name="greedy", kind="house", version=2, tc=CLOCK, house="greedy")]
        agents = [self.agent, None] if agent else [None, None]
        return runner.play_game(seats, agents, str(COURSE / "divercite"), self.temp,
                                threading.Event()).record

    def test_a_time_loss_on_a_loaded_worker_is_the_worker_s(self):
        greedy = house.Seat(name="greedy", kind="house", version=2, tc=CLOCK, house="greedy")
        with Spinners(SPINNERS_A_CORE * self.cores):
            loaded = self.play(greedy)
        self.assertEqual((loaded.result, loaded.termination), ("0-1", "time"), loaded.reason)
        why = fairness.starved(loaded, 0.7)
        self.assertIsNotNone(why, (loaded.cpu, loaded.wait))
        self.assertTrue(why.startswith("worker overloaded: worker had "), why)
        free = self.play(greedy)
        self.assertEqual(free.termination, "normal", free.reason)
        self.assertIsNone(fairness.starved(free, 0.7))
        # Its processor time is the work it did: 0.1 s a move.
        self.assertGreaterEqual(free.cpu[0], 20 * 100 * 0.9, free.cpu)

    def test_the_house_engine_never_loses_on_time_on_a_loaded_worker(self):
        level = house.Seat(name="engine-40k", kind="house", version=3,
                           tc=house.HOUSE["engine-40k"].seconds(CLOCK), house="engine-40k")
        with Spinners(SPINNERS_A_CORE * self.cores):
            for _ in range(2):
                record = self.play(level, agent=False)
                self.assertEqual(record.termination, "normal", record.reason)


if __name__ == "__main__":
    unittest.main()
