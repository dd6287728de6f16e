"""Tests of tools/seahorse/divercite_player.py in the course's real framework.

Run from tests/seahorse with Debian's Python (it has the course's packages):

    /usr/bin/python3 -m unittest -v test_divercite_player

Environment: see player_support.py.
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
from pathlib import Path

from player_support import (CLEAN, COURSE_DIR, ENGINE, FAKE_ENGINE, GREEDY, MAIN, PLAYER,
                            RANDOM, GameStateDivercite, PlayerDivercite,
                            children_named, divercite_player, environment, initial_state,
                            legal_names, move_name, play_game, reaped, write_script)

# Per move in the framework games (the engine searches all of it).
GAME_MOVETIME_MS = 100


class PositionStringTest(unittest.TestCase):
    """Case 2: the position string built from course states is the engine's own."""

    def test_position_strings_match_the_engine_along_random_games(self):
        engine = subprocess.Popen([str(ENGINE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.addCleanup(lambda: (engine.stdin.close(), engine.wait(timeout=10),
                                 engine.stdout.close()))

        def engine_view(moves: list[str]) -> tuple[str, list[int]]:
            engine.stdin.write(f"position startpos moves {' '.join(moves)}\nd\n")
            engine.stdin.flush()
            fen, scores = None, None
            for line in engine.stdout:
                self.assertFalse(line.startswith("info string error"), (moves, line))
                if line.startswith("fen "):
                    fen = line[4:].strip()
                elif line.startswith("scores "):
                    scores = [int(x) for x in line.split()[1:]]
                elif line.startswith("result "):
                    return fen, scores
            self.fail("the engine closed its output")

        checked = 0
        for seed in range(6):
            rng = random.Random(seed)
            first, second = PlayerDivercite("W", name="first"), PlayerDivercite("B", name="second")
            state, moves = initial_state(first, second), []
            while True:
                ours = divercite_player.position_string(state)
                fen, scores = engine_view(moves)
                self.assertEqual(ours, fen, f"seed {seed} after {moves}")
                # The remote modes send the state as JSON and rebuild it on the other side.
                received = GameStateDivercite.from_json(
                    json.dumps(state.to_json(), default=lambda x: x.to_json()),
                    next_player=state.next_player)
                self.assertEqual(divercite_player.position_string(received), fen)
                self.assertEqual([state.scores[first.get_id()], state.scores[second.get_id()]],
                                 scores, f"seed {seed} after {moves}")
                checked += 1
                if state.is_done():
                    break
                action = rng.choice(sorted(state.generate_possible_light_actions(),
                                           key=move_name))
                moves.append(move_name(action))
                state = state.apply_action(action)
        self.assertEqual(checked, 6 * 41)
        self.assertEqual(divercite_player.position_string(initial_state(
            PlayerDivercite("W", name="a"), PlayerDivercite("B", name="b"))),
            "1/3/5/7/9/7/5/3/1 w")


class PlayerInProcessTest(unittest.TestCase):
    """Cases 3 and 4, and the safety paths, on the real player class in this process."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="divercite_player_test_")
        folder = Path(cls.tmp.name)
        cls.exits = write_script(folder, "exits.py", """\
            import sys
            print("fake engine: cannot start", file=sys.stderr)
            sys.exit(3)
            """)
        cls.fakes = {mode: write_script(folder, f"{mode}.py", FAKE_ENGINE)
                     for mode in ("crash", "hang", "needs_stop", "record")}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def new_players(self):
        first = divercite_player.MyPlayer("W", name="first")
        second = divercite_player.MyPlayer("B", name="second")
        self.addCleanup(first.close)
        self.addCleanup(second.close)
        return first, second, initial_state(first, second)

    def test_players_play_legal_moves_and_stay_json_serialisable(self):
        with environment(**dict(CLEAN, DIVERCITE_MOVETIME=20)):
            first, second, state = self.new_players()
            for _ in range(8):
                player = first if state.next_player is first else second
                action = player.compute_action(current_state=state, remaining_time=900)
                self.assertIn(move_name(action), legal_names(state))
                state = state.apply_action(action)
            for player in (first, second):
                data = json.loads(json.dumps(player.to_json()))
                self.assertEqual(set(data), {"name", "id", "piece_type"})
                # As the master does after every move, and as the remote modes send it.
                json.dumps(state.to_json(), default=lambda x: x.to_json())
                self.assertEqual(PlayerDivercite.from_json(json.dumps(data)).piece_type,
                                 player.piece_type)

    def test_engine_that_exits_at_once(self):
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=self.exits)):
            with self.assertRaises(divercite_player.DiverciteEngineError) as caught:
                divercite_player.MyPlayer("W")
        message = str(caught.exception)
        self.assertIn("exited with code 3", message)
        self.assertIn("fake engine: cannot start", message)
        self.assertIn("DIVERCITE_ENGINE", message)

    def test_dropping_the_player_reaps_the_engine(self):
        with environment(**CLEAN):
            player = divercite_player.MyPlayer("W")
        pid = player._engine_pid()
        self.assertTrue(Path(f"/proc/{pid}").exists())
        del player
        gc.collect()
        self.assertTrue(reaped(pid), f"engine {pid} is still our child")

    def test_interpreter_exit_reaps_the_engine(self):
        # A checker registered with atexit before the player exists runs after the player's
        # finalizer (atexit is last in, first out): it sees the engine reaped or not.
        script = textwrap.dedent(f"""\
            import atexit, os, sys
            state = {{}}
            def check():
                pid = state["pid"]
                try:
                    os.waitpid(pid, os.WNOHANG)
                    print("NOT REAPED", pid)
                except ChildProcessError:
                    print("REAPED", pid)
            atexit.register(check)
            sys.path[:0] = {[str(COURSE_DIR / 'divercite'), str(COURSE_DIR / 'seahorse'),
                              str(PLAYER.parent)]!r}
            import divercite_player
            player = divercite_player.MyPlayer("W")
            state["pid"] = player._engine_pid()
            """)
        with environment(**CLEAN):
            result = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                    text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertRegex(result.stdout, r"^REAPED \d+$", result.stderr)

    def play_one_move_with(self, engine: Path, remaining: float):
        """One move of the first player with `engine`; returns (move, seconds, stderr, pid)."""
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=engine)):
            first = divercite_player.MyPlayer("W", name="first")
            self.addCleanup(first.close)
            state = initial_state(first, PlayerDivercite("B", name="second"))
            pid = first._engine_pid()
            errors = io.StringIO()
            start = time.monotonic()
            with contextlib.redirect_stderr(errors):
                action = first.compute_action(current_state=state, remaining_time=remaining)
            seconds = time.monotonic() - start
        self.assertIn(move_name(action), legal_names(state))
        return move_name(action), seconds, errors.getvalue(), pid

    def test_engine_crashing_on_go_gives_a_fallback_move(self):
        _, seconds, errors, pid = self.play_one_move_with(self.fakes["crash"], 900)
        self.assertIn("exited with code 5", errors)
        self.assertIn("fake engine: crashing on go", errors)
        self.assertIn("fallback move", errors)
        self.assertLess(seconds, 5)
        self.assertTrue(reaped(pid))

    def test_engine_is_started_again_after_a_crash(self):
        with environment(**dict(CLEAN, DIVERCITE_ENGINE=self.fakes["crash"])):
            player = divercite_player.MyPlayer("W", name="first")
            self.addCleanup(player.close)
            state = initial_state(player, PlayerDivercite("B", name="second"))
            errors = io.StringIO()
            with contextlib.redirect_stderr(errors):
                for _ in range(3):  # each move: the engine started again, crashing again
                    action = player.compute_action(current_state=state, remaining_time=900)
                    self.assertIn(move_name(action), legal_names(state))
                    state = state.apply_action(action)
                    state = state.apply_action(sorted(state.generate_possible_light_actions(),
                                                      key=move_name)[0])
        self.assertEqual(errors.getvalue().count("fake engine: crashing on go"), 3,
                         errors.getvalue())
        self.assertEqual(errors.getvalue().count("fallback move"), 3, errors.getvalue())
        self.assertEqual(children_named("crash.py"), [])

    def test_hung_engine_is_killed_within_the_clock(self):
        _, seconds, errors, pid = self.play_one_move_with(self.fakes["hang"], 2.0)
        self.assertLess(seconds, 2.0 - divercite_player.DEFAULT_MOVE_OVERHEAD_MS / 1000)
        self.assertIn("did not answer", errors)
        self.assertIn("fallback move", errors)
        self.assertTrue(reaped(pid), "the hung engine is still our child")

    def test_slow_engine_is_stopped_and_its_move_played(self):
        move, seconds, errors, _ = self.play_one_move_with(self.fakes["needs_stop"], 2.0)
        self.assertEqual(move, "BC14")
        self.assertEqual(errors, "")
        self.assertLess(seconds, 2.0 - divercite_player.DEFAULT_MOVE_OVERHEAD_MS / 1000)


class FrameworkGameTest(unittest.TestCase):
    """Case 1: whole games in the course's own master, headless, our engine winning."""

    def run_game(self, players: list[Path], mode: str = "local"):
        """Runs main_divercite.py (`-t local`, or `-t host_game` with players[0] and
        `-t connect` with players[1]); returns the master's log and the remote's."""
        tmp = Path(self.enterContext(tempfile.TemporaryDirectory(prefix="divercite_game_")))
        env = dict(os.environ, **{k: v for k, v in CLEAN.items() if v is not None},
                   DIVERCITE_MOVETIME=str(GAME_MOVETIME_MS), DIVERCITE_PLAYER_LOG="1",
                   PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(COURSE_DIR / "seahorse"))
        env.pop("DIVERCITE_OPTIONS", None)
        game = play_game(MAIN, players, tmp, env, mode=mode, timeout=120)
        for role, code in game.codes.items():
            if code is not None:
                self.assertEqual(code, 0, game.logs[role][-3000:])
        if game.hung:
            # seahorse's shutdown sometimes never ends after a host_game game (its task
            # cancellation waits forever; the same with the course's own players): it was
            # interrupted as a student's Ctrl-C would. The game itself is over.
            print(f"\nnote: the course framework did not exit after the game "
                  f"({', '.join(game.hung)}); interrupted it", file=sys.stderr)
        return game.logs["master"], game.logs.get("remote", game.logs["master"])

    def assert_clean_win(self, log: str, ours_log: str, winner: str):
        for text in (log, ours_log):
            for bad in ("Time credit expired", "Action not permitted", "disqualified",
                        "Traceback", "fallback move"):
                self.assertNotIn(bad, text, text[-3000:])
        self.assertRegex(log, rf"Winner - {re.escape(winner)}\n")
        self.assertNotRegex(log, r"Winner - (?!" + re.escape(winner) + r"\n)")
        self.assertRegex(log, rf"VERDICT .* - {re.escape(winner)} has won the game")
        moves = re.findall(r"divercite_player: move name=(\S+) .* fallback=(\d)", ours_log)
        self.assertEqual(len(moves), 20, ours_log[-3000:])
        self.assertEqual({m for m in moves}, {(winner, "0")})

    def test_first_player_beats_the_course_greedy_player(self):
        log, ours = self.run_game([PLAYER, GREEDY])
        self.assert_clean_win(log, ours, "divercite_player_1")

    def test_second_player_beats_the_course_random_player(self):
        log, ours = self.run_game([RANDOM, PLAYER])
        self.assert_clean_win(log, ours, "divercite_player_2")

    def test_remote_player_beats_the_greedy_host(self):
        # `-t host_game` runs the greedy player and the master; `-t connect` runs ours as
        # the remote second player, in another process, over socket.io.
        host_log, remote_log = self.run_game([GREEDY, PLAYER], mode="remote")
        self.assert_clean_win(host_log, remote_log, "_remote")


if __name__ == "__main__":
    unittest.main()
