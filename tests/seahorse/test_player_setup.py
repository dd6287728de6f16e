"""Tests of how tools/seahorse/divercite_player.py is set up, in the course's real framework:
where it finds the engine, which engine options it takes, the lines it sends, and its pace
against a human at the course's GUI.

Run from tests/seahorse with Debian's Python (it has the course's packages):

    /usr/bin/python3 -m unittest -v test_player_setup

Environment: see player_support.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
from pathlib import Path

import socketio

from player_support import (CLEAN, COURSE_DIR, ENGINE, FAKE_ENGINE, MAIN, PACKAGE, PLAYER,
                            SOURCE_DIR, GameStateDivercite, PlayerDivercite, divercite_player,
                            environment, free_port, initial_state, interrupt, legal_names,
                            move_name, write_script)
from seahorse.player.proxies import InteractivePlayerProxy  # the course's human player

HUMAN_PACE_S = divercite_player.HUMAN_PACE_MS / 1000
# What a move against a human may take beyond the pace: the engine's reply, the master's
# JSON and the socket (measured: 0.02-0.1 s), on a loaded 2-core machine.
PACE_MARGIN_S = 1.5


def human_and_engine(engine_name: str = "second"):
    """The course's `-t human_vs_computer` players: a human (seahorse's own proxy, as
    main_divercite.py makes it) moving first, and our player."""
    human = InteractivePlayerProxy(PlayerDivercite("W", name="bob"), gs=GameStateDivercite)
    return human, divercite_player.MyPlayer("B", name=engine_name)


class EngineDiscoveryTest(unittest.TestCase):
    """DIVERCITE_ENGINE first, then a checkout's build, then an installed copy's bin/."""

    def run_installed_copy(self, prefix: Path) -> subprocess.CompletedProcess:
        """Starts a player from a copy of it and of the package's pure-Python modules
        installed in `prefix` as `cmake --install build --prefix P` lays them out, without
        DIVERCITE_ENGINE."""
        folder = prefix / "share" / "divercite" / "seahorse"
        folder.mkdir(parents=True)
        shutil.copy(PLAYER, folder)
        shutil.copy(PLAYER.parent / "divercite_package.py", folder)
        package = prefix / "lib" / "python3" / "dist-packages" / "divercite"
        shutil.copytree(PACKAGE, package, ignore=shutil.ignore_patterns("*.so"))
        # The package copied without its compiled rules, as on a Python they were not built
        # for: the player needs only the engine client. It plays the first move.
        script = (f"import sys; sys.path[:0] = {[str(COURSE_DIR / 'divercite'), str(folder)]!r}\n"
                  "import divercite_player\n"
                  "from board_divercite import BoardDivercite\n"
                  "from game_state_divercite import GameStateDivercite\n"
                  "from player_divercite import PlayerDivercite\n"
                  "player = divercite_player.MyPlayer('W')\n"
                  "print(player._engine_path)\n"
                  "players = [player, PlayerDivercite('B', name='other')]\n"
                  "pieces = {p.get_id(): {c + t: 3 if t == 'R' else 2 for c in 'RGBY' "
                  "for t in 'CR'} for p in players}\n"
                  "state = GameStateDivercite(scores={p.get_id(): 0 for p in players}, "
                  "next_player=player, players=players, rep=BoardDivercite(env={}, "
                  "dim=[9, 9]), step=0, players_pieces_left=pieces)\n"
                  "action = player.compute_action(current_state=state, remaining_time=900)\n"
                  "print(action.data['piece'] in ('RC', 'GC', 'BC', 'YC'))\n"
                  "print(sys.modules['divercite.engine'].__file__)\n"
                  "print(sys.modules['divercite.engine'].Position)\n"
                  "player.close()\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIVERCITE_")}
        env.update(PATH="/usr/bin:/bin", PYTHONPATH=str(COURSE_DIR / "seahorse"),
                   PYTHONDONTWRITEBYTECODE="1", DIVERCITE_MOVETIME="50")
        return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env=env, timeout=60)

    def test_a_checkout_looks_in_its_build_tree_first(self):
        places = [path for path, _ in divercite_player.engine_places()]
        self.assertEqual(places[0], SOURCE_DIR.resolve() / "build" / "bin" / "divercite")

    def test_an_installed_copy_plays_with_the_installed_engine(self):
        prefix = Path(self.enterContext(tempfile.TemporaryDirectory(prefix="divercite_p_")))
        (prefix / "bin").mkdir()
        (prefix / "bin" / "divercite").symlink_to(ENGINE.resolve())
        result = self.run_installed_copy(prefix)
        self.assertEqual(result.returncode, 0, result.stderr)
        package = prefix / "lib" / "python3" / "dist-packages" / "divercite"
        self.assertEqual(result.stdout.split(), [str(prefix / "bin" / "divercite"), "True",
                                                 str(package / "engine.py"), "None"])
        self.assertNotIn("fallback", result.stderr)

    def test_no_engine_names_the_places_tried(self):
        prefix = Path(self.enterContext(tempfile.TemporaryDirectory(prefix="divercite_p_")))
        result = self.run_installed_copy(prefix)
        self.assertNotEqual(result.returncode, 0)
        message = result.stderr.strip().splitlines()[-1]
        self.assertIn("DiverciteEngineError: divercite engine not found: tried", message)
        self.assertIn(f"{prefix / 'bin' / 'divercite'} (beside the divercite package)", message)
        self.assertIn("divercite on PATH", message)
        self.assertIn("set DIVERCITE_ENGINE", message)

    def test_a_wrong_divercite_engine_is_named(self):
        with environment(**dict(CLEAN, DIVERCITE_ENGINE="/nonexistent/bin/divercite")):
            with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                divercite_player.MyPlayer("W")
        message = str(caught.exception)
        self.assertIn("divercite engine not found at /nonexistent/bin/divercite "
                      "(DIVERCITE_ENGINE)", message)
        self.assertIn("scripts/build.sh", message)
        self.assertIn("set DIVERCITE_ENGINE", message)


class ModuleLayoutTest(unittest.TestCase):
    """The player finds the package's engine client however it is loaded."""

    def test_the_player_loaded_by_path_finds_the_package_and_leaves_sys_path(self):
        # importlib by path, the player's folder nowhere on sys.path (the course's
        # main_divercite.py appends it; other loaders may not).
        script = (f"import importlib.util, sys\n"
                  f"sys.path[:0] = {[str(COURSE_DIR / 'divercite')]!r}\n"
                  f"before = list(sys.path)\n"
                  f"spec = importlib.util.spec_from_file_location('player', {str(PLAYER)!r})\n"
                  f"player = importlib.util.module_from_spec(spec)\n"
                  f"spec.loader.exec_module(player)\n"
                  f"print(sys.modules['divercite.engine'].__file__)\n"
                  f"print(sys.path == before)\n"
                  f"print(player.find_engine())\n")
        with environment(**CLEAN):
            result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                    text=True, timeout=60, cwd=tempfile.gettempdir(),
                                    env=dict(os.environ, PYTHONPATH=str(COURSE_DIR / "seahorse")))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.split(), [str(PACKAGE.resolve() / "engine.py"), "True",
                                                 str(ENGINE)])


class CopiedAloneTest(unittest.TestCase):
    """A launcher copied alone, without divercite_package.py beside it, as students copy
    player files beside the course's main_divercite.py: it finds the package's finder beside
    DIVERCITE_ENGINE's tree, or the package on Python's path, or says in one line what to
    do."""

    def setUp(self):
        tmp = Path(self.enterContext(tempfile.TemporaryDirectory(prefix="divercite_alone_")))
        self.course = tmp / "divercite"
        shutil.copytree(COURSE_DIR / "divercite", self.course,
                        ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copy(PLAYER, self.course)
        shutil.copy(PLAYER.parent / "course_engine.py", tmp)

    def environment(self, engine: bool, package: bool) -> dict:
        """The caller's environment without DIVERCITE_*, the course's seahorse importable;
        DIVERCITE_ENGINE set to the built engine and/or the build tree's python/ on
        PYTHONPATH."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIVERCITE_")}
        paths = [str(COURSE_DIR / "seahorse")] + [str(PACKAGE.parent)] * package
        env.update(PYTHONPATH=os.pathsep.join(paths), PYTHONDONTWRITEBYTECODE="1",
                   DIVERCITE_MOVETIME="50", DIVERCITE_PLAYER_LOG="1")
        if engine:
            env["DIVERCITE_ENGINE"] = str(ENGINE)
        return env

    def play(self, env: dict) -> str:
        """A headless `-t local` game, the course's random player first and ours second:
        the master's output once its VERDICT line is written (or the master has exited)."""
        log_path = self.course.parent / "master.log"
        with open(log_path, "w") as log:
            master = subprocess.Popen(
                [sys.executable, "main_divercite.py", "-g", "-l", "INFO", "-p", str(free_port()),
                 "-t", "local", "random_player_divercite.py", "divercite_player.py"],
                cwd=self.course, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 120
            while "VERDICT" not in log_path.read_text() and master.poll() is None:
                self.assertLess(time.monotonic(), deadline, log_path.read_text()[-3000:])
                time.sleep(0.1)
            with contextlib.suppress(subprocess.TimeoutExpired):
                master.wait(timeout=15)
        finally:
            interrupt(master)
        return log_path.read_text()

    def assert_played(self, log: str):
        for bad in ("Traceback", "fallback move", "disqualified", "Time credit expired"):
            self.assertNotIn(bad, log, log[-3000:])
        self.assertIn("has won the game", log, log[-3000:])
        self.assertEqual(log.count("divercite_player: move name=divercite_player_2"), 20,
                         log[-3000:])

    def test_it_plays_with_divercite_engine_set(self):
        finder = ENGINE.resolve().parents[1] / "share" / "divercite" / "seahorse"
        self.assertTrue((finder / "divercite_package.py").is_file(),
                        f"no {finder}/divercite_package.py: the build puts it there "
                        f"(tools/CMakeLists.txt); build again")
        self.assert_played(self.play(self.environment(engine=True, package=False)))

    def test_it_plays_with_the_package_on_pythonpath(self):
        self.assert_played(self.play(self.environment(engine=False, package=True)))

    def test_with_neither_it_says_what_to_do_in_one_line(self):
        start = time.monotonic()
        result = subprocess.run(
            [sys.executable, "main_divercite.py", "-g", "-p", str(free_port()), "-t", "local",
             "random_player_divercite.py", "divercite_player.py"], cwd=self.course,
            env=self.environment(engine=False, package=False), capture_output=True, text=True,
            timeout=60)
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        lines = result.stderr.splitlines()
        self.assertEqual(len(lines), 1, result.stderr)
        self.assertTrue(lines[0].startswith("divercite_player.py: the Python package divercite "
                                            "not found: no divercite_package.py at "
                                            f"{self.course / 'divercite_package.py'} "
                                            "(DIVERCITE_ENGINE is unset), nor the package on "
                                            "Python's path"), lines[0])
        for fix in ("Copy the project's tools/seahorse/divercite_package.py beside "
                    "divercite_player.py", "pip install the project",
                    "set DIVERCITE_ENGINE to a built engine"):
            self.assertIn(fix, lines[0])

    def test_course_engine_copied_alone(self):
        launcher = [sys.executable, str(self.course.parent / "course_engine.py"), "--help"]
        for engine, package in ((True, False), (False, True)):
            with self.subTest(engine=engine, package=package):
                result = subprocess.run(launcher, env=self.environment(engine, package),
                                        capture_output=True, text=True, timeout=60)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertTrue(result.stdout.startswith("usage: "), result.stdout)
        result = subprocess.run(launcher, env=self.environment(engine=False, package=False),
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 1)
        self.assertEqual(len(result.stderr.splitlines()), 1, result.stderr)
        self.assertRegex(result.stderr, r"^course_engine\.py: the Python package divercite not "
                                        r"found: .* Copy the project's tools/seahorse/"
                                        r"divercite_package\.py beside course_engine\.py")


class WithFakeEngines(unittest.TestCase):
    """Protocol engines from player_support.FAKE_ENGINE, in a folder of their own."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="divercite_player_test_")
        cls.fakes = {mode: write_script(Path(cls.tmp.name), f"{mode}.py", FAKE_ENGINE)
                     for mode in ("record", "rejects")}
        cls.record = Path(cls.tmp.name) / "record.txt"

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class OptionsTest(WithFakeEngines):
    """DIVERCITE_OPTIONS: checked against the engine's `option` lines, then its answers."""

    def test_each_option_the_engine_does_not_take_is_named_with_why(self):
        cases = {
            "Hash=16,Bogus=3": ["Bogus=3 (from DIVERCITE_OPTIONS): option Bogus: the engine "
                                "has no such option (it has: Agent, EvalFile, Hash, "
                                "MoveOverhead"],
            "Hash=99999999": ["Hash=99999999 (from DIVERCITE_OPTIONS): option Hash: 99999999 "
                              "is out of range (a whole number from 1 to 65536)"],
            "threads=two": ["threads=two (from DIVERCITE_OPTIONS): option Threads: 'two' is not "
                            "a whole number (a whole number from 1 to 256)"],
            "Agent=nope": ["Agent=nope (from DIVERCITE_OPTIONS): option Agent: 'nope' is not "
                           "one of engine, random, greedy"],
            # Every problem in the one error, before anything is sent.
            "MoveOverhead=-5,Seed=1.5": [
                "MoveOverhead=-5 (from DIVERCITE_OPTIONS): option MoveOverhead: -5 is out of "
                "range",
                "Seed=1.5 (from DIVERCITE_OPTIONS): option Seed: '1.5' is not a whole number"],
            "Hash=16,Threads": ["'Threads' is not Name=Value"],
        }
        for options, expected in cases.items():
            with self.subTest(options=options):
                with environment(**dict(CLEAN, DIVERCITE_OPTIONS=options)):
                    with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                        divercite_player.MyPlayer("W")
                for text in expected:
                    self.assertIn(text, str(caught.exception))

    def test_no_option_is_sent_when_one_is_bad(self):
        self.record.unlink(missing_ok=True)
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=self.fakes["record"],
                                FAKE_ENGINE_RECORD=self.record,
                                DIVERCITE_OPTIONS="Hash=8,Agent=greedy")):
            with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                divercite_player.MyPlayer("W")
        self.assertIn("Agent=greedy (from DIVERCITE_OPTIONS): option Agent: 'greedy' is not "
                      "one of engine, skypiea_v5", str(caught.exception))
        self.assertEqual([line for line in self.record.read_text().splitlines()
                          if not line.startswith(("stop", "quit"))], ["uci", "isready"])

    def test_an_option_the_engine_answers_with_an_error_is_named(self):
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=self.fakes["rejects"],
                                DIVERCITE_OPTIONS="Threads=2")):
            with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                divercite_player.MyPlayer("W")
        self.assertIn("refused the option Threads=2: setoption: Threads: not on this machine "
                      "(from DIVERCITE_OPTIONS)", str(caught.exception))

    def test_options_reach_the_engine(self):
        with environment(**dict(CLEAN, DIVERCITE_OPTIONS="Hash=8, Threads=1,Agent=greedy")):
            first = divercite_player.MyPlayer("W", name="first")
            self.addCleanup(first.close)
            state = initial_state(first, PlayerDivercite("B", name="second"))
            action = first.compute_action(current_state=state, remaining_time=900)
            self.assertIn(move_name(action), legal_names(state))

    def test_a_bad_pace_is_named(self):
        with environment(**dict(CLEAN, DIVERCITE_PACE="fast")):
            with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                divercite_player.MyPlayer("W")
        self.assertIn("DIVERCITE_PACE='fast': give human", str(caught.exception))


class ProtocolLinesTest(WithFakeEngines):
    """The exact lines sent: options, the position, the clock, the move time or the pace."""

    DEFAULTS = [f"setoption name Hash value {divercite_player.DEFAULT_HASH_MB}",
                f"setoption name MoveOverhead value {divercite_player.DEFAULT_MOVE_OVERHEAD_MS}"]

    def lines_sent(self, variables: dict, remaining: float, human: bool):
        """The lines our second player sends for its first move, and its stderr."""
        self.record.unlink(missing_ok=True)
        errors = io.StringIO()
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=self.fakes["record"],
                                FAKE_ENGINE_RECORD=self.record, **variables)):
            if human:
                first, player = human_and_engine()
            else:
                first = PlayerDivercite("W", name="first")
                player = divercite_player.MyPlayer("B", name="second")
            state = initial_state(first, player)
            state = state.apply_action(next(a for a in state.generate_possible_light_actions()
                                            if move_name(a) == "GR04"))
            with contextlib.redirect_stderr(errors):
                player.compute_action(current_state=state, remaining_time=remaining)
            player.close()
        return self.record.read_text().splitlines(), errors.getvalue()

    def check(self, variables, remaining, options, go, human=False):
        lines, errors = self.lines_sent(variables, remaining, human)
        expected = ["uci", "isready"]
        for option in options:
            expected += [option, "isready"]
        expected += ["position fen G/3/5/7/9/7/5/3/1 b", "isready", go]
        self.assertEqual(lines[:len(expected)], expected)
        self.assertIn("quit", lines[len(expected):])
        return errors

    def test_clock_and_move_time(self):
        cases = [
            ({}, 123.4567, self.DEFAULTS, "go wtime 123456 btime 123456"),
            ({"DIVERCITE_OPTIONS": "Hash=64,MoveOverhead=40,Agent=skypiea_v5"}, 900,
             ["setoption name Hash value 64", "setoption name MoveOverhead value 40",
              "setoption name Agent value skypiea_v5"], "go wtime 900000 btime 900000"),
            ({"DIVERCITE_MOVETIME": "150"}, 900, self.DEFAULTS, "go movetime 150"),
            # Capped so that the 20 moves left fit in the clock, the overhead kept for each.
            ({"DIVERCITE_MOVETIME": "5000", "DIVERCITE_OPTIONS": "MoveOverhead=100,hash=32"},
             42.0, ["setoption name MoveOverhead value 100", "setoption name Hash value 32"],
             "go movetime 2000"),
        ]
        for variables, remaining, options, go in cases:
            with self.subTest(variables=variables):
                self.assertEqual(self.check(variables, remaining, options, go), "")

    def test_against_a_human_the_pace_is_human(self):
        errors = self.check({}, 900, self.DEFAULTS,
                            f"go movetime {divercite_player.HUMAN_PACE_MS}", human=True)
        self.assertIn(f"second: a human opponent at the course's GUI: answering in "
                      f"{HUMAN_PACE_S:g} s a move (DIVERCITE_PACE=clock for the full clock",
                      errors)
        self.assertIn(f"second is thinking (up to {HUMAN_PACE_S:.1f} s)...", errors)
        self.assertIn("second plays BC14 (", errors)

    def test_the_pace_can_be_chosen(self):
        cases = [
            # The full clock against a human, when asked.
            ({"DIVERCITE_PACE": "clock"}, 900, True, "go wtime 900000 btime 900000"),
            # A move time asked is kept against a human too.
            ({"DIVERCITE_MOVETIME": "300"}, 900, True, "go movetime 300"),
            # The human pace against anyone, capped as a move time is.
            ({"DIVERCITE_PACE": "human"}, 900, False,
             f"go movetime {divercite_player.HUMAN_PACE_MS}"),
            ({"DIVERCITE_PACE": "Human"}, 10.0, False, "go movetime 250"),
        ]
        for variables, remaining, human, go in cases:
            with self.subTest(variables=variables, human=human):
                self.check(variables, remaining, self.DEFAULTS, go, human=human)


class HumanAtTheGuiTest(unittest.TestCase):
    """`-t human_vs_computer` at the course's default clock, in the course's own master. A
    socket.io client stands in for the browser's page (GUI/main.js): it identifies itself
    as `__GUI__<ms>`, clicks by sending `interact`, and sees the board in `play` events."""

    HUMAN_MOVES = 3

    def test_the_engine_answers_a_human_at_a_human_pace(self):
        tmp = Path(self.enterContext(tempfile.TemporaryDirectory(prefix="divercite_human_")))
        # The master opens the page with xdg-open: here the test is the page.
        write_script(tmp, "xdg-open", "import sys\n")
        port = free_port()
        env = dict(os.environ, **{k: v for k, v in CLEAN.items() if v is not None},
                   DIVERCITE_PLAYER_LOG="1", PYTHONDONTWRITEBYTECODE="1",
                   PYTHONPATH=str(COURSE_DIR / "seahorse"),
                   PATH=f"{tmp}{os.pathsep}{os.environ.get('PATH', '')}")
        for key in ("DIVERCITE_OPTIONS", "DIVERCITE_MOVETIME", "DIVERCITE_PACE"):
            env.pop(key, None)
        log_path = tmp / "master.log"
        with open(log_path, "w") as log:
            master = subprocess.Popen(
                [sys.executable, str(MAIN), "-t", "human_vs_computer", "-l", "INFO", "-p",
                 str(port), str(PLAYER)], cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            timings, refused = asyncio.run(self.play_as_the_page(port, master, log_path))
            log = log_path.read_text()  # the game so far; a human would close the window
        finally:
            interrupt(master)
        self.assertTrue(refused, "an illegal click was not refused")
        for shown, answered in timings:
            self.assertLess(shown, HUMAN_PACE_S + PACE_MARGIN_S, (timings, log[-3000:]))
            self.assertLess(answered, HUMAN_PACE_S + PACE_MARGIN_S, (timings, log[-3000:]))
        self.assertIn("divercite_player: a human opponent at the course's GUI", log)
        self.assertEqual(log.count("is thinking (up to"), self.HUMAN_MOVES, log[-3000:])
        self.assertEqual(log.count("pace=human"), self.HUMAN_MOVES, log[-3000:])
        for bad in ("Traceback", "fallback move", "disqualified"):
            self.assertNotIn(bad, log)
        print("\nclick -> the human's move shown, the engine's reply shown (s): "
              + ", ".join(f"{s:.2f} {a:.2f}" for s, a in timings), file=sys.stderr)

    async def play_as_the_page(self, port: int, master: subprocess.Popen, log_path: Path):
        """Plays HUMAN_MOVES moves as the page would; returns, per move, the seconds from the
        click to the board with the human's move and to the board with the engine's reply,
        and whether an illegal click was refused."""
        client = socketio.AsyncClient(reconnection=False)
        boards: asyncio.Queue = asyncio.Queue()
        refused = asyncio.Event()
        client.on("play", lambda data: boards.put_nowait((time.monotonic(), json.loads(data))))
        client.on("ActionNotPermitted", lambda *_: refused.set())
        deadline = time.monotonic() + 30
        while True:
            self.assertIsNone(master.poll(), log_path.read_text()[-3000:])
            try:
                await client.connect(f"http://localhost:{port}")
                break
            except socketio.exceptions.ConnectionError:
                self.assertLess(time.monotonic(), deadline, "the master does not listen")
                await asyncio.sleep(0.1)
        try:
            await client.emit("identify", json.dumps({"identifier": f"__GUI__{time.time_ns()}"}))
            _, board = await asyncio.wait_for(boards.get(), 30)
            timings = []
            for k in range(self.HUMAN_MOVES):
                # A human's reaction; the master ignores a click made before it waits for one.
                await asyncio.sleep(0.5)
                if k == 1:  # a taken cell: refused, the human's turn goes on
                    taken = next(iter(board["rep"]["env"]))
                    await client.emit("interact", json.dumps(
                        {"piece": "RR", "position": json.loads(taken.replace("(", "[")
                                                               .replace(")", "]"))}))
                    await asyncio.wait_for(refused.wait(), 10)
                state = GameStateDivercite.from_json(json.dumps(board), next_player=(
                    PlayerDivercite.from_json(json.dumps(board["next_player"]))))
                action = sorted(state.generate_possible_light_actions(), key=move_name)[0]
                clicked = time.monotonic()
                await client.emit("interact", json.dumps(
                    {"piece": action.data["piece"], "position": list(action.data["position"])}))
                shown, board = await asyncio.wait_for(boards.get(), 60)
                self.assertEqual(board["step"], state.step + 1)
                answered, board = await asyncio.wait_for(boards.get(), 60)
                self.assertEqual(board["step"], state.step + 2)
                timings.append((shown - clicked, answered - clicked))
            return timings, refused.is_set()
        finally:
            await client.disconnect()


if __name__ == "__main__":
    unittest.main()
