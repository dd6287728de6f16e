"""Live games (python/divercite/arena/live.py, GET /api/games/ID/live, the game page of a game
being played): the follower of a growing -live file (only complete lines, each once, a
half-written one left for later, lines not taken handed over again), the state a game's live
lines make, checked against a real game (tests/data/live_game.jsonl, written by
`divercite-match -live` beside its record tests/data/live_game_record.jsonl), and the
endpoint: a game being played, one finished, one queued, none, and what only a game's teams
read."""

import json
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from arena_support import REPO
from django.test import Client, SimpleTestCase, TestCase

from divercite.arena.play import live
from divercite.arena.core import game_queue, teams
from divercite.arena.core.models import Entry, Game
from divercite.records import GameRecord

LIVE_LINES = (REPO / "tests" / "data" / "live_game.jsonl").read_text().splitlines(True)
RECORD = GameRecord.from_json((REPO / "tests" / "data" / "live_game_record.jsonl").read_text())


def runner_time(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=timezone.utc)


class LiveFileTest(SimpleTestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.path = Path(folder.name) / "live.jsonl"

    def write(self, data: bytes):
        with open(self.path, "ab") as file:
            file.write(data)

    def test_only_complete_lines_each_once(self):
        follower = live.LiveFile(self.path)
        self.assertEqual(follower.read(), "", "no file yet")
        self.write(b'{"a":1}\n{"b":')
        self.assertEqual(follower.read(), '{"a":1}\n')
        self.assertEqual(follower.read(), "", "the half-written line waits")
        # A character of two bytes cut between two writes is read whole once its line is.
        self.write('2,"c":"\u00e9'.encode()[:-1])
        self.assertEqual(follower.read(), "")
        self.write('\u00e9"}\n{"d":4}\n'.encode()[1:])
        self.assertEqual(follower.read(), '{"b":2,"c":"\u00e9"}\n{"d":4}\n')
        self.assertEqual(follower.read(), "")

    def test_following_a_growing_file_hands_every_line_once_in_order(self):
        handed, lock, threads, exits = [], threading.Lock(), set(), []

        def on_lines(text):
            with lock:
                handed.append(text)
                threads.add(threading.get_ident())

        with live.following(self.path, on_lines, every=0.02,
                            on_exit=lambda: exits.append(threading.get_ident())):
            for line in LIVE_LINES:
                half = len(line) // 2
                self.write(line[:half].encode())
                time.sleep(0.003)
                self.write(line[half:].encode())
            self.write(b'{"event":"half')  # never completed: never handed over
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and "".join(handed).count("\n") < 10:
                time.sleep(0.01)
            self.assertGreater(len(handed), 0, "handed over while the game goes")
        # The lines written just before the end are handed over as it ends, in the
        # follower's thread, which then calls on_exit once.
        self.assertEqual("".join(handed), "".join(LIVE_LINES))
        self.assertTrue(all(text.endswith("\n") for text in handed))
        self.assertEqual(len(threads), 1)
        self.assertNotIn(threading.get_ident(), threads)
        self.assertEqual(exits, list(threads))

    def test_lines_not_taken_are_handed_over_again(self):
        self.write("".join(LIVE_LINES[:3]).encode())
        calls = []

        def on_lines(text):
            calls.append(text)
            if len(calls) == 1:
                raise RuntimeError("the database is down")

        with self.assertLogs("divercite.arena.play.live", "WARNING"):
            follower = live.Follower(self.path, on_lines, every=60)
            self.assertFalse(follower.poll())
        self.write(LIVE_LINES[3].encode())
        self.assertTrue(follower.poll())
        self.assertEqual(calls, ["".join(LIVE_LINES[:3]), "".join(LIVE_LINES[:4])])
        self.assertTrue(follower.poll(), "nothing new: nothing handed")
        self.assertEqual(len(calls), 2)


class LiveStateTest(SimpleTestCase):
    def test_a_real_game_s_lines_replay_to_its_record(self):
        shown = live.state("".join(LIVE_LINES))
        positions = RECORD.positions()
        moves = RECORD.opening_moves() + [move.move for move in RECORD.moves]
        self.assertEqual(len(shown["plies"]), len(positions))
        self.assertEqual([ply["fen"] for ply in shown["plies"]],
                         [position.fen() for position in positions])
        self.assertEqual([ply["move"] for ply in shown["plies"]], [None] + moves)
        self.assertEqual([ply["scores"] for ply in shown["plies"]],
                         [list(position.scores) for position in positions])
        engine_plies = shown["plies"][len(RECORD.opening_moves()) + 1:]
        self.assertEqual([ply["ms"] for ply in engine_plies], [move.ms for move in RECORD.moves])
        self.assertEqual((shown["p1"], shown["p2"]), (RECORD.p1, RECORD.p2))
        self.assertEqual(shown["end"], {"result": RECORD.result, "termination": "normal",
                                        "reason": "", "final": RECORD.final})
        self.assertIsNone(shown["to_move"])
        self.assertEqual(shown["clocks"], engine_plies[-1]["clocks"])
        # The clocks: each move charges its mover alone, the time it used less the increment.
        tc = [float(text.split("=")[1].split("+")[0]) * 1000 for text in RECORD.tc]
        increment = [float(text.split("+")[1]) * 1000 for text in RECORD.tc]
        self.assertEqual(shown["plies"][0]["clocks"], tc)
        before = shown["plies"][len(RECORD.opening_moves())]["clocks"]
        for index, ply in enumerate(engine_plies):
            mover = (len(RECORD.opening_moves()) + index) % 2
            self.assertEqual(ply["clocks"][1 - mover], before[1 - mover])
            self.assertEqual(ply["clocks"][mover],
                             before[mover] - ply["ms"] + increment[mover])
            before = ply["clocks"]
        self.assertLess(sum(before), sum(tc))

    def test_a_game_in_progress(self):
        lines = LIVE_LINES[:6]  # the start, then five moves
        last = json.loads(lines[-1])
        now = runner_time(last["time"]) + timedelta(milliseconds=1500)
        shown = live.state("".join(lines), now)
        self.assertTrue(shown["started"])
        self.assertEqual(len(shown["plies"]), len(RECORD.opening_moves()) + 6)
        self.assertEqual((shown["to_move"], shown["clocks"], shown["updated"]),
                         (last["to_move"], last["clocks"], last["time"]))
        self.assertEqual(shown["elapsed_ms"], 1500)
        self.assertEqual(runner_time(shown["now"]), now)
        self.assertIsNone(shown["end"])

    def test_before_the_start_and_from_odd_lines(self):
        self.assertEqual(live.state("")["plies"], [])
        self.assertFalse(live.state("")["started"])
        # A line lost: the plies stop before it, the clocks are the last line's.
        lines = LIVE_LINES[:4] + LIVE_LINES[5:8] + ["not json\n", "[1]\n"]
        shown = live.state("".join(lines))
        self.assertEqual(len(shown["plies"]), len(RECORD.opening_moves()) + 4)
        self.assertEqual(shown["clocks"], json.loads(LIVE_LINES[7])["clocks"])
        # Lines sent twice (a heartbeat's answer lost, its lines sent again with the next).
        lines = LIVE_LINES[:6] + LIVE_LINES[4:9]
        shown = live.state("".join(lines))
        self.assertEqual([ply["move"] for ply in shown["plies"]],
                         [ply["move"] for ply in live.state("".join(LIVE_LINES[:9]))["plies"]])
        self.assertEqual(shown["clocks"], json.loads(LIVE_LINES[8])["clocks"])
        # A second game in the same text: its lines alone.
        second = json.dumps({"event": "start", "game": 1, "time": "2026-11-29T06:00:00.000Z",
                             "p1": "x", "p2": "y", "start": "startpos", "opening": "",
                             "tc": ["tc=5", "tc=5"], "ply": 0, "clocks": [5000, 5000],
                             "to_move": "p1"})
        shown = live.state("".join(LIVE_LINES[:5]) + second + "\n" + LIVE_LINES[5])
        self.assertEqual((shown["p1"], len(shown["plies"]), shown["clocks"]),
                         ("x", 1, [5000, 5000]))


class LiveApiTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.greedy = Entry.objects.get(name="greedy").current_version()
        self.random = Entry.objects.get(name="random").current_version()
        self.client = Client()

    def playing(self, text: str) -> Game:
        return Game.objects.create(p1=self.greedy, p2=self.random, purpose=Game.MATCHMADE,
                                   status=Game.PLAYING, live=text)

    def test_a_game_being_played(self):
        game = self.playing("".join(LIVE_LINES[:8]))
        answer = self.client.get(f"/api/games/{game.pk}/live")
        self.assertEqual(answer.status_code, 200)
        body = answer.json()
        last = json.loads(LIVE_LINES[7])
        keys = ("id", "status", "ended", "p1", "p2", "to_move", "clocks", "updated")
        self.assertEqual({key: body[key] for key in keys},
                         {"id": game.pk, "status": "playing", "ended": False, "p1": "greedy",
                          "p2": "random", "to_move": last["to_move"], "clocks": last["clocks"],
                          "updated": last["time"]})
        self.assertEqual(len(body["plies"]), last["ply"] + 1)
        self.assertEqual(body["plies"][-1]["move"], last["move"])
        self.assertGreaterEqual(body["elapsed_ms"], 0)
        self.assertLess(abs((runner_time(body["now"]) - datetime.now(timezone.utc))
                            .total_seconds()), 60)
        page = self.client.get(f"/games/{game.pk}/")
        self.assertContains(page, 'id="live-data"')
        self.assertContains(page, f'data-live="/api/games/{game.pk}/live"')
        self.assertContains(page, "<template id=\"skeleton\"><svg")
        self.assertContains(page, "arena/replay.js")
        self.assertNotContains(page, 'id="replay-data"')

    def test_a_game_not_yet_started_or_queued_or_none(self):
        game = self.playing("")
        body = self.client.get(f"/api/games/{game.pk}/live").json()
        self.assertEqual((body["status"], body["started"], body["plies"]), ("playing", False, []))
        Game.objects.filter(pk=game.pk).update(status=Game.QUEUED)
        body = self.client.get(f"/api/games/{game.pk}/live").json()
        self.assertEqual((body["status"], body["ended"]), ("queued", False))
        self.assertNotIn("plies", body)
        answer = self.client.get(f"/api/games/{game.pk + 1000}/live")
        self.assertEqual(answer.status_code, 404)
        self.assertIn("error", answer.json())
        self.assertEqual(self.client.post(f"/api/games/{game.pk}/live").status_code, 405)

    def test_a_finished_game_points_to_its_page(self):
        game = self.playing("".join(LIVE_LINES))
        claimed = Game.objects.select_related("p1__entry", "p2__entry").get(pk=game.pk)
        record = GameRecord.from_json(RECORD.to_json())
        record.p1, record.p2 = "greedy", "random"
        self.assertTrue(game_queue.finish(claimed, record))
        body = self.client.get(f"/api/games/{game.pk}/live").json()
        self.assertEqual(body, {"id": game.pk, "status": "done", "ended": True, "p1": "greedy",
                                "p2": "random", "page": f"/games/{game.pk}/",
                                "result": RECORD.result})
        self.assertEqual(Game.objects.get(pk=game.pk).live, "", "cleared when done")
        self.assertContains(self.client.get(body["page"]), 'id="replay-data"')

    def test_what_an_agent_wrote_is_for_its_team_alone(self):
        mine = teams.upload(self.alpha, "my_player.py", b"print('x')\n")
        lost = ("alpha crashed (engine said: Traceback: SECRET = 'the team wrote this'; "
                "its stderr ended: SECRET)")
        end = json.dumps({"event": "end", "game": 0, "time": "2026-11-29T06:00:00.000Z",
                          "ply": 6, "result": "0-1", "termination": "crash",
                          "reason": lost, "final": [3, 2]})
        game = Game.objects.create(p1=mine, p2=self.random, purpose=Game.MATCHMADE,
                                   status=Game.PLAYING,
                                   live="".join(LIVE_LINES[:5]) + end + "\n")
        url = f"/api/games/{game.pk}/live"
        others = self.client.get(url).json()
        self.assertNotIn("SECRET", json.dumps(others))
        self.assertEqual(others["end"]["termination"], "crash")
        self.assertIn("alpha crashed", others["end"]["reason"])
        own = self.client.get(url, HTTP_AUTHORIZATION=f"Token {self.alpha_token}").json()
        self.assertEqual(own["end"]["reason"], lost)
        self.assertIsNone(own["to_move"])
