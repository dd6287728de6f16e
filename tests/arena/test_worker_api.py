"""The workers' API (worker_api): worker tokens and who may claim, a claimed game's seats and
the versions' files, leases renewed by heartbeats and lost without them, results kept once
however often they are posted, failures, games given back."""

import datetime
import io
import json
import threading
import zipfile

from arena_games import AGENT, record_of
from django.db import connections
from django.test import Client, TestCase, TransactionTestCase
from django.utils import timezone

from divercite.arena import queue, teams, worker_tokens
from divercite.arena.models import Entry, Game, Version, WorkerToken


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
        self.assertEqual(claimed["lease_seconds"], queue.lease_seconds())
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

    def test_failures_are_tried_three_times(self):
        claim = self.claimed["claim"]
        for attempt in range(queue.ATTEMPTS):
            answer = self.post(f"{self.path}/failed", {"claim": claim, "reason": "no bwrap"})
            self.assertEqual(answer.status_code, 200)
            if attempt + 1 < queue.ATTEMPTS:
                self.assertEqual(answer.json(), {"queued_again": True})
                claim = self.claim(f"host/{attempt}").json()["claim"]
        self.assertEqual(answer.json(), {"queued_again": False})
        game = Game.objects.get(pk=self.game.pk)
        self.assertEqual((game.status, game.reason), (Game.FAILED, "lab-1: no bwrap"))

    def test_a_game_given_back_is_queued_at_once(self):
        answer = self.post(f"{self.path}/release", {"claim": self.claimed["claim"]})
        self.assertEqual(answer.status_code, 200)
        self.assertEqual(Game.objects.get(pk=self.game.pk).status, Game.QUEUED)
        self.assertEqual(self.claim().json()["game"], self.game.pk)

    def test_a_restart_of_serve_leaves_remote_games_playing(self):
        self.assertEqual(queue.requeue_cut_games(), 0)
        self.assertEqual(Game.objects.get(pk=self.game.pk).status, Game.PLAYING)


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
