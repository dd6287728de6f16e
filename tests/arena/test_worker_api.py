"""The workers' API (worker_api): worker tokens and who may claim, a claimed game's seats and
the versions' files (only those of the token's live claims), leases renewed by heartbeats and
lost without them, results kept once however often they are posted and refused unless the
game's whole (issue 55: a leaked worker token), failures, games given back."""

import datetime
import io
import json
import threading
import zipfile
from unittest import mock

from arena_games import AGENT, REFERENCE_GAMES, record_of
from django.db import connections
from django.test import Client, TestCase, TransactionTestCase
from django.utils import timezone

import divercite
from divercite.arena.core import game_queue, serve_workers, teams, worker_tokens
from divercite.arena.play import runner
from divercite.arena.core.models import AuditEntry, Entry, Game, Version, WorkerToken
from divercite.records import MoveRecord


class WorkerApiCase(TestCase):
    def setUp(self):
        teams.ensure_house()
        # Without house opponents matchmaking has no pair to offer: a claim takes the
        # queued games only.
        Entry.objects.filter(kind=Entry.HOUSE).delete()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.machine, self.token = worker_tokens.add("lab-1")
        self.client = Client()

    def post(self, path, fields=None, token=None):
        return self.client.post(path, json.dumps(fields or {}), content_type="application/json",
                                HTTP_AUTHORIZATION=f"Token {token or self.token}")

    def claim(self, worker="host/0", token=None):
        return self.post("/api/worker/claim", {"worker": worker}, token)

    def upload(self):
        return teams.upload(self.alpha, "my_player.py", AGENT)


class TokensTest(WorkerApiCase):
    def test_only_a_valid_worker_token_claims(self):
        self.assertEqual(self.client.post("/api/worker/claim").status_code, 401)
        self.assertEqual(self.claim(token="not-a-token").status_code, 401)
        refused = self.claim(token=self.alpha_token)
        self.assertEqual(refused.status_code, 403)
        self.assertIn("a team's token cannot claim games", refused.json()["error"])
        self.assertEqual(self.claim().status_code, 204)  # nothing queued: no team is ready
        self.assertIsNotNone(WorkerToken.objects.get(name="lab-1").last_seen)
        worker_tokens.revoke("lab-1")
        self.assertEqual(self.claim().status_code, 401)

    def test_a_worker_token_does_not_act_for_a_team(self):
        answer = self.client.post("/api/agents", HTTP_AUTHORIZATION=f"Token {self.token}")
        self.assertEqual(answer.status_code, 401)

    def test_names_and_revocation(self):
        with self.assertRaises(Exception):
            worker_tokens.add("lab-1")
        with self.assertRaises(Exception):
            worker_tokens.add("bad name")
        worker_tokens.revoke("lab-1")
        with self.assertRaises(Exception):
            worker_tokens.revoke("lab-1")
        self.assertEqual(WorkerToken.objects.get(name="lab-1").token_digest,
                         self.machine.token_digest)


class ClaimTest(WorkerApiCase):
    def test_a_claim_gives_the_seats_and_the_version_s_files(self):
        version = self.upload()
        answer = self.claim()
        self.assertEqual(answer.status_code, 200)
        claimed = answer.json()
        game = Game.objects.get(pk=claimed["game"])
        self.assertEqual((game.status, game.worker), (Game.PLAYING, claimed["claim"]))
        self.assertTrue(claimed["claim"].startswith("lab-1/host/0#"))
        self.assertGreater(game.lease_until, timezone.now())
        self.assertEqual(claimed["lease_seconds"], game_queue.lease_seconds())
        self.assertLess(claimed["heartbeat_seconds"] * 3, claimed["lease_seconds"])
        first, second = claimed["seats"]
        self.assertEqual((first["name"], first["kind"], first["version"], first["tc"]),
                         ("alpha", "team", version.pk, 5.0))
        self.assertEqual((second["kind"], second["name"]), ("checker", "course-random"))
        files = self.client.get(f"/api/worker/versions/{version.pk}",
                                HTTP_AUTHORIZATION=f"Token {self.token}")
        self.assertEqual(files.status_code, 200)
        with zipfile.ZipFile(io.BytesIO(files.content)) as archive:
            self.assertEqual(archive.read("my_player.py"), AGENT)
        team_asks = self.client.get(f"/api/worker/versions/{version.pk}",
                                    HTTP_AUTHORIZATION=f"Token {self.alpha_token}")
        self.assertEqual(team_asks.status_code, 403)
        checker = Version.objects.get(entry__kind=Entry.CHECKER)
        self.assertEqual(self.client.get(f"/api/worker/versions/{checker.pk}",
                                         HTTP_AUTHORIZATION=f"Token {self.token}").status_code,
                         404)
        self.assertEqual(self.claim("host/1").status_code, 204, "one game claimed twice")


class VersionFilesTest(WorkerApiCase):
    """A worker token gets a version's files only while it holds a live claim on one of that
    version's games: a leaked token cannot read every team's code."""

    def files(self, version, token=None):
        return self.client.get(f"/api/worker/versions/{version.pk}",
                               HTTP_AUTHORIZATION=f"Token {token or self.token}")

    def test_only_the_versions_of_the_token_s_live_claims(self):
        mine = self.upload()
        beta, _ = teams.add_team("beta")
        theirs = teams.upload(beta, "my_player.py", AGENT)  # its check game is not claimed
        refused = self.files(mine)
        self.assertEqual(refused.status_code, 403, "before any claim")
        self.assertIn("holds no live claim on a game of version", refused.json()["error"])
        claimed = self.claim().json()
        self.assertEqual(Game.objects.get(pk=claimed["game"]).p1_id, mine.pk)
        self.assertEqual(self.files(mine).status_code, 200)
        self.assertEqual(self.files(theirs).status_code, 403, "a version it does not play")
        _, other_token = worker_tokens.add("lab-2")
        _, shouting_token = worker_tokens.add("LAB-1")  # the same name but for its case
        for token in (other_token, shouting_token):
            self.assertEqual(self.files(mine, token).status_code, 403, "another token's claim")
        Game.objects.filter(pk=claimed["game"]).update(
            lease_until=timezone.now() - datetime.timedelta(seconds=1))
        self.assertEqual(self.files(mine).status_code, 403, "a lease run out")
        self.assertEqual(self.client.get("/api/worker/versions/99999",
                                         HTTP_AUTHORIZATION=f"Token {self.token}").status_code,
                         404)


class LeaseTest(WorkerApiCase):
    def setUp(self):
        super().setUp()
        self.version = self.upload()
        self.claimed = self.claim().json()
        self.game = Game.objects.get(pk=self.claimed["game"])
        self.path = f"/api/worker/games/{self.game.pk}"

    def expire(self):
        Game.objects.filter(pk=self.game.pk).update(
            lease_until=timezone.now() - datetime.timedelta(seconds=1))

    def test_heartbeats_renew_the_lease_and_carry_the_live_moves(self):
        before = Game.objects.get(pk=self.game.pk).lease_until
        for line in ('{"ply":1}\n', '{"ply":2}\n'):
            answer = self.post(f"{self.path}/heartbeat",
                               {"claim": self.claimed["claim"], "live": line})
            self.assertEqual(answer.status_code, 200)
        game = Game.objects.get(pk=self.game.pk)
        self.assertGreaterEqual(game.lease_until, before)
        self.assertEqual(game.live, '{"ply":1}\n{"ply":2}\n')
        self.assertEqual(self.post(f"{self.path}/heartbeat", {"claim": "lab-1/x#0"}).status_code,
                         409)

    def test_a_lease_run_out_gives_the_game_to_another_worker(self):
        self.expire()
        again = self.claim("host/1").json()
        self.assertEqual(again["game"], self.game.pk)
        self.assertNotEqual(again["claim"], self.claimed["claim"])
        self.assertEqual(Game.objects.get(pk=self.game.pk).attempts, 2)
        record = record_of(self.game, 0).to_json()
        late = self.post(f"{self.path}/result", {"claim": self.claimed["claim"], "record": record})
        self.assertEqual(late.status_code, 409)
        self.assertEqual(self.post(f"{self.path}/heartbeat",
                                   {"claim": self.claimed["claim"]}).status_code, 409)
        kept = self.post(f"{self.path}/result", {"claim": again["claim"], "record": record})
        self.assertEqual(kept.json(), {"kept": True})
        self.assertEqual(Game.objects.filter(status=Game.DONE).count(), 1)

    def test_a_result_posted_twice_is_kept_once(self):
        record = record_of(self.game, 0).to_json()
        fields = {"claim": self.claimed["claim"], "record": record}
        self.assertEqual(self.post(f"{self.path}/result", fields).json(), {"kept": True})
        self.assertEqual(self.post(f"{self.path}/result", fields).json(),
                         {"kept": True, "already": True})
        game = Game.objects.get(pk=self.game.pk)
        self.assertEqual((game.status, game.live, game.lease_until), (Game.DONE, "", None))
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.READY)

    def test_results_that_are_not_the_game_s_are_refused(self):
        record = record_of(self.game, 0)
        record.p1 = "someone"
        wrong = self.post(f"{self.path}/result", {"claim": self.claimed["claim"],
                                                  "record": record.to_json()})
        self.assertEqual(wrong.status_code, 400)
        self.assertIn("the game is alpha - course-random", wrong.json()["error"])
        record = record_of(self.game, 0)
        record.moves[3].move = record.moves[2].move  # played twice: illegal
        illegal = self.post(f"{self.path}/result", {"claim": self.claimed["claim"],
                                                    "record": record.to_json()})
        self.assertEqual(illegal.status_code, 400)
        self.assertEqual(self.post(f"{self.path}/result", {"claim": self.claimed["claim"],
                                                           "record": "{"}).status_code, 400)
        self.assertEqual(Game.objects.get(pk=self.game.pk).status, Game.PLAYING)

    def refusal(self, record, why):
        """Posts `record` (a GameRecord, or a dict for its JSON) as the game's: 400 naming
        `why`, the game still the worker's, the refusal in the audit log."""
        text = json.dumps(record) if isinstance(record, dict) else record.to_json()
        before = AuditEntry.objects.filter(action="result refused").count()
        answer = self.post(f"{self.path}/result", {"claim": self.claimed["claim"],
                                                   "record": text})
        self.assertEqual(answer.status_code, 400)
        self.assertIn(why, answer.json()["error"])
        game = Game.objects.get(pk=self.game.pk)
        self.assertEqual((game.status, game.worker), (Game.PLAYING, self.claimed["claim"]))
        entries = AuditEntry.objects.filter(action="result refused")
        self.assertEqual(entries.count(), before + 1)
        entry = entries.first()
        self.assertEqual((entry.actor, entry.target, entry.detail),
                         ("worker lab-1", f"game {self.game.pk}", answer.json()["error"]))

    def cut(self, plies, result, termination, reason="alpha played 'XX99'", final=None):
        """The reference game 0 as this game's record, cut after `plies` moves and ended so;
        its final scores the position's unless given."""
        record = record_of(self.game, 0)
        moves = REFERENCE_GAMES[0]["moves"][:plies]
        record.moves = [MoveRecord(move=move, ms=10) for move in moves]
        record.result, record.termination, record.reason = result, termination, reason
        record.final = final or list(divercite.Position.from_moves(moves).scores)
        return record

    def test_forged_records_are_refused(self):
        """What a leaked token (or a team holding one) would post for a check game, each
        refused with its reason."""
        whole = record_of(self.game, 0)
        won = whole.result  # the scores' result
        lost = {"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[won]
        forged = {
            "a result no reader knows": (dict(whole.to_dict(), result="2-0"), "is none of"),
            "clocks that are not texts": (dict(whole.to_dict(), tc=[5, 6]), "two texts"),
            "other clocks": (dict(whole.to_dict(), tc=["tc=900", "tc=5"]),
                             "the game's clocks are tc=5 and tc=5"),
            "a termination the runner never writes": (dict(whole.to_dict(), termination="bogus"),
                                                      "none of the runner's"),
            "an adjudication": (dict(whole.to_dict(), termination="adjudication"),
                                "does not ask the runner to adjudicate"),
            "a member the runner never writes": (dict(whole.to_dict(), verdict="rejected"),
                                                 "members the runner does not write: verdict"),
            "other players": (dict(whole.to_dict(), p2="beta"),
                              "the game is alpha - course-random"),
            "another start": (dict(whole.to_dict(), start="fen 1/3/5/7/9/7/5/3/1 w",
                                   opening="RC14"), "start position with no opening"),
            "the scores' result reversed": (dict(whole.to_dict(), result=lost),
                                            "is not that of the final scores"),
            "other final scores": (dict(whole.to_dict(), final=[99, 0]), "are not those of"),
            "a NaN": (dict(whole.to_dict(), round=float("nan")), "JSON in UTF-8 cannot"),
            "a normal win with no move": (self.cut(0, "1-0", "normal", ""),
                                          "only once the board is full"),
            "a normal loss with no move": (self.cut(0, "0-1", "normal", ""),
                                           "only once the board is full"),
            "a normal end halfway": (self.cut(20, "0-1", "normal", ""),
                                     "only once the board is full"),
            # Its first move is alpha's: course-random cannot have played an illegal one.
            "the side not to move blamed": (self.cut(0, "1-0", "illegal"),
                                            "alpha is to move, yet the record blames "
                                            "course-random"),
            "alpha blamed on course-random's move": (self.cut(5, "0-1", "time"),
                                                     "course-random is to move"),
            "a fault without a reason": (self.cut(4, "0-1", "illegal", reason=" "),
                                         "carries the runner's reason"),
            "a fault drawn": (self.cut(4, "1/2-1/2", "crash"), "is lost by the side at fault"),
            "a fault on a full board": (dict(whole.to_dict(), result="0-1", termination="limit",
                                             reason="memory limit"), "the board is full"),
            "a fault's other scores": (self.cut(6, "0-1", "illegal", final=[7, 0]),
                                       "are not those of its moves"),
            "a move that does not play": (self.cut(3, "1-0", "crash"), None),
        }
        broken = forged["a move that does not play"][0]
        broken.moves[2].move = broken.moves[1].move
        forged["a move that does not play"] = (broken, "a move does not play")
        for name, (record, why) in forged.items():
            with self.subTest(forged=name):
                self.refusal(record, why)
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.CHECKING)
        self.assertEqual(self.post(f"{self.path}/result",
                                   {"claim": self.claimed["claim"],
                                    "record": whole.to_json()}).json(), {"kept": True})

    def test_a_fault_of_the_side_to_move_is_kept(self):
        """A check game lost by alpha's illegal move (alpha to move after the recorded ones)
        is kept; so is one at its very first move, which no record can tell from a forged
        one. Either is one remote worker's word: the version waits for a second opinion."""
        for plies in (6, 0):
            with self.subTest(plies=plies):
                answer = self.post(f"{self.path}/result", {
                    "claim": self.claimed["claim"],
                    "record": self.cut(plies, "0-1", "illegal").to_json()})
                self.assertEqual(answer.json(), {"kept": True})
                game = Game.objects.get(pk=self.game.pk)
                self.assertEqual((game.status, game.result, game.reason),
                                 (Game.DONE, "0-1", "alpha played 'XX99'"))
                self.version.refresh_from_db()
                self.assertEqual(self.version.status, Version.CHECKING)
                again = Game.objects.get(second_opinion_of=game)
                self.assertEqual((again.p1_id, again.p2_id, again.purpose, again.status),
                                 (game.p1_id, game.p2_id, Game.CHECK, Game.QUEUED))
                self.version = self.upload()  # supersedes it: the second opinion goes
                self.assertFalse(Game.objects.filter(pk=again.pk).exists())
                self.claimed = self.claim().json()
                self.game = Game.objects.get(pk=self.claimed["game"])
                self.path = f"/api/worker/games/{self.game.pk}"

    def test_a_starting_failure_of_either_side_is_kept(self):
        """Before the first move the runner starts both engines: either may crash, stall or
        hit a limit then, whoever is to move."""
        answer = self.post(f"{self.path}/result", {
            "claim": self.claimed["claim"],
            "record": self.cut(0, "1-0", "stall", "course-random: no 'uciok' within 60s")
            .to_json()})
        self.assertEqual(answer.json(), {"kept": True})
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.READY)

    def test_failures_are_tried_three_times(self):
        """By turns: a check a token failed to play is not that token's to claim again while
        another worker is at work (as a second opinion, SecondOpinionTest)."""
        _, other = worker_tokens.add("lab-2")
        WorkerToken.objects.filter(name="lab-2").update(last_seen=timezone.now())
        claim, tokens = self.claimed["claim"], [other, self.token]
        for attempt in range(game_queue.ATTEMPTS):
            answer = self.post(f"{self.path}/failed", {"claim": claim, "reason": "no bwrap"},
                               token=tokens[(attempt + 1) % 2])
            self.assertEqual(answer.status_code, 200)
            if attempt + 1 < game_queue.ATTEMPTS:
                self.assertEqual(answer.json(), {"queued_again": True})
                self.assertEqual(self.claim("again", token=tokens[(attempt + 1) % 2])
                                 .status_code, 204)
                claim = self.claim(f"host/{attempt}", token=tokens[attempt % 2]).json()["claim"]
        self.assertEqual(answer.json(), {"queued_again": False})
        game = Game.objects.get(pk=self.game.pk)
        self.assertEqual((game.status, game.reason), (Game.FAILED, "lab-1: no bwrap"))

    def test_a_game_given_back_is_queued_at_once(self):
        answer = self.post(f"{self.path}/release", {"claim": self.claimed["claim"]})
        self.assertEqual(answer.status_code, 200)
        self.assertEqual(Game.objects.get(pk=self.game.pk).status, Game.QUEUED)
        self.assertEqual(self.claim().json()["game"], self.game.pk)

    def test_a_restart_of_serve_leaves_remote_games_playing(self):
        self.assertEqual(game_queue.requeue_cut_games(), 0)
        self.assertEqual(Game.objects.get(pk=self.game.pk).status, Game.PLAYING)


def fault(termination: str, reason: str):
    """The record (made for a game) of a loss of the checked version by a fault before its
    first move."""
    def record(game):
        made = record_of(game, 0)
        made.moves, made.final = [], [0, 0]
        made.result, made.termination, made.reason = "0-1", termination, reason
        return made
    return record


# What a leaked token posts: a loss by an illegal move before any, any reason.
FORGED = fault("illegal", "you cheated")


class SecondOpinionTest(WorkerApiCase):
    """A remote worker's fault verdict on a check game (issue 55: a leaked token posting
    `0-1 illegal` with no move and any reason) is played again by another worker, whose
    verdict settles the version; the reporting token plays it again only where no other
    worker is at work, after a lease."""

    def setUp(self):
        super().setUp()
        self.version = self.upload()
        self.first = self.claim().json()
        self.other, self.other_token = worker_tokens.add("lab-2")

    def report(self, claimed, record, token=None):
        game = Game.objects.get(pk=claimed["game"])
        return self.post(f"/api/worker/games/{game.pk}/result",
                         {"claim": claimed["claim"], "record": record(game).to_json()}, token)

    def seen(self, machine):
        WorkerToken.objects.filter(pk=machine.pk).update(last_seen=timezone.now())

    def test_another_token_s_verdict_settles_the_check(self):
        self.assertEqual(self.report(self.first, FORGED).json(), {"kept": True})
        self.version.refresh_from_db()
        self.assertEqual((self.version.status, self.version.reason), (Version.CHECKING, ""))
        second = Game.objects.get(second_opinion_of_id=self.first["game"])
        self.seen(self.other)
        self.assertEqual(self.claim("host/1").status_code, 204)  # not lab-1's to play
        claimed = self.claim("b/0", token=self.other_token).json()
        self.assertEqual(claimed["game"], second.pk)
        # lab-2's fault verdict is final: two tokens' words, no third opinion.
        self.assertEqual(self.report(claimed, fault("crash", "alpha: Traceback ..."),
                                     self.other_token).json(), {"kept": True})
        self.version.refresh_from_db()
        self.assertEqual((self.version.status, self.version.reason),
                         (Version.REJECTED, "alpha crashed before its first move: Traceback ..."))
        self.assertFalse(Game.objects.filter(second_opinion_of_id=second.pk).exists())

    def test_serve_s_own_worker_plays_it_at_once(self):
        self.report(self.first, FORGED)
        game = game_queue.claim("serve-1/0")
        self.assertEqual(game.second_opinion_of_id, self.first["game"])
        self.assertTrue(game_queue.finish(game, record_of(game, 0)))
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.READY)
        page = self.client.get(f"/games/{game.pk}/").content.decode()
        self.assertIn(f'href="/games/{self.first["game"]}/"', page)
        self.assertIn("A second opinion", page)
        first_page = self.client.get(f"/games/{self.first['game']}/").content.decode()
        self.assertIn(f'href="/games/{game.pk}/"', first_page)

    def test_a_lone_token_plays_it_again_after_a_lease(self):
        self.report(self.first, FORGED)
        second = Game.objects.get(second_opinion_of_id=self.first["game"])
        self.assertEqual(self.claim("host/1").status_code, 204)  # lab-2 is silent: wait
        # A lease later, with no other worker at work, the arena's only worker plays it.
        Game.objects.filter(pk=second.pk).update(
            queued=timezone.now() - datetime.timedelta(seconds=game_queue.lease_seconds() + 1))
        self.seen(self.other)
        self.assertEqual(self.claim("host/1").status_code, 204)  # lab-2 is back: its turn
        WorkerToken.objects.filter(pk=self.other.pk).update(revoked=timezone.now())
        claimed = self.claim("host/1").json()
        self.assertEqual(claimed["game"], second.pk)
        self.assertEqual(self.report(claimed, FORGED).json(), {"kept": True})
        self.version.refresh_from_db()
        self.assertEqual((self.version.status, self.version.reason),
                         (Version.REJECTED, "alpha played an illegal move before its first move: "
                                            "you cheated"))

    def test_a_sound_verdict_needs_no_second_opinion(self):
        self.assertEqual(self.report(self.first, lambda game: record_of(game, 0)).json(),
                         {"kept": True})
        self.version.refresh_from_db()
        self.assertEqual(self.version.status, Version.READY)
        self.assertFalse(Game.objects.filter(second_opinion_of__isnull=False).exists())


class LocalWorkerTest(WorkerApiCase):
    """serve's own workers check their runner's records as the API checks a worker's: one
    that fails is the runner failing (queued again, with the reason)."""

    def play(self, record):
        game = game_queue.claim("serve-1/0")
        stopped = threading.Event()
        stopped.set()  # no claim to watch: the game is this test's
        played = runner.Played(record(game), ["", ""])
        with mock.patch.object(runner, "play_game", return_value=played):
            serve_workers.play(game, stopped)
        return Game.objects.get(pk=game.pk)

    def test_a_record_that_fails_the_checks_is_the_runner_failing(self):
        self.upload()

        def forged(game):
            record = record_of(game, 0)
            record.tc = ["tc=900", "tc=900"]
            return record

        game = self.play(forged)
        self.assertEqual((game.status, game.attempts), (Game.QUEUED, 1))
        self.assertIn("the runner's record does not stand the arena's checks: the game's "
                      "clocks are tc=5 and tc=5", game.reason)
        self.assertEqual(self.play(lambda game: record_of(game, 0)).status, Game.DONE)


class RacingWorkersTest(TransactionTestCase):
    """Eight workers' claims at once over HTTP for four check games: each taken once."""

    def test_each_game_is_claimed_once(self):
        teams.ensure_house()
        for name in "abcd":
            team, _ = teams.add_team(name)
            teams.upload(team, "my_player.py", AGENT)
        _, token = worker_tokens.add("lab")
        claimed, barrier = [], threading.Barrier(8)

        def claim(index):
            try:
                barrier.wait()
                answer = Client().post("/api/worker/claim", json.dumps({"worker": str(index)}),
                                       content_type="application/json",
                                       HTTP_AUTHORIZATION=f"Token {token}")
                if answer.status_code == 200:
                    claimed.append(answer.json()["game"])
            finally:
                connections.close_all()
        threads = [threading.Thread(target=claim, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        checks = set(Game.objects.filter(purpose=Game.CHECK).values_list("pk", flat=True))
        self.assertEqual(len(claimed), len(set(claimed)), "a game claimed twice")
        self.assertLessEqual(checks, set(claimed))
