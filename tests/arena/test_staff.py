"""The staff's side of the arena: teams added on the admin pages with their token shown once
(then logging in and using the API with it), tokens reset on the admin pages and on the
command line (the old one refused at once, as a key, a password and a session), each in the
audit log without the token; the staff's own tokens (`staff add | token | list`); the
staff's status (staff_status.compute) on /staff/ and as GET /api/status, refused (403) to
teams, workers and anonymous askers; serve's workers registered and seen."""

import contextlib
import io
import re
from datetime import timedelta
from unittest import mock

from arena_games import AGENT, ready
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from divercite.arena.cli import main as cli
from divercite.arena.core import serve_workers, staff_status, teams, tournament, worker_tokens
from divercite.arena.core.models import (AuditEntry, Entry, Game, ServeWorker, Version,
                                         WorkerToken)

BOSS_PASSWORD = "the-boss's-password"


def run_cli(*arguments):
    """divercite-arena ARGUMENTS on the tests' arena: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main([str(argument) for argument in arguments])
    return status, out.getvalue(), err.getvalue()


def tokens_on(page) -> dict:
    """{team: token} from the admin's page of new tokens."""
    return dict(re.findall(r"<tr><td>([^<]+)</td><td><code>([^<]+)</code></td></tr>",
                           page.content.decode()))


class StaffTestCase(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.boss = User.objects.create_superuser("boss", password=BOSS_PASSWORD)
        self.admin = Client()
        self.assertTrue(self.admin.login(username="boss", password=BOSS_PASSWORD))

    def assert_token_works(self, name, token):
        """The team logs in with it and uploads through the API with it."""
        self.assertTrue(Client().login(username=name, password=token))
        upload = io.BytesIO(AGENT)
        upload.name = "my_player.py"
        answer = Client().post("/api/agents", {"file": upload},
                               HTTP_AUTHORIZATION=f"Token {token}")
        self.assertEqual(answer.status_code, 201, answer.content)
        self.assertEqual(Version.objects.get(pk=answer.json()["version"]).entry.name, name)

    def assert_token_refused(self, name, token):
        self.assertFalse(Client().login(username=name, password=token))
        self.assertEqual(Client().post("/api/challenges", {"opponent": "greedy", "games": 1},
                                       content_type="application/json",
                                       HTTP_AUTHORIZATION=f"Token {token}").status_code, 401)

    def assert_no_secret_logged(self, *tokens):
        for entry in AuditEntry.objects.all():
            for token in tokens:
                self.assertNotIn(token, entry.target + entry.detail)


class TeamAddedOnTheAdminTest(StaffTestCase):
    def test_its_token_is_shown_once_and_works(self):
        answer = self.admin.post("/admin/arena/entry/add/", {
            "name": "zeta", "challenge_quota": "35", "_save": "Save"})
        self.assertEqual(answer.status_code, 200, answer.content[:2000])
        self.assertIn("no-store", answer["Cache-Control"])
        self.assertContains(answer, "shown this once")
        [(name, token)] = tokens_on(answer).items()
        self.assertEqual(name, "zeta")
        zeta = Entry.objects.get(name="zeta")
        self.assertEqual((zeta.kind, zeta.challenge_quota, zeta.user.username),
                         (Entry.TEAM, 35, "zeta"))
        self.assertEqual(teams.team_of_token(token), zeta)
        self.assert_token_works("zeta", token)
        [added] = AuditEntry.objects.filter(action="add")
        self.assertEqual((added.actor, added.target, added.detail),
                         ("boss", f"entry zeta (id {zeta.pk})",
                          "name: 'zeta'; challenge_quota: 35"))
        self.assert_no_secret_logged(token)
        # Its page shows the token no more: only the digest is kept.
        self.assertNotContains(self.admin.get(f"/admin/arena/entry/{zeta.pk}/change/"), token)
        status, _, err = run_cli("team", "add", settings.ARENA.folder, "zeta")
        self.assertEqual(status, 1)
        self.assertIn("zeta is taken", err)

    def test_a_name_taken_or_malformed_is_refused_on_the_form(self):
        for name, why in (("boss", "boss is taken"), ("alpha", "alpha is taken"),
                          ("bad name", "letters, digits")):
            with self.subTest(name=name):
                answer = self.admin.post("/admin/arena/entry/add/", {
                    "name": name, "challenge_quota": "20", "_save": "Save"})
                self.assertEqual(answer.status_code, 200)
                self.assertContains(answer, why)
                self.assertEqual(tokens_on(answer), {})
        self.assertEqual(Entry.objects.filter(kind=Entry.TEAM).count(), 1)
        self.assertFalse(AuditEntry.objects.filter(action="add").exists())

    def test_the_add_form_asks_for_the_name_and_quota_only(self):
        page = self.admin.get("/admin/arena/entry/add/").content.decode()
        self.assertIn('name="name"', page)
        self.assertIn('name="challenge_quota"', page)
        for field in ("kind", "user", "token_digest"):
            self.assertNotIn(f'name="{field}"', page)


class TokenResetTest(StaffTestCase):
    def test_on_the_admin_pages(self):
        beta, beta_token = teams.add_team("beta")
        session = Client()
        self.assertTrue(session.login(username="alpha", password=self.alpha_token))
        self.assertEqual(session.get("/upload/").status_code, 200)
        house = Entry.objects.get(name="greedy")
        answer = self.admin.post("/admin/arena/entry/", {
            "action": "reset_token", "_selected_action": [self.alpha.pk, beta.pk, house.pk]})
        self.assertEqual(answer.status_code, 200, answer.content[:2000])
        self.assertIn("no-store", answer["Cache-Control"])
        issued = tokens_on(answer)
        self.assertEqual(sorted(issued), ["alpha", "beta"])
        self.assertContains(answer, "<li>greedy is a house entry: only a team has a token</li>")
        for name, old in (("alpha", self.alpha_token), ("beta", beta_token)):
            self.assert_token_refused(name, old)
            self.assert_token_works(name, issued[name])
        # The session logged in with the old token is over.
        self.assertEqual(session.get("/upload/").status_code, 302)
        self.assertEqual([(e.actor, e.target) for e in
                          AuditEntry.objects.filter(action="team token reset")
                          .order_by("target")], [("boss", "alpha"), ("boss", "beta")])
        self.assert_no_secret_logged(*issued.values(), self.alpha_token, beta_token)

    def test_no_team_selected(self):
        house = Entry.objects.get(name="greedy")
        answer = self.admin.post("/admin/arena/entry/", {
            "action": "reset_token", "_selected_action": [house.pk]}, follow=True)
        self.assertContains(answer, "No token reset: greedy is a house entry: only a team has "
                                    "a token")
        self.assertFalse(AuditEntry.objects.filter(action="team token reset").exists())

    def test_on_the_command_line(self):
        folder = settings.ARENA.folder
        status, out, err = run_cli("team", "token", folder, "alpha")
        self.assertEqual(status, 0, err)
        name, token = out.split()
        self.assertEqual(name, "alpha")
        self.assertIn("shown this once", err)
        self.assert_token_refused("alpha", self.alpha_token)
        self.assert_token_works("alpha", token)
        [reset] = AuditEntry.objects.filter(action="team token reset")
        self.assertEqual((reset.actor, reset.target, reset.detail),
                         ("command line", "alpha", ""))
        for name in ("nobody", "greedy"):
            status, _, err = run_cli("team", "token", folder, name)
            self.assertEqual(status, 2)
            self.assertIn(f"no team named {name!r}", err)
        self.assertEqual(AuditEntry.objects.exclude(action="login").count(), 1)

    def test_a_team_without_a_login_gets_one(self):
        """A team made before the admin pages could add one (no user, no token): the reset
        makes its login, unless its name is another user's."""
        legacy = Entry.objects.create(name="legacy", kind=Entry.TEAM)
        status, out, err = run_cli("team", "token", settings.ARENA.folder, "legacy")
        self.assertEqual(status, 0, err)
        self.assert_token_works("legacy", out.split()[1])
        self.assertEqual(Entry.objects.get(pk=legacy.pk).user.username, "legacy")
        Entry.objects.create(name="boss", kind=Entry.TEAM)
        status, _, err = run_cli("team", "token", settings.ARENA.folder, "boss")
        self.assertEqual(status, 2)
        self.assertIn("the user boss is someone else's", err)
        self.assertTrue(User.objects.get(username="boss").check_password(BOSS_PASSWORD))


class StaffTokenTest(StaffTestCase):
    def status(self, token):
        return Client().get("/api/status", HTTP_AUTHORIZATION=f"Token {token}")

    def test_staff_add(self):
        folder = settings.ARENA.folder
        status, out, err = run_cli("staff", "add", folder, "ta1")
        self.assertEqual(status, 0, err)
        name, token = out.split()
        self.assertEqual(name, "ta1")
        self.assertIn("shown this once", err)
        user = User.objects.get(username="ta1")
        self.assertTrue(user.is_staff and user.is_superuser)
        page = Client()
        self.assertTrue(page.login(username="ta1", password=token))
        self.assertEqual(page.get("/admin/arena/entry/").status_code, 200)
        self.assertEqual(self.status(token).status_code, 200)
        [added] = AuditEntry.objects.filter(action="staff add")
        self.assertEqual((added.actor, added.target, added.detail), ("command line", "ta1", ""))
        self.assert_no_secret_logged(token)
        for name, why in (("alpha", "alpha is taken"), ("ta1", "ta1 is taken"),
                          ("greedy", "greedy is taken"), ("bad name", "letters, digits")):
            status, _, err = run_cli("staff", "add", folder, name)
            self.assertEqual(status, 2)
            self.assertIn(why, err)
        self.assertEqual(AuditEntry.objects.filter(action="staff add").count(), 1)

    def test_staff_token_replaces_the_password_and_the_old_token(self):
        folder = settings.ARENA.folder
        status, out, err = run_cli("staff", "token", folder, "boss")
        self.assertEqual(status, 0, err)
        first = out.split()[1]
        self.assertFalse(Client().login(username="boss", password=BOSS_PASSWORD))
        self.assertTrue(Client().login(username="boss", password=first))
        self.assertEqual(self.status(first).status_code, 200)
        second = run_cli("staff", "token", folder, "boss")[1].split()[1]
        self.assertEqual(self.status(first).status_code, 403)
        self.assertFalse(Client().login(username="boss", password=first))
        self.assertEqual(self.status(second).status_code, 200)
        self.assertEqual([(e.actor, e.target) for e in
                          AuditEntry.objects.filter(action="staff token reset")],
                         [("command line", "boss")] * 2)
        self.assert_no_secret_logged(first, second)
        for name in ("alpha", "nobody"):
            status, _, err = run_cli("staff", "token", folder, name)
            self.assertEqual(status, 2)
            self.assertIn(f"no staff user named {name}", err)
        # A staff user made inactive (on the admin pages) is refused with its token.
        User.objects.filter(username="boss").update(is_active=False)
        self.assertEqual(self.status(second).status_code, 403)
        status, out, _ = run_cli("staff", "list", folder)
        self.assertRegex(out, r"^boss  token issued \d{4}-\d\d-\d\d \d\d:\d\d; inactive\n$")


class StatusPermissionsTest(StaffTestCase):
    def test_403_for_anyone_but_the_staff(self):
        _, staff_token = run_cli("staff", "add", settings.ARENA.folder, "ta1")[1].split()
        _, worker_token = worker_tokens.add("rack")
        team_session, staff_session = Client(), Client()
        self.assertTrue(team_session.login(username="alpha", password=self.alpha_token))
        self.assertTrue(staff_session.login(username="ta1", password=staff_token))
        for who, client, headers in (
                ("anonymous", Client(), {}),
                ("a team's token", Client(), {"HTTP_AUTHORIZATION": f"Token {self.alpha_token}"}),
                ("a worker's token", Client(), {"HTTP_AUTHORIZATION": f"Token {worker_token}"}),
                ("a wrong token", Client(), {"HTTP_AUTHORIZATION": "Token not-a-token"}),
                ("a team logged in", team_session, {})):
            with self.subTest(who=who):
                answer = client.get("/api/status", **headers)
                self.assertEqual(answer.status_code, 403)
                self.assertIn("staff token", answer.json()["error"])
                page = client.get("/staff/", **headers)
                self.assertEqual(page.status_code, 302 if who != "a team logged in" else 403)
        self.assertEqual(Client().get("/staff/")["Location"], "/login/?next=/staff/")
        for client, headers in ((Client(), {"HTTP_AUTHORIZATION": f"Token {staff_token}"}),
                                (staff_session, {})):
            answer = client.get("/api/status", **headers)
            self.assertEqual(answer.status_code, 200)
            self.assertIn("no-cache", answer["Cache-Control"])
            self.assertEqual(set(answer.json()), {"now", "queue", "workers", "games", "storage"})
        self.assertEqual(staff_session.get("/staff/").status_code, 200)
        self.assertEqual(Client().post("/api/status",
                                       HTTP_AUTHORIZATION=f"Token {staff_token}").status_code, 405)

    def test_a_staff_token_reads_what_the_staff_reads(self):
        """A tournament's CSV, a team's version; never counted as an anonymous request."""
        _, staff_token = run_cli("staff", "add", settings.ARENA.folder, "ta1")[1].split()
        token = {"HTTP_AUTHORIZATION": f"Token {staff_token}"}
        beta, _ = teams.add_team("beta")
        for entry in (self.alpha, beta):
            ready(teams.upload(entry, "my_player.py", AGENT))
        made = tournament.create("final", 30, 1).tournament
        answer = Client().get(f"/api/tournaments/{made.pk}/csv", **token)
        self.assertEqual(answer.status_code, 200)
        self.assertEqual(answer.content.decode(), tournament.csv_text(made))
        version = self.alpha.versions.get()
        self.assertEqual(Client().get(f"/api/agents/{version.pk}", **token).json()["team"],
                         "alpha")
        limit = settings.ARENA.anonymous_requests_per_minute
        self.addCleanup(setattr, settings.ARENA, "anonymous_requests_per_minute", limit)
        settings.ARENA.anonymous_requests_per_minute = 2
        self.assertEqual([Client().get("/api/status", **token).status_code
                          for _ in range(4)], [200] * 4)


class StatusTest(StaffTestCase):
    """A day of an arena, made by hand, and what the status says of it."""

    def setUp(self):
        super().setUp()
        now = self.now = timezone.now()
        house = {name: Entry.objects.get(name=name).current_version()
                 for name in ("random", "greedy", "skypiea_v5")}
        self.beta, _ = teams.add_team("beta")
        alpha_v1 = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        check = teams.upload(self.alpha, "my_player.py", AGENT).games_first.get()
        Game.objects.filter(pk=check.pk).update(queued=now - timedelta(minutes=48))
        Version.objects.filter(pk=alpha_v1.pk).update(size=3 << 20)
        removed = ready(teams.upload(self.beta, "my_player.py", AGENT))
        Version.objects.filter(pk=removed.pk).update(size=50 << 20, files_removed=now)
        Version.objects.filter(entry=self.beta).exclude(pk=removed.pk).update(size=1 << 20)
        Game.objects.filter(purpose=Game.CHECK).exclude(pk=check.pk).delete()

        def game(purpose, status, ago=None, **fields):
            made = Game.objects.create(p1=house["random"], p2=house["greedy"], purpose=purpose,
                                       status=status, **fields)
            if ago is not None:
                Game.objects.filter(pk=made.pk).update(ended=now - ago)
            return made
        game(Game.TOURNAMENT, Game.QUEUED)
        game(Game.TOURNAMENT, Game.QUEUED)
        game(Game.CHALLENGE, Game.QUEUED)
        self.own_game = game(Game.MATCHMADE, Game.PLAYING, worker="serve-7/0",
                             started=now - timedelta(minutes=5))
        game(Game.MATCHMADE, Game.PLAYING, worker="rack/1#a1b2c3",
             lease_until=now + timedelta(seconds=30))
        for ago, termination in ((timedelta(minutes=10), "normal"),
                                 (timedelta(minutes=50), "time"),
                                 (timedelta(hours=3), "time"), (timedelta(hours=5), "crash"),
                                 (timedelta(hours=30), "illegal")):
            game(Game.MATCHMADE, Game.DONE, ago, termination=termination, result="1-0")
        self.failed = game(Game.CHALLENGE, Game.FAILED, timedelta(hours=2), attempts=3,
                           reason="x" * 600 + " bubblewrap: no user namespaces")
        game(Game.TOURNAMENT, Game.FAILED, timedelta(days=2), reason="long ago")
        ServeWorker.objects.bulk_create([
            ServeWorker(name="serve-7/0", last_seen=now - timedelta(minutes=20)),
            ServeWorker(name="serve-7/1", last_seen=now - timedelta(seconds=20)),
            ServeWorker(name="serve-7/2", last_seen=now - timedelta(minutes=10))])
        for name, seen in (("rack", now - timedelta(seconds=5)),
                           ("old", now - timedelta(hours=1))):
            worker_tokens.add(name)
            WorkerToken.objects.filter(name=name).update(last_seen=seen)
        worker_tokens.add("gone")
        worker_tokens.revoke("gone")

    def test_what_it_says(self):
        status = staff_status.compute(self.now)
        self.assertEqual([(row["purpose"], row["queued"], row["playing"])
                          for row in status["queue"]],
                         [("check", 1, 0), ("tournament", 2, 0), ("challenge", 1, 0),
                          ("ladder", 0, 2)])
        self.assertEqual(status["queue"][0]["waiting_seconds"], 48 * 60)
        self.assertIsNone(status["queue"][3]["oldest_queued"])
        self.assertEqual([(w["name"], w["alive"], w["game"]) for w in status["workers"]["serve"]],
                         [("serve-7/0", True, self.own_game.pk), ("serve-7/1", True, None),
                          ("serve-7/2", False, None)])
        self.assertEqual([(w["name"], w["alive"], w["playing"], w["revoked"] is not None)
                          for w in status["workers"]["remote"]],
                         [("gone", False, 0, True), ("old", False, 0, False),
                          ("rack", True, 1, False)])
        played = status["games"]
        self.assertEqual((played["done_last_hour"], played["done_last_day"]), (2, 4))
        self.assertEqual(played["terminations_last_day"], {"time": 2, "crash": 1, "normal": 1})
        self.assertEqual(played["failed_last_day"], 1)
        [failed] = played["failed"]
        self.assertEqual((failed["id"], failed["purpose"], failed["p1"], failed["attempts"]),
                         (self.failed.pk, Game.CHALLENGE, "random", 3))
        self.assertEqual(len(failed["reason"]), staff_status.REASON_CHARACTERS)
        self.assertTrue(failed["reason"].endswith("bubblewrap: no user namespaces"))
        disk = status["storage"]
        self.assertEqual(disk["quota_bytes"], settings.ARENA.team_storage_mb << 20)
        self.assertEqual([(t["team"], t["bytes"], t["versions_kept"]) for t in disk["teams"]],
                         [("alpha", (3 << 20) + len(AGENT), 2), ("beta", 0, 0)])
        self.assertEqual(disk["total_bytes"], (3 << 20) + len(AGENT))

    def test_the_json_and_the_page_say_the_same(self):
        _, staff_token = run_cli("staff", "add", settings.ARENA.folder, "ta1")[1].split()
        answer = Client().get("/api/status", HTTP_AUTHORIZATION=f"Token {staff_token}").json()
        computed = staff_status.compute(parse_datetime(answer["now"]))
        self.assertEqual(answer["queue"][0]["oldest_queued"],
                         computed["queue"][0]["oldest_queued"].isoformat()[:23] + "Z")
        for key in ("games", "storage"):
            self.assertEqual({k: v for k, v in answer[key].items() if k != "failed"},
                             {k: v for k, v in computed[key].items() if k != "failed"})
        self.assertEqual([w["name"] for w in answer["workers"]["remote"]],
                         ["gone", "old", "rack"])
        page = self.admin.get("/staff/").content.decode()
        self.assertIn("no-cache", self.admin.get("/staff/")["Cache-Control"])
        self.assertIn('<a href="/staff/">Status</a>', page)
        self.assertIn("<tr><td>check</td><td>", page)
        self.assertIn("(waiting 48\xa0minutes)</td><td>1</td><td>0</td></tr>", page)
        self.assertIn(f'<a href="/games/{self.own_game.pk}/">{self.own_game.pk}</a>, for 5', page)
        self.assertIn('<tr><td>serve-7/2</td><td class="error">not seen</td>', page)
        self.assertIn('<tr><td>rack</td><td>alive</td>\n<td>1</td>', page)
        self.assertIn("2 games finished in the last hour; 4 in the last 24 hours (0.2 an hour)",
                      page)
        self.assertIn("<tr><td>time</td><td>2</td></tr>", page)
        self.assertIn("1 game failed in the last 24 hours", page)
        self.assertIn("bubblewrap: no user namespaces</pre>", page)
        self.assertIn('<a href="/teams/alpha/">alpha</a></td><td>2</td><td>3.0\xa0MB</td>', page)


class ServeWorkersSeenTest(TestCase):
    def test_registered_seen_and_gone(self):
        ServeWorker.objects.create(name="serve-1/0", last_seen=timezone.now())  # a killed one
        pool = serve_workers.Workers(2, "serve-9")
        pool.threads = []  # no thread: their rows and loop are what is tested
        pool.start()
        self.assertEqual(list(ServeWorker.objects.values_list("name", flat=True)),
                         ["serve-9/0", "serve-9/1"])
        an_hour_ago = timezone.now() - timedelta(hours=1)
        ServeWorker.objects.update(last_seen=an_hour_ago)
        # A worker's loop says it is alive once every SEEN_SECONDS (in monotonic time).
        with mock.patch.object(serve_workers.time, "monotonic", return_value=1000.0):
            self.assertEqual(serve_workers.note_seen("serve-9/1", None), 1000.0)
        seen = dict(ServeWorker.objects.values_list("name", "last_seen"))
        self.assertLess(timezone.now() - seen["serve-9/1"], timedelta(seconds=30))
        self.assertEqual(seen["serve-9/0"], an_hour_ago)
        ServeWorker.objects.update(last_seen=an_hour_ago)
        later = 1000.0 + serve_workers.SEEN_SECONDS
        with mock.patch.object(serve_workers.time, "monotonic", return_value=later - 1):
            self.assertEqual(serve_workers.note_seen("serve-9/1", 1000.0), 1000.0)
        self.assertEqual(ServeWorker.objects.get(name="serve-9/1").last_seen, an_hour_ago)
        with mock.patch.object(serve_workers.time, "monotonic", return_value=later):
            self.assertEqual(serve_workers.note_seen("serve-9/1", 1000.0), later)
        self.assertGreater(ServeWorker.objects.get(name="serve-9/1").last_seen, an_hour_ago)
        pool.stop()
        self.assertFalse(ServeWorker.objects.exists())
