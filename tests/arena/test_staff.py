"""The staff's side of the arena: teams added on the admin pages with their token shown once
(then logging in and using the API with it), tokens reset on the admin pages and on the
command line (the old one refused at once, as a key, a password and a session), each in the
audit log without the token."""

import contextlib
import io
import re

from arena_games import AGENT
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, TestCase

from divercite.arena.cli import main as cli
from divercite.arena.core import teams
from divercite.arena.core.models import AuditEntry, Entry, Version

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
