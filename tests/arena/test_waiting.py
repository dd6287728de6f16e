"""What a team waits for (core/waiting.py): GET /api/agents lists its versions and its games
queued or being played, each with its place in the claims' order and an estimate."""

from datetime import timedelta

from arena_games import AGENT, ready
from django.test import Client, TestCase
from django.utils import timezone

from divercite.arena.core import game_queue, teams, waiting
from divercite.arena.core.models import Entry, Game


class WaitingTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        Entry.objects.filter(kind=Entry.HOUSE).delete()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.beta, self.beta_token = teams.add_team("beta")

    def agents(self, token):
        return Client().get("/api/agents", HTTP_AUTHORIZATION=f"Token {token}")

    def finished(self, purpose, seconds, count=3):
        """`count` finished games of `purpose` that took `seconds` each."""
        version = ready(teams.upload(self.beta, "my_player.py", AGENT))
        Game.objects.filter(status=Game.QUEUED).delete()
        now = timezone.now()
        for _ in range(count):
            Game.objects.create(p1=version, p2=version, purpose=purpose, status=Game.DONE,
                                started=now - timedelta(seconds=seconds), ended=now)

    def test_versions_and_the_check_s_place(self):
        self.assertEqual(self.agents("nobody").status_code, 401)
        self.finished(Game.CHECK, 60)
        # Two checks queued ahead of alpha's, no worker at work: one worker assumed.
        for name in ("c1", "c2"):
            team, _ = teams.add_team(name)
            teams.upload(team, "my_player.py", AGENT)
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        answer = self.agents(self.alpha_token)
        self.assertEqual(answer.status_code, 200)
        data = answer.json()
        self.assertEqual([(v["version"], v["number"], v["status"]) for v in data["versions"]],
                         [(version.pk, 1, "checking")])
        (line,) = data["waiting"]
        check = Game.objects.get(p1=version)
        self.assertEqual((line["game"], line["purpose"], line["status"], line["place"]),
                         (check.pk, "check", "queued", 3))
        # Two checks of 60 s ahead on one worker, and half a game for it to be free.
        self.assertEqual(line["starts_in_seconds"], 2 * 60 + 30)

    def test_a_game_being_played_and_a_ready_version_s_first_game(self):
        self.finished(Game.MATCHMADE, 600)
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        check = game_queue.claim("w/0")
        self.assertEqual(check.p1_id, version.pk)
        (line,) = waiting.waiting(self.alpha)
        self.assertEqual((line["status"], line["place"], line["starts_in_seconds"]),
                         ("playing", None, None))
        Game.objects.filter(pk=check.pk).update(status=Game.DONE, ended=timezone.now())
        ready(version)
        (line,) = waiting.waiting(self.alpha)
        self.assertEqual((line["purpose"], line["place"]), ("first rated game", 1))
        # No game queued ahead and no game being played: a worker takes it now.
        self.assertEqual(line["starts_in_seconds"], 0.0)

    def test_no_history_no_estimate_and_another_team_sees_nothing_of_it(self):
        teams.upload(self.alpha, "my_player.py", AGENT)
        teams.upload(self.beta, "my_player.py", AGENT)
        alpha_line, = waiting.waiting(self.alpha)
        beta_line, = waiting.waiting(self.beta)
        self.assertEqual((alpha_line["place"], beta_line["place"]), (1, 2))
        self.assertIsNone(beta_line["starts_in_seconds"], "no check finished: not known")
        self.assertEqual([line["p1"] for line in self.agents(self.beta_token).json()["waiting"]],
                         ["beta"])
        page = Client()
        page.force_login(self.alpha.user)
        self.assertContains(page.get("/teams/alpha/"), "Place in the queue")
        self.assertNotContains(page.get("/teams/beta/"), "Place in the queue")
