"""Tests of tools/seahorse/course_engine.py against the course's real framework.

Nothing here stands in for the course: the agents are the course's own example players (used
where they lie) and small agents in agents/ built on the course's classes, and the scores of
recorded games are checked by replaying them through the course's own GameStateDivercite.

Run by ctest (tests/seahorse/CMakeLists.txt sets the paths), or by hand from this folder:

    /usr/bin/python3 -m unittest -v test_course_engine

(bridge_support.py says which variables point at the binaries and the course.) The agents'
habits and the one-game-one-process contract are tested in test_course_habits.py.
"""

import os
import shutil
import subprocess
import sys
import time
import unittest

from bridge_support import (AGENTS, COURSE, ENGINE, GREEDY, PROTOCOL_LINE, RANDOM, REFERENCE_GAMES,
                            SEAHORSE, SOURCE, WRAPPER, BoardDivercite, CourseEngineTestCase,
                            GameStateDivercite, PlayerDivercite, Protocol, action_move, agent,
                            course_replay, finish_match, light_action, reference_games, run_match,
                            wrapper)


class MatchesAgainstTheEngineTest(CourseEngineTestCase):
    """The course's two example players through divercite-match, scores checked by the
    course's own code."""

    def test_greedy_and_random_play_whole_games_scored_as_the_course_scores_them(self):
        matches = {}
        for name, path in (("greedy", GREEDY), ("random", RANDOM)):
            records = os.path.join(self.temp, f"{name}.jsonl")
            arguments = ["-engine", f"cmd={WRAPPER}", f"arg={path}", f"name={name}",
                         "tc=inf", "option.Seed=5",
                         "-engine", f"cmd={ENGINE}", "name=engine", "tc=2",
                         "-games", "2", "-repeat", "-openings", "random", "plies=2",
                         "-seed", "3"]
            matches[name] = (run_match(arguments, records), records)
        for name, (process, records_path) in matches.items():
            with self.subTest(agent=name):
                records, output = finish_match(self, process, records_path)
                self.assertEqual(len(records), 2, output)
                self.assertEqual(records[0]["opening"], records[1]["opening"])
                for record in records:
                    self.assertEqual(record["termination"], "normal", record["reason"])
                    moves = record["opening"].split() + [m["move"] for m in record["moves"]]
                    self.assertEqual(len(moves), 40)
                    state, players = course_replay(moves, self)
                    self.assertTrue(state.is_done())
                    self.assertEqual(record["final"],
                                     [state.scores[players[0].get_id()],
                                      state.scores[players[1].get_id()]])
                    engine_first = record["p1"] == "engine"
                    self.assertEqual(record["result"], "1-0" if engine_first else "0-1",
                                     f"the engine should beat the course's {name} player")


class ProtocolTest(CourseEngineTestCase):
    """The wrapper over a pipe."""

    def test_handshakes_and_unknown_commands(self):
        engine = wrapper(self, RANDOM)
        self.assertEqual(engine.ask("uci", "uciok"),
                         ["id name random_player_divercite",
                          "id author a course agent, run by course_engine.py",
                          "option name Seed type spin default 0 min 0 max 2147483647",
                          "uciok"])
        self.assertEqual(engine.ask("ugi", "ugiok")[-1], "ugiok")
        self.assertEqual(engine.ask("isready", "readyok"), ["readyok"])
        self.assertEqual(engine.ask("frobnicate now", "info"),
                         ["info string error: unknown command 'frobnicate'"])
        self.assertEqual(engine.ask("setoption name Hash value 16", "info"),
                         ["info string error: setoption: no option named 'Hash'"])
        self.assertIn("Seed must be an integer",
                      engine.ask("setoption name Seed value -3", "info")[0])
        self.assertIn("'depth' needs an integer value", engine.ask("go depth", "info")[0])
        self.assertEqual(engine.ask("query p1turn", "response"), ["response true"])
        self.assertEqual(engine.ask("query gameover", "response"), ["response false"])
        self.assertEqual(engine.ask("query result", "response"), ["response none"])
        # Numeric limits are accepted and ignored; infinite holds the move until stop.
        self.assertRegex(engine.ask("go movetime 10 depth 3 nodes 9 movestogo 4",
                                    "bestmove")[-1], r"^bestmove [RGBY][CR]\d\d$")
        engine.send("go infinite")
        time.sleep(0.5)
        self.assertEqual(engine.ask("isready", "readyok"), ["readyok"])
        self.assertRegex(engine.ask("stop", "bestmove")[-1], r"^bestmove [RGBY][CR]\d\d$")
        engine.send("quit")
        self.assertEqual(engine.process.wait(timeout=5), 0)

    def test_position_errors_keep_the_previous_position(self):
        engine = wrapper(self, RANDOM)
        engine.send("position startpos moves RC14 GR04 BR44")
        before = engine.display()
        self.assertEqual(before[0], "fen g/1R1/5/7/4B4/7/5/3/1 b")
        bad_commands = {
            "position startpos moves YC45 RC45": "cell (4,5) is occupied",
            "position startpos moves RC14 GR04 BR44 RC45 rc23": "unknown colour 'r'",
            "position startpos moves RC14 GR14": "(1,4) is a city cell, not a resource cell",
            "position startpos moves GC00": "(0,0) is not a cell of the board",
            "position startpos moves RC14 GR04 RC23 GR22 RC25": "no R city left",
            "position fen 1/3/5/7/9/7/5/3/1 b": "must be 'w'",
            "position fen 1/3/5/7/9/7/5/3 w": "8 rows",
            "position fen 1/3/5/7/9/7/5/3/x w": "unknown character 'x'",
            "position fen RR/3/5/7/9/7/5/3/1 b": "describes more than its 1 cells",
            "position fen r/3/5/7/9/7/5/3/1 b": "the first player has 0 pieces",
            "position fen 1/3/5/7/9/7/5/3/1 w RC14": "expected 'moves'",
            "position middlegame": "unknown kind 'middlegame'",
            "position": "expected 'startpos' or 'fen",
        }
        for command, reason in bad_commands.items():
            with self.subTest(command=command):
                error = engine.ask(command, "info")
                self.assertEqual(len(error), 1)
                self.assertTrue(error[0].startswith("info string error: "), error)
                self.assertIn(reason, error[0])
                self.assertEqual(engine.display(), before)
        engine.send("ucinewgame")
        self.assertEqual(engine.display()[0], "fen 1/3/5/7/9/7/5/3/1 w")

    def test_positions_and_scores_agree_with_the_engine(self):
        """Position strings and scores, from move lists and from position strings, as the
        engine has them; moves played by the random agent with a Seed."""
        course = wrapper(self, RANDOM)
        engine = Protocol(self, [ENGINE])
        course.send("setoption name Seed value 11")
        moves = []
        for _ in range(40):
            course.send("position startpos moves " + " ".join(moves))
            moves.append(course.ask("go", "bestmove")[-1].split()[1])
        for ply in (0, 1, 7, 20, 33, 39, 40):
            with self.subTest(ply=ply):
                line = "position startpos moves " + " ".join(moves[:ply])
                engine.send(line)
                expected = engine.display()
                course.send(line)
                self.assertEqual(course.display(), expected)
                fen = expected[0].split(maxsplit=1)[1]
                course.send(f"position fen {fen}")
                self.assertEqual(course.display(), expected)
                if ply >= 3:  # a position string, then moves
                    middle = ply - 3
                    engine.send("position startpos moves " + " ".join(moves[:middle]))
                    middle_fen = engine.display()[0].split(maxsplit=1)[1]
                    course.send(f"position fen {middle_fen} moves " +
                                " ".join(moves[middle:ply]))
                    self.assertEqual(course.display(), expected)
        course.send("position startpos moves " + " ".join(moves))
        self.assertEqual(course.ask("go", "bestmove")[-2:],
                         ["info string the game is over", "bestmove (none)"])
        self.assertEqual(course.ask("query gameover", "response"), ["response true"])

    def test_full_boards_get_the_courses_last_move_tie_break(self):
        games = [game for game in reference_games() if game.get("tiebreak")]
        if not games:
            self.skipTest(f"no reference games with a tie-break in {REFERENCE_GAMES}")
        engine = Protocol(self, [ENGINE])
        course = wrapper(self, RANDOM)
        branches = {}
        for game in games:  # one game per tie-break branch
            branches.setdefault(game["tiebreak"]["branch"], game)
        for branch, game in branches.items():
            with self.subTest(branch=branch):
                engine.send("position startpos moves " + " ".join(game["moves"]))
                fen = engine.display()[0]
                result = {(1,): "1-0", (2,): "0-1"}.get(tuple(game["winners"]), "1/2-1/2")
                expected = [fen, "scores {} {}".format(*game["final"]), f"result {result}"]
                course.send("position startpos moves " + " ".join(game["moves"]))
                self.assertEqual(course.display(), expected)
                course.send(f"position {fen}")  # the full board as a position string
                self.assertEqual(course.display(), expected)

    def test_greedy_sees_the_state_the_course_would_give_it(self):
        """The course's greedy player, asked in this process on the course's own state,
        picks the move the wrapper answers, from move lists and from position strings."""
        games = reference_games()
        moves = games[0]["moves"] if games else "RC14 GR04 BR44 YC45 GC23 BR24".split()
        sys.path.insert(0, COURSE)
        import greedy_player_divercite
        course = wrapper(self, GREEDY)
        engine = Protocol(self, [ENGINE])
        for ply in range(0, min(len(moves), 36), 5):
            with self.subTest(ply=ply):
                mover = ply % 2
                greedy = greedy_player_divercite.MyPlayer("WB"[mover], name="greedy")
                players = [PlayerDivercite("W", name="first"), PlayerDivercite("B", name="second")]
                players[mover] = greedy
                state = self._state_with(moves[:ply], players)
                expected = action_move(greedy.compute_action(current_state=state,
                                                             remaining_time=900))
                line = "position startpos moves " + " ".join(moves[:ply])
                course.send(line)
                self.assertEqual(course.ask("go", "bestmove")[-1], f"bestmove {expected}")
                engine.send(line)
                fen = engine.display()[0]
                course.send(f"position {fen}")
                self.assertEqual(course.ask("go wtime 1000 btime 1000", "bestmove")[-1],
                                 f"bestmove {expected}")

    def _state_with(self, moves, players):
        left = {p.get_id(): {c + t: (3 if t == "R" else 2) for c in "RGBY" for t in "CR"}
                for p in players}
        state = GameStateDivercite(scores={p.get_id(): 0 for p in players},
                                   next_player=players[0], players=players,
                                   rep=BoardDivercite(env={}, dim=[9, 9]), step=0,
                                   players_pieces_left=left)
        for move in moves:
            state = state.apply_action(light_action(move))
        return state

    def test_isready_is_answered_while_the_agent_thinks_and_stop_ends_it(self):
        engine = wrapper(self, agent("sleepy"))
        engine.ask("uci", "uciok")
        engine.send("position startpos", "go wtime 800 btime 800")  # sleeps 1.8 s
        time.sleep(0.2)
        start = time.monotonic()
        self.assertEqual(engine.ask("isready", "readyok", timeout=1.0), ["readyok"])
        self.assertLess(time.monotonic() - start, 1.0)
        # Commands that would change the position or start a go are refused meanwhile.
        for command in ("position startpos moves RC14", "go", "ucinewgame",
                        "setoption name Seed value 1"):
            error = engine.ask(command, "info", timeout=1.0)
            self.assertEqual(len(error), 1)
            self.assertRegex(error[0], r"^info string error: \w+: the agent is thinking")
        self.assertEqual(engine.ask("query p1turn", "response", timeout=1.0),
                         ["response true"])
        # A course agent cannot be interrupted: stop ends its process, at once.
        start = time.monotonic()
        self.assertEqual(engine.ask("stop", "bestmove", timeout=1.0),
                         ["info string error: stopped: MyPlayer.compute_action cannot be "
                          "interrupted, so its process was killed", "bestmove (none)"])
        self.assertLess(time.monotonic() - start, 0.5)
        self.assertEqual(engine.display()[0], "fen 1/3/5/7/9/7/5/3/1 w")

    def test_quit_while_the_agent_thinks_exits_at_once(self):
        engine = wrapper(self, agent("sleepy"))
        engine.ask("isready", "readyok")
        engine.send("position startpos", "go wtime 60000 btime 60000")
        time.sleep(0.3)
        start = time.monotonic()
        engine.send("quit")
        self.assertEqual(engine.process.wait(timeout=5), 0)
        self.assertLess(time.monotonic() - start, 2.0)

    def test_the_agents_output_never_reaches_the_protocol(self):
        stderr_path = os.path.join(self.temp, "chatty.err")
        engine = wrapper(self, agent("chatty"), stderr_path=stderr_path)
        engine.ask("uci", "uciok")
        engine.ask("isready", "readyok")
        moves = []
        for _ in range(4):
            engine.send("position startpos moves " + " ".join(moves))
            moves.append(engine.ask("go", "bestmove")[-1].split()[1])
        engine.display()
        engine.send("quit")
        self.assertEqual(engine.process.wait(timeout=5), 0)
        while engine.read(5) is not None:
            pass
        for line in engine.lines:
            self.assertTrue(PROTOCOL_LINE.fullmatch(line), line)
        self.assertEqual(moves, ["BC14", "BC23", "BC25", "BC32"])
        with open(stderr_path) as stderr:
            printed = stderr.read()
        # It all went to stderr: Python's print, the fd itself, loguru and a child process.
        for text in ("thinking 199 bestmove XX99", "straight to fd 1", "a loguru line",
                     "from a child process", "chatty_player_1 constructed"):
            self.assertIn(text, printed)

    def test_failing_agents_lose_the_move_not_the_wrapper(self):
        cases = {
            "raising": "info string crash: ValueError in raising_player.py, line 10 "
                       "(MyPlayer.compute_action): boom",
            "none": "info string error: MyPlayer.compute_action returned None",
            "illegal": "info string error: MyPlayer.compute_action returned an illegal move "
                       "GC00: (0,0) is not a cell of the board",
            "doctored_heavy": "info string error: MyPlayer.compute_action returned a "
                              "HeavyAction to RC",
        }
        for name, error in cases.items():
            with self.subTest(agent=name):
                engine = wrapper(self, agent(name))
                engine.ask("uci", "uciok")
                for position in ("position startpos", "position startpos moves RC14"):
                    engine.send(position)
                    answer = engine.ask("go wtime 5000 btime 5000", "bestmove")
                    self.assertEqual(len(answer), 2)
                    self.assertTrue(answer[0].startswith(error), answer[0])
                    self.assertEqual(answer[1], "bestmove (none)")
                    self.assertEqual(engine.ask("isready", "readyok"), ["readyok"])
                self.assertEqual(engine.display()[0], "fen 1/1R1/5/7/9/7/5/3/1 b")
                engine.send("quit")
                self.assertEqual(engine.process.wait(timeout=5), 0)

    def test_agents_that_cannot_start_exit_with_code_2(self):
        # The file and the line where it failed, never the folder it is kept in.
        for name, message in (("broken", "importing broken_player.py failed: ImportError in "
                                         "broken_player.py, line 2 (import): this agent is "
                                         "broken on purpose"),
                              ("unbuildable", "constructing MyPlayer('W', name='unbuildable_"
                                              "player_1') from unbuildable_player.py failed: ")):
            with self.subTest(agent=name):
                result = subprocess.run([WRAPPER, agent(name)], input="uci\n",
                                        capture_output=True, text=True, timeout=30)
                self.assertEqual(result.returncode, 2)
                self.assertEqual(result.stdout, "")
                self.assertIn(message, result.stderr)
                self.assertNotIn(AGENTS, result.stderr.replace(f"File \"{AGENTS}", ""))
        result = subprocess.run([WRAPPER, "--course", self.temp, RANDOM], input="uci\n",
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 2)
        self.assertIn("neither it nor its divercite folder holds game_state_divercite.py",
                      result.stderr)

    def test_finds_the_course_every_documented_way(self):
        """--course and DIVERCITE_COURSE_DIR, each as the course root or its divercite
        folder, --seahorse, and the default beside the repository (when that is where the
        course is)."""
        bare = {k: v for k, v in os.environ.items() if k != "DIVERCITE_COURSE_DIR"}
        ways = {
            "flags": ([WRAPPER, "--course", COURSE, "--seahorse", SEAHORSE, agent("none")],
                      bare),
            "--course root": ([WRAPPER, "--course", os.path.dirname(COURSE), agent("none")],
                              bare),
            "root": ([WRAPPER, agent("none")],
                     dict(bare, DIVERCITE_COURSE_DIR=os.path.dirname(COURSE))),
            "divercite folder": ([WRAPPER, agent("none")], dict(bare, DIVERCITE_COURSE_DIR=COURSE)),
            "beside the agent": ([WRAPPER, RANDOM], bare),
        }
        beside_repository = os.path.join(os.path.dirname(SOURCE), "shared", "course", "divercite")
        if os.path.realpath(beside_repository) == os.path.realpath(COURSE):
            ways["beside the repository"] = ([WRAPPER, agent("none")], bare)
        for way, (argv, env) in ways.items():
            with self.subTest(way=way):
                result = subprocess.run(argv, input="isready\nposition startpos\ngo\nquit\n",
                                        capture_output=True, text=True, timeout=30, env=env)
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertEqual(result.stdout.splitlines()[0], "readyok")

    def test_the_clock_the_agent_sees_and_one_instance_per_side_per_game(self):
        log = os.path.join(self.temp, "clock.log")
        env = dict(os.environ, COURSE_ENGINE_CLOCK_LOG=log)
        engine = wrapper(self, agent("clock"), env=env)
        # (commands, what the agent logs: its name, moves it played before, remaining_time)
        steps = [
            (["position startpos", "go wtime 5000 btime 7000"], "clock_player_1 0 5.0"),
            (["position startpos moves RC14", "go wtime 5000 btime 7250"],
             "clock_player_2 0 7.25"),
            # The game goes on: the same instances.
            (["position startpos moves RC14 RC23",
              "go p1time 1500 p2time 2000 p1inc 10 p2inc 10"], "clock_player_1 1 1.5"),
            (["position startpos moves RC14 RC23 GC25", "go"], "clock_player_2 1 900.0"),
            # Not a continuation of the game: a new one, with new instances.
            (["position startpos", "go"], "clock_player_1 0 900.0"),
            (["ucinewgame", "position startpos moves RC14", "go wtime 3000"],
             "clock_player_2 0 900.0"),
            (["position startpos", "go movetime 100 depth 2 nodes 10 movestogo 5"],
             "clock_player_1 0 900.0"),
        ]
        for commands, _ in steps:
            engine.send(*commands[:-1])
            engine.ask(commands[-1], "bestmove")
        with open(log) as seen:
            self.assertEqual(seen.read().splitlines(),
                             [f"{line} True" for _, line in steps])

    def test_a_seed_replays_the_random_player(self):
        def play(seed, plies=12, engine=None):
            engine = engine or wrapper(self, RANDOM)
            if seed is not None:
                engine.send(f"setoption name Seed value {seed}")
            engine.send("ucinewgame")
            moves = []
            for _ in range(plies):
                engine.send("position startpos moves " + " ".join(moves))
                moves.append(engine.ask("go", "bestmove")[-1].split()[1])
            return moves, engine

        first, engine = play(42)
        self.assertEqual(play(42)[0], first)  # another process
        self.assertEqual(play(42, engine=engine)[0], first)  # a new game in the same one
        self.assertNotEqual(play(43)[0], first)

    def test_a_seed_replays_numpy_choices_too(self):
        def play(seed):
            engine = wrapper(self, agent("numpy"))
            engine.send(f"setoption name Seed value {seed}")
            moves = []
            for _ in range(8):
                engine.send("position startpos moves " + " ".join(moves))
                moves.append(engine.ask("go", "bestmove")[-1].split()[1])
            return moves

        first = play(7)
        self.assertNotIn("(none)", first)  # numpy integers in a position are accepted
        self.assertEqual(play(7), first)
        self.assertNotEqual(play(8), first)

    def test_runs_from_a_python_without_the_courses_packages(self):
        """The shebang's python3 (pyenv here) lacks loguru: the wrapper re-runs itself with
        Debian's Python."""
        bare = None
        for candidate in (shutil.which("python3"), sys.executable):
            if candidate and subprocess.run(
                    [candidate, "-c", "import loguru"], capture_output=True).returncode != 0:
                bare = candidate
                break
        if bare is None:
            self.skipTest("every python3 here has the course's packages")
        result = subprocess.run([bare, WRAPPER, RANDOM], input="uci\nisready\nquit\n",
                                capture_output=True, text=True, timeout=30)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.splitlines()[-2:], ["uciok", "readyok"])


class FailuresThroughTheRunnerTest(CourseEngineTestCase):
    """How divercite-match records what the agents do wrong."""

    def test_errors_time_losses_and_the_clock(self):
        # Three matches at once: a raising agent, one sleeping past tc=1, one logging its clock.
        clock_log = os.path.join(self.temp, "clock.log")
        env = dict(os.environ, COURSE_ENGINE_CLOCK_LOG=clock_log)
        runs = {}
        for name, agent_tc, games in (("raising", "tc=inf", "2"), ("sleepy", "tc=1", "1"),
                                      ("clock", "tc=3", "1")):
            records = os.path.join(self.temp, f"{name}.jsonl")
            arguments = ["-engine", f"cmd={WRAPPER}", f"arg={agent(name)}", f"name={name}",
                         agent_tc, "-engine", f"cmd={ENGINE}", "name=engine", "tc=1",
                         "-games", games, "-repeat"]
            runs[name] = (run_match(arguments, records, env=env), records)

        records, output = finish_match(self, *runs["raising"])
        self.assertEqual(len(records), 2, output)
        for record in records:
            self.assertEqual(record["termination"], "crash")
            self.assertEqual(record["result"], "0-1" if record["p1"] == "raising" else "1-0")
            self.assertEqual(record["reason"], "raising: ValueError in raising_player.py, line "
                                               "10 (MyPlayer.compute_action): boom")

        (record,), output = finish_match(self, *runs["sleepy"])
        self.assertEqual((record["p1"], record["termination"], record["result"]),
                         ("sleepy", "time", "0-1"), output)

        (record,), output = finish_match(self, *runs["clock"])
        self.assertEqual((record["p1"], record["termination"]), ("clock", "normal"), output)
        with open(clock_log) as log:
            lines = [line.split() for line in log]
        # One agent instance played all 20 moves, always as the player to move.
        self.assertEqual([(name, int(k), to_move) for name, k, _, to_move in lines],
                         [("clock_player_1", k, "True") for k in range(20)])
        seen = [float(line[2]) for line in lines]
        self.assertTrue(2.9 < seen[0] <= 3.0, seen)
        for earlier, later in zip(seen, seen[1:]):
            self.assertLess(later, earlier, seen)
        self.assertGreater(seen[-1], 0.0)

    def test_the_agents_log_holds_its_output_traceback_and_warnings_bounded(self):
        # --agent-log: what the agent writes, its traceback and the bridge's warnings go to the
        # file, not to the bridge's stderr (whose tail the runner shows as a lost game's
        # reason); a flood leaves the last 64 KB of it, never the 200 MB.
        runs = {}
        for name in ("raising", "unserialisable", "flooding"):
            log = os.path.join(self.temp, f"{name}.agent.log")
            records = os.path.join(self.temp, f"{name}-log.jsonl")
            arguments = ["-engine", f"cmd={WRAPPER}", "arg=--agent-log", f"arg={log}",
                         f"arg={agent(name)}", f"name={name}", "tc=60", "-engine",
                         f"cmd={ENGINE}", "name=engine", "tc=1", "-maxplies", "4"]
            runs[name] = (run_match(arguments, records), records, log)
        texts = {}
        for name, (process, records, log) in runs.items():
            (record,), output = finish_match(self, process, records)
            with open(log, "rb") as file:
                texts[name] = (record, output, file.read())
        record, output, logged = texts["raising"]
        self.assertEqual(record["termination"], "crash")
        self.assertIn(b"Traceback (most recent call last)", logged)
        self.assertIn(b'raising_player.py", line 10, in compute_action', logged)
        self.assertIn(b"ValueError: boom", logged)
        self.assertNotIn("Traceback", record["reason"])
        record, output, logged = texts["unserialisable"]
        self.assertEqual(record["termination"], "maxplies")
        self.assertIn(b"[course bridge] warning: the course's master would crash serialising",
                      logged)
        self.assertNotIn("would crash serialising", output)
        record, output, logged = texts["flooding"]
        self.assertEqual(record["termination"], "maxplies")
        self.assertLessEqual(len(logged), 2 * 64 * 1024)
        self.assertGreaterEqual(len(logged), 64 * 1024)
        # Whole lines of the flood (its next game's process may still be writing one when
        # the game ends: the last may be cut).
        self.assertIn(b"\nflooding_player: " + b"x" * 82 + b"\n", logged[-300:])

    def test_a_runner_killed_at_once_leaves_no_agent_computing(self):
        # The bridge dies with its runner (its parent-death signal), and its sandbox with it:
        # an arena stopped, or a worker cancelled, kills its runner and nothing computes on.
        folder = os.path.join(self.temp, "spinning")
        os.makedirs(folder)
        path = os.path.join(folder, "my_player.py")
        shutil.copy(agent("spinning"), path)
        shutil.copy(os.path.join(AGENTS, "simple_moves.py"), folder)
        records = os.path.join(self.temp, "spinning.jsonl")
        runner = run_match(["-engine", f"cmd={WRAPPER}", "arg=--sandbox", f"arg={path}",
                            "name=spinning", "tc=900", "-engine", f"cmd={ENGINE}",
                            "name=engine", "tc=1", "-startuptimeout", "60"], records)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and cpu_seconds(holding(path)) < 1.0:
                time.sleep(0.2)
            self.assertGreaterEqual(cpu_seconds(holding(path)), 1.0, "the agent never spun")
        finally:
            runner.kill()
            runner.wait()
        deadline = time.monotonic() + 10
        while holding(path) and time.monotonic() < deadline:
            time.sleep(0.1)
        self.assertEqual(holding(path), [], "processes of the agent outlived their runner")


def holding(text):
    """The pids of the live processes whose command line holds `text`."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                line = file.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/stat") as file:
                state = file.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if entry.isdigit() and text in line and state != "Z":
            found.append(int(entry))
    return found


def cpu_seconds(pids):
    """The processor time the processes `pids` have had (user and system), in seconds."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as file:
                fields = file.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


if __name__ == "__main__":
    unittest.main()
