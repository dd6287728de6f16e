"""A team's uploads an hour (arena.json's upload_limit_per_hour): the one over the limit is
refused, 429 with a Retry-After that says when one of the hour's uploads leaves it, and taken
once it has; the upload page says why; the administrator's `divercite-arena upload` is not
limited; uploads racing from threads (each its own connection) never pass the limit, on
SQLite and, with run_tests.py --postgresql, on PostgreSQL. And the setting itself: an older
arena.json without it reads as 12, a wrong one is refused."""

import contextlib
import io
import json
import shutil
import tempfile
import threading
from datetime import timedelta
from pathlib import Path
from unittest import mock

from arena_games import AGENT
from django.conf import settings
from django.db import connections
from django.test import Client, TestCase, TransactionTestCase
from django.utils import timezone

from divercite.arena.cli import main as cli
from divercite.arena import arena_folder
from divercite.arena.core import teams
from divercite.arena.core.models import AuditEntry, Game, UploadAttempt, Version

LIMIT = 3


def agent_file():
    upload = io.BytesIO(AGENT)
    upload.name = "my_player.py"
    return upload


def post_agent(client, token):
    return client.post("/api/agents", {"file": agent_file()},
                       HTTP_AUTHORIZATION=f"Token {token}")


class LimitTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.token = teams.add_team("alpha")
        self.beta, self.beta_token = teams.add_team("beta")
        self.client = Client()
        limit = mock.patch.object(settings.ARENA, "upload_limit_per_hour", LIMIT)
        limit.start()
        self.addCleanup(limit.stop)

    def age(self, number, minutes):
        """Version `number` of alpha as uploaded `minutes` ago."""
        when = timezone.now() - timedelta(minutes=minutes)
        Version.objects.filter(entry=self.alpha, number=number).update(created=when)
        # Each version here was the team's upload attempt of its number.
        attempt = self.alpha.upload_attempts.order_by("id")[number - 1]
        UploadAttempt.objects.filter(pk=attempt.pk).update(when=when)

    def test_the_upload_over_the_limit_is_refused_until_one_leaves_the_hour(self):
        for _ in range(LIMIT):
            self.assertEqual(post_agent(self.client, self.token).status_code, 201)
        for number, minutes in ((1, 50), (2, 40), (3, 30)):
            self.age(number, minutes)
        checks = Game.objects.filter(purpose=Game.CHECK).count()
        refused = post_agent(self.client, self.token)
        self.assertEqual(refused.status_code, 429)
        self.assertAlmostEqual(int(refused["Retry-After"]), 10 * 60, delta=3)
        self.assertEqual(refused.json(), {"error": refused.json()["error"]})
        self.assertRegex(refused.json()["error"],
                         r"^3 uploads an hour at most, and your team has sent 3 in the last "
                         r"hour: the next is taken in (9 min 5\d|10 min 0) s$")
        self.assertEqual(self.alpha.versions.count(), LIMIT)
        self.assertEqual(Game.objects.filter(purpose=Game.CHECK).count(), checks)
        # Another team is not limited by alpha's uploads.
        self.assertEqual(post_agent(self.client, self.beta_token).status_code, 201)

        self.age(1, 61)  # the oldest has left the hour
        accepted = post_agent(self.client, self.token)
        self.assertEqual(accepted.status_code, 201, accepted.content)
        self.assertEqual(Version.objects.get(pk=accepted.json()["version"]).number, 4)
        refused = post_agent(self.client, self.token)
        self.assertEqual(refused.status_code, 429)
        self.assertAlmostEqual(int(refused["Retry-After"]), 20 * 60, delta=3)  # v2's turn

    def test_retry_after_when_more_than_the_limit_are_counted(self):
        """The administrator's uploads count too (they are the team's versions): with 5 in
        the hour and a limit of 3, the next is taken when the 3 oldest have left it."""
        for _ in range(5):
            teams.upload(self.alpha, "my_player.py", AGENT)
        for number, minutes in ((1, 59), (2, 55), (3, 45), (4, 5), (5, 1)):
            self.age(number, minutes)
        refused = post_agent(self.client, self.token)
        self.assertEqual(refused.status_code, 429)
        self.assertAlmostEqual(int(refused["Retry-After"]), 15 * 60, delta=3)
        self.assertIn("your team has sent 5 in the last hour", refused.json()["error"])

    def test_the_upload_page_says_why(self):
        for _ in range(LIMIT):
            teams.upload(self.alpha, "my_player.py", AGENT)
        page = Client()
        self.assertTrue(page.login(username="alpha", password=self.token))
        self.assertContains(page.get("/upload/"), "at most 3 versions an hour")
        answer = page.post("/upload/", {"file": agent_file()})
        self.assertContains(answer, "Refused: 3 uploads an hour at most, and your team has "
                                    "sent 3 in the last hour: the next is taken in")
        self.assertEqual(self.alpha.versions.count(), LIMIT)
        self.age(1, 70)
        answer = page.post("/upload/", {"file": agent_file()})
        self.assertRedirects(answer, "/teams/alpha/", fetch_redirect_response=False)
        self.assertEqual(self.alpha.versions.count(), LIMIT + 1)

    def test_the_administrator_s_upload_is_not_limited_but_audited(self):
        for _ in range(LIMIT):
            self.assertEqual(post_agent(self.client, self.token).status_code, 201)
        temp = Path(tempfile.mkdtemp(prefix="divercite_limits_test_"))
        self.addCleanup(shutil.rmtree, temp, ignore_errors=True)
        (temp / "my_player.py").write_bytes(AGENT)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            status = cli.main(["upload", str(settings.ARENA.folder), "alpha",
                               str(temp / "my_player.py")])
        self.assertEqual(status, 0)
        self.assertIn("alpha version 4", out.getvalue())
        self.assertEqual(self.alpha.versions.count(), LIMIT + 1)
        [entry] = AuditEntry.objects.all()
        self.assertEqual((entry.actor, entry.action, entry.target),
                         ("command line", "upload", "alpha"))

    def test_no_limit_when_it_is_0(self):
        with mock.patch.object(settings.ARENA, "upload_limit_per_hour", 0):
            for _ in range(LIMIT + 2):
                self.assertEqual(post_agent(self.client, self.token).status_code, 201)
            page = Client()
            self.assertTrue(page.login(username="alpha", password=self.token))
            self.assertNotContains(page.get("/upload/"), "an hour")


class SettingTest(TestCase):
    def setUp(self):
        self.folder = Path(tempfile.mkdtemp(prefix="divercite_limits_setting_"))
        self.addCleanup(shutil.rmtree, self.folder, ignore_errors=True)

    def write(self, **values):
        (self.folder / arena_folder.SETTINGS_FILE).write_text(json.dumps(
            dict({"secret_key": "k", "tc": 5.0, "database": None, "challenge_quota": 20,
                  "placement_games": 8, "course": ""}, **values)))

    def test_an_older_arena_json_without_it_reads_as_12(self):
        self.write()
        self.assertEqual(arena_folder.load(self.folder).upload_limit_per_hour, 12)
        self.write(upload_limit_per_hour=0)
        self.assertEqual(arena_folder.load(self.folder).upload_limit_per_hour, 0)
        self.assertEqual(settings.ARENA.upload_limit_per_hour, 12)  # init's default
        saved = json.loads((settings.ARENA.folder / arena_folder.SETTINGS_FILE).read_text())
        self.assertEqual(saved["upload_limit_per_hour"], 12)

    def test_a_wrong_value_is_refused(self):
        for wrong in (-1, 2.5, "12", True, None):
            with self.subTest(wrong=wrong):
                self.write(upload_limit_per_hour=wrong)
                with self.assertRaisesRegex(arena_folder.ArenaError, "upload_limit_per_hour"):
                    arena_folder.load(self.folder)


class UploadRaceTest(TransactionTestCase):
    """Uploads of one team racing, each a thread with its own connection (as the server's
    request threads are): counted inside the transaction that creates the version, the team's
    row locked, never more than the limit get through."""

    THREADS = 8

    def test_racing_uploads_do_not_pass_the_limit(self):
        teams.ensure_house()
        _, token = teams.add_team("alpha")
        start = threading.Barrier(self.THREADS)
        answers = []
        failures = []

        def send():
            try:
                client = Client()
                start.wait()
                answer = post_agent(client, token)
                answers.append((answer.status_code, answer.get("Retry-After")))
            except BaseException as error:  # reported by the test's thread
                failures.append(error)
            finally:
                connections.close_all()

        with mock.patch.object(settings.ARENA, "upload_limit_per_hour", LIMIT):
            threads = [threading.Thread(target=send) for _ in range(self.THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(120)
        self.assertEqual(failures, [])
        codes = sorted(code for code, _ in answers)
        self.assertEqual(codes, [201] * LIMIT + [429] * (self.THREADS - LIMIT))
        for code, retry_after in answers:
            if code == 429:
                self.assertGreater(int(retry_after), 3500)
        self.assertEqual(sorted(Version.objects.filter(entry__name="alpha")
                                .values_list("number", flat=True)), [1, 2, 3])
