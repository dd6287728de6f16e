"""Students' habits through the bridge: every game behaves like the first (issue 22).

Each agent named in HABITS keeps one habit of real students' agents: state in class attributes
or module globals set on the first move, a functools.lru_cache, sibling modules and data
files, finding itself in the state, planning with remaining_time, printing and logging on
stdout, unseeded random and numpy, an unserialisable public attribute, and failing on its 3rd
move (raising, returning None or an illegal action, hanging). The course's framework starts a
new Python process for every game, so such agents work there; these tests check that they
play in the course's own framework (main_divercite.py) as the course plays them, and that
through the bridge under divercite-match games 2 to 4 go as game 1 did, with both colours.

Run by ctest, or by hand from this folder: /usr/bin/python3 -m unittest -v test_course_habits
"""

import concurrent.futures
import os
import shutil
import statistics
import subprocess
import sys
import time
import unittest

from bridge_support import (AGENTS, COURSE, ENGINE, MATCH, PROTOCOL_LINE, RANDOM, SEAHORSE,
                            SOURCE, WRAPPER, CourseEngineTestCase, agent, finish_match, free_port,
                            wrapper)

# The agent's clock under divercite-match (the hanging agent's is short: it loses on time).
AGENT_TC = "tc=30"
HANGING_TC = "tc=1"
# How each habit agent's games end. Through the bridge: (termination, what the record's reason
# holds) for every one of its 4 games. In the course's framework, against its random player:
# (the exit code of main_divercite.py, or None if it is still running after
# COURSE_HANG_SECONDS; the text its output holds).
NORMAL = ("normal", "")
WON = (0, "has won the game")
HABITS = {
    "class_state": (NORMAL, WON),
    "globals": (NORMAL, WON),
    "whoami": (NORMAL, WON),
    "clock_planner": (NORMAL, WON),
    "packaged": (NORMAL, WON),
    "noisy": (NORMAL, WON),
    "unseeded": (NORMAL, WON),
    "unserialisable": (NORMAL,
                       (1, "AttributeError: '_thread.lock' object has no attribute 'to_json'")),
    "late_raising": (("crash", "IndexError in late_raising_player.py, line "),
                     (1, "IndexError: third move")),
    "late_none": (("illegal", "(engine said: MyPlayer.compute_action returned None)"),
                  (1, "'NoneType' object has no attribute 'get_heavy_action'")),
    "late_illegal": (("illegal", "(engine said: MyPlayer.compute_action returned an illegal "
                                 "move"),
                     (0, "late_illegal_player_1 has been disqualified")),
    "hanging": (("time", "hanging: no bestmove within"), (None, "")),
}
FAILS_ON_THIRD_MOVE = ("late_raising", "late_none", "late_illegal", "hanging")
# How long the hanging agent's course game is given to show that it hangs; the others' games
# end by themselves.
COURSE_HANG_SECONDS = 4.0


def habit_agent(name):
    if name == "packaged":
        return os.path.join(AGENTS, "packaged", "packaged_player.py")
    return agent(name)


def in_parallel(function, items):
    """function(item) for each item, two at a time (CI has two cores): {item: result}."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(items, pool.map(function, items)))


def protocol_log(path):
    """(game, engine, direction, line) of every line of a divercite-match -log file."""
    entries = []
    with open(path) as log:
        for text in log:
            _, _, game, engine, direction, line = text.rstrip("\n").split(" ", 5)
            entries.append((int(game), engine, direction, line))
    return entries


class HabitsInTheCourseFrameworkTest(CourseEngineTestCase):
    """The habits are the course's: each agent plays in main_divercite.py as students ran it."""

    def test_each_habit_agent_plays_as_the_course_plays_it(self):
        def play(name):
            # Its master listens on a port even without a GUI: one of its own for each game.
            # A free port can be taken between the probe and the master's bind (the games run
            # in parallel, beside other tests): the master then stops at once, before any
            # move, and the game is started again on another port.
            for _ in range(5):
                code, output = play_on(name, free_port())
                if code == 0 or "address already in use" not in (output or ""):
                    break
            return code, output

        def play_on(name, port):
            command = [sys.executable, "main_divercite.py", "-t", "local", "-g", "-l", "INFO",
                       "-p", str(port), habit_agent(name), RANDOM]
            env = dict(os.environ, PYTHONPATH=os.pathsep.join(
                [SEAHORSE] + os.environ.get("PYTHONPATH", "").split(os.pathsep)))
            process = subprocess.Popen(command, cwd=COURSE, env=env, stdout=subprocess.PIPE,
                                       stderr=subprocess.STDOUT, text=True)
            try:
                output, _ = process.communicate(
                    timeout=COURSE_HANG_SECONDS if name == "hanging" else 120)
                return process.returncode, output
            except subprocess.TimeoutExpired:
                process.kill()
                return None, process.communicate()[0]

        results = in_parallel(play, list(HABITS))
        for name, (code, output) in results.items():
            expected_code, expected_text = HABITS[name][1]
            with self.subTest(agent=name):
                self.assertEqual(code, expected_code, output[-2000:])
                self.assertIn(expected_text, output)


class HabitsThroughTheBridgeTest(CourseEngineTestCase):
    """Four games of each habit agent against the engine under divercite-match."""

    def test_games_two_to_four_go_as_the_first(self):
        clock_log = os.path.join(self.temp, "clock.log")

        def match(name):
            records = os.path.join(self.temp, f"{name}.jsonl")
            log = os.path.join(self.temp, f"{name}.protocol")
            arguments = [MATCH, "-engine", f"cmd={WRAPPER}", f"arg={habit_agent(name)}",
                         f"name={name}", HANGING_TC if name == "hanging" else AGENT_TC,
                         "-engine", f"cmd={ENGINE}", "name=engine", "depth=1",
                         "-games", "4", "-repeat", "-openings", "random", "plies=2", "-seed",
                         "1", "-log", f"file={log}", "-records", records]
            with open(records + ".log", "w") as output:
                process = subprocess.Popen(arguments, stdout=output, stderr=subprocess.STDOUT,
                                           env=dict(os.environ,
                                                    COURSE_ENGINE_CLOCK_LOG=clock_log))
            process.wait(timeout=120)
            return process, records, log

        played = in_parallel(match, list(HABITS))
        for name, (process, records_path, log) in played.items():
            termination, reason = HABITS[name][0]
            with self.subTest(agent=name):
                records, output = finish_match(self, process, records_path)
                self.assertEqual(len(records), 4, output)
                self.assertEqual([r["p1"] == name for r in records], [True, False] * 2)
                for record in records:
                    self.assertEqual(record["termination"], termination, record["reason"])
                    self.assertIn(reason, record["reason"])
                    if name in FAILS_ON_THIRD_MOVE:
                        # Two moves of its own, then the third fails, in every game.
                        self.assertEqual(len(record["moves"]), 4 if record["p1"] == name else 5)
                lines = [(game, line) for game, engine, direction, line in protocol_log(log)
                         if engine == name and direction == "<"]
                for _, line in lines:
                    self.assertTrue(PROTOCOL_LINE.fullmatch(line), line)
                warnings = [game for game, line in lines
                            if line.startswith("info string warning:")]
                self.assertEqual(warnings, [1, 2, 3, 4] if name == "unserialisable" else [])

        # The planner's clock: the full 30 s at the start of every game, then going down.
        with open(clock_log) as lines:
            seen = [tuple(float(x) for x in line.split()) for line in lines]
        games, previous_step = [], None
        for remaining, step in seen:
            if previous_step is None or step < previous_step:
                games.append([])
            games[-1].append(remaining)
            previous_step = step
        self.assertEqual(len(games), 4, seen)
        for clocks in games:
            self.assertEqual(len(clocks), 19)  # 40 plies, 2 of them the opening's
            self.assertEqual(clocks[0], 30.0)
            for earlier, later in zip(clocks, clocks[1:]):
                self.assertLess(later, earlier, clocks)


class OneGameOneProcessTest(CourseEngineTestCase):
    """The bridge's side of the contract, over the protocol."""

    def test_stop_and_overtime_end_a_hanging_agent_and_the_next_is_fresh(self):
        engine = wrapper(self, agent("hanging"))
        engine.ask("uci", "uciok")
        moves = []

        def go(limits="wtime 60000 btime 60000", timeout=5.0):
            engine.send("position startpos moves " + " ".join(moves))
            return engine.ask(f"go {limits}", "bestmove", timeout=timeout)

        for _ in range(2):  # its first two moves, and the engine's (played here by hand)
            moves.append(go()[-1].split()[1])
            moves.append(go()[-1].split()[1])
        engine.send("position startpos moves " + " ".join(moves), "go")
        self.assertTrue(engine.nothing_within(0.5))  # its third move hangs
        start = time.monotonic()
        self.assertEqual(engine.ask("stop", "bestmove", timeout=2.0)[-1], "bestmove (none)")
        self.assertLess(time.monotonic() - start, 1.0)
        # The game goes on with a fresh process for the first side: it plays again.
        answer = go()
        self.assertRegex(answer[-1], r"^bestmove [RGBY][CR]\d\d$")
        moves.append(answer[-1].split()[1])
        # The second side's third move hangs past its clock: killed 1 s after it ran out.
        start = time.monotonic()
        answer = go("wtime 200 btime 200")
        self.assertEqual(answer[-1], "bestmove (none)")
        self.assertIn("had not returned 1 s after its remaining_time (0.2 s) ran out", answer[0])
        self.assertLess(time.monotonic() - start, 3.0)
        # A new game: fresh agents play at once.
        engine.send("ucinewgame", "position startpos")
        self.assertRegex(engine.ask("go", "bestmove")[-1], r"^bestmove [RGBY][CR]\d\d$")
        engine.send("quit")
        self.assertEqual(engine.process.wait(timeout=5), 0)

    def test_start_up_cost_per_game(self):
        """The first move of each new game, against the agent's later moves: the next game's
        process is started ahead, so the start-up is not on the clock."""
        engine = wrapper(self, agent("whoami"))
        engine.ask("isready", "readyok")
        first, later = [], []
        for _ in range(6):
            engine.send("ucinewgame")
            engine.ask("isready", "readyok")
            time.sleep(0.3)  # the runner's own pause between games is about this
            moves = []
            for ply in range(3):
                engine.send("position startpos moves " + " ".join(moves))
                start = time.monotonic()
                moves.append(engine.ask("go wtime 60000 btime 60000", "bestmove")[-1].split()[1])
                if ply != 1:  # the second ply is the other side's first move
                    (first if ply == 0 else later).append(time.monotonic() - start)
        sys.stderr.write(f"\nfirst move of a game: median {statistics.median(first) * 1000:.0f} "
                         f"ms, max {max(first) * 1000:.0f} ms; a later move: median "
                         f"{statistics.median(later) * 1000:.0f} ms\n")
        self.assertLess(statistics.median(first), 1.0)

    def test_no_course_found_is_a_clear_error(self):
        """With no course beside the agent, no DIVERCITE_COURSE_DIR and none beside the
        repository (a copy of the launcher and the package elsewhere), the bridge says where
        it looked."""
        # Two levels down, so that neither layout the package looks at (<repo>/../shared,
        # <repo>/build/../../shared) reaches above the test's own folder.
        repo = os.path.join(self.temp, "nested", "repo")
        copy = os.path.join(repo, "tools", "seahorse")
        shutil.copytree(os.path.join(SOURCE, "python", "divercite"),
                        os.path.join(repo, "python", "divercite"))
        os.makedirs(copy)
        for launcher in ("course_engine.py", "divercite_package.py"):
            shutil.copy(os.path.join(SOURCE, "tools", "seahorse", launcher), copy)
        env = {k: v for k, v in os.environ.items()
               if k not in ("DIVERCITE_COURSE_DIR", "DIVERCITE_ENGINE")}
        result = subprocess.run([os.path.join(copy, "course_engine.py"), agent("whoami")],
                                input="uci\n", capture_output=True, text=True, timeout=30,
                                env=env)
        self.assertEqual(result.returncode, 2)
        self.assertEqual(result.stdout, "")
        self.assertIn("cannot find the course's Divercité folder", result.stderr)
        self.assertIn("DIVERCITE_COURSE_DIR is unset", result.stderr)
        self.assertIn("Give --course DIR", result.stderr)


if __name__ == "__main__":
    unittest.main()
