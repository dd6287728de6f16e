"""The administrator's audit log: the command line's actions (team add, an upload on a team's
behalf) and the admin pages' (every add, change with the fields changed, delete, by the
admin's name; logins with their address) each leave an entry; a team's own uploads and
challenges leave none; the admin pages show the log and let no one change it; and
`divercite-arena audit` prints it, newest first."""

import contextlib
import io
import shutil
import tempfile
from datetime import timedelta
from pathlib import Path

from arena_games import AGENT, ready
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client, TestCase
from django.utils import timezone

from divercite.arena.core import audit, teams
from divercite.arena.cli import main as cli
from divercite.arena.core.models import AuditEntry, Entry, Game, Version


def run_cli(*arguments):
    """divercite-arena ARGUMENTS on the tests' arena: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = cli.main(list(arguments))
    return status, out.getvalue(), err.getvalue()


def entries(**fields):
    return list(AuditEntry.objects.filter(**fields))


class RecordTest(TestCase):
    def test_the_function_others_call(self):
        made = audit.record(audit.COMMAND_LINE, "worker-token add", "rack-1", "created")
        self.assertEqual(entries(), [made])
        self.assertEqual((made.actor, made.action, made.target, made.detail),
                         ("command line", "worker-token add", "rack-1", "created"))
        self.assertLess(abs(made.when - timezone.now()), timedelta(seconds=30))
        cut = audit.record("x" * 300, "y" * 300, "z" * 300)
        cut.refresh_from_db()
        self.assertEqual((len(cut.actor), len(cut.action), len(cut.target), cut.detail),
                         (150, 40, 200, ""))

    def test_newest_first(self):
        first = audit.record("a", "one")
        second = audit.record("a", "two")
        self.assertEqual(entries(), [second, first])


class CommandLineTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.folder = str(settings.ARENA.folder)
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_audit_test_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)

    def test_team_add_is_recorded_without_the_token(self):
        status, out, _ = run_cli("team", "add", self.folder, "gamma", "delta", "bad name")
        self.assertEqual(status, 1)  # "bad name" refused, and not recorded
        tokens = dict(line.split() for line in out.splitlines())
        self.assertEqual(sorted(tokens), ["delta", "gamma"])
        made = entries()
        self.assertEqual([(e.actor, e.action, e.target) for e in made],
                         [("command line", "team add", "delta"),
                          ("command line", "team add", "gamma")])
        for entry in made:
            self.assertNotIn(tokens[entry.target], entry.detail + entry.target)

    def test_an_upload_on_a_team_s_behalf_is_recorded(self):
        alpha, _ = teams.add_team("alpha")
        agent = self.temp / "my_player.py"
        agent.write_bytes(AGENT)
        status, out, err = run_cli("upload", self.folder, "alpha", str(agent))
        self.assertEqual(status, 0, err)
        version = Version.objects.get(entry=alpha)
        [entry] = entries()
        self.assertEqual((entry.actor, entry.action, entry.target, entry.detail),
                         ("command line", "upload", "alpha",
                          f"version 1 (id {version.pk}) from my_player.py"))
        bad = self.temp / "broken.py"
        bad.write_bytes(b"def (:\n")
        self.assertEqual(run_cli("upload", self.folder, "alpha", str(bad))[0], 1)
        self.assertEqual(len(entries()), 1, "a refused upload changed nothing")

    def test_a_team_s_own_actions_are_not_the_administrator_s(self):
        alpha, alpha_token = teams.add_team("alpha")
        beta, _ = teams.add_team("beta")
        client = Client()
        headers = {"HTTP_AUTHORIZATION": f"Token {alpha_token}"}
        upload = io.BytesIO(AGENT)
        upload.name = "my_player.py"
        self.assertEqual(client.post("/api/agents", {"file": upload}, **headers).status_code,
                         201)
        ready(alpha.versions.get())
        answer = client.post("/api/challenges", {"opponent": "random", "games": 2},
                             content_type="application/json", **headers)
        self.assertEqual(answer.status_code, 201, answer.content)
        page = Client()
        self.assertTrue(page.login(username="alpha", password=alpha_token))
        upload = io.BytesIO(AGENT)
        upload.name = "my_player.py"
        self.assertEqual(page.post("/upload/", {"file": upload}).status_code, 302)
        self.assertEqual(page.post("/challenge/", {"opponent": "greedy", "games": "1"})
                         .status_code, 302)
        self.assertEqual(entries(), [])

    def test_the_audit_command_prints_the_newest_entries(self):
        for k in range(5):
            audit.record(audit.COMMAND_LINE, "team add", f"team{k}")
        audit.record("boss", "change", "entry team1 (id 9)",
                     "challenge_quota: 20 -> 40\nsecond line")
        status, out, _ = run_cli("audit", self.folder, "--limit", "3")
        self.assertEqual(status, 0)
        lines = out.splitlines()
        self.assertEqual(len(lines), 3)
        when, actor, action, target, detail = lines[0].split("\t")
        self.assertRegex(when, r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$")
        self.assertEqual((actor, action, target, detail),
                         ("boss", "change", "entry team1 (id 9)",
                          "challenge_quota: 20 -> 40 second line"))
        self.assertEqual([line.split("\t")[1:] for line in lines[1:]],
                         [["command line", "team add", "team4"],
                          ["command line", "team add", "team3"]])
        self.assertEqual(len(run_cli("audit", self.folder, "--limit", "0")[1].splitlines()), 6)
        self.assertEqual(len(run_cli("audit", self.folder)[1].splitlines()), 6)  # 50 at most
        with self.assertRaises(SystemExit):
            run_cli("audit", self.folder, "--limit", "-1")


class AdminPagesTest(TestCase):
    PASSWORD = "the-admin's-password"

    def setUp(self):
        teams.ensure_house()
        self.alpha, self.alpha_token = teams.add_team("alpha")
        self.boss = User.objects.create_superuser("boss", password=self.PASSWORD)
        self.admin = Client(REMOTE_ADDR="10.1.2.3")
        answer = self.admin.post("/admin/login/", {"username": "boss", "password": self.PASSWORD,
                                                   "next": "/admin/"})
        self.assertEqual(answer.status_code, 302)

    def actions(self):
        """The entries but the logins', oldest first."""
        return list(AuditEntry.objects.exclude(action__startswith="log").order_by("when", "id"))

    def test_every_model_admin_of_the_site_is_audited(self):
        self.assertIn(User, admin.site._registry)
        for model, model_admin in admin.site._registry.items():
            with self.subTest(model=model.__name__):
                self.assertIsInstance(model_admin, audit.AuditedAdmin)

    def test_the_admin_s_login_is_recorded_with_its_address(self):
        [login] = entries(action="login")
        self.assertEqual((login.actor, login.target, login.detail),
                         ("boss", "", "from 10.1.2.3"))

    def test_failed_logins_on_the_admin_s_page_or_as_a_staff_user(self):
        stranger = Client(REMOTE_ADDR="192.0.2.9")
        self.assertEqual(stranger.post("/admin/login/", {"username": "boss",
                                                         "password": "guess"}).status_code, 200)
        stranger.post("/admin/login/", {"username": "nobody", "password": "guess"})
        stranger.post("/login/", {"username": "boss", "password": "guess"})
        failed = list(AuditEntry.objects.filter(action="login failed").order_by("id"))
        self.assertEqual([(e.actor, e.target, e.detail) for e in failed], [
            ("anonymous", "boss", "from 192.0.2.9 on /admin/login/"),
            ("anonymous", "nobody", "from 192.0.2.9 on /admin/login/"),
            ("anonymous", "boss", "from 192.0.2.9 on /login/")])
        for entry in failed:
            self.assertNotIn("guess", entry.detail)

    def test_a_team_s_logins_are_not_recorded(self):
        team = Client()
        team.post("/login/", {"username": "alpha", "password": "wrong"})
        self.assertEqual(team.post("/login/", {"username": "alpha",
                                               "password": self.alpha_token}).status_code, 302)
        team.post("/logout/")
        self.assertEqual(entries(target="alpha"), [])
        self.assertEqual(entries(actor="alpha"), [])

    def test_a_change_names_the_fields_with_their_old_and_new_values(self):
        answer = self.admin.post(f"/admin/arena/entry/{self.alpha.pk}/change/", {
            "name": "alpha", "kind": Entry.TEAM, "user": self.alpha.user.pk,
            "challenge_quota": "40", "_save": "Save"})
        self.assertEqual(answer.status_code, 302, answer.content[:2000])
        self.alpha.refresh_from_db()
        self.assertEqual(self.alpha.challenge_quota, 40)
        [change] = self.actions()
        self.assertEqual((change.actor, change.action, change.target, change.detail),
                         ("boss", "change", f"entry alpha (id {self.alpha.pk})",
                          "challenge_quota: 20 -> 40"))
        self.admin.post(f"/admin/arena/entry/{self.alpha.pk}/change/", {
            "name": "alpha2", "kind": Entry.HOUSE, "user": self.alpha.user.pk,
            "challenge_quota": "40", "_save": "Save"})
        self.assertEqual(self.actions()[-1].detail,
                         "name: 'alpha' -> 'alpha2'; kind: 'team' -> 'house'")
        self.admin.post(f"/admin/arena/entry/{self.alpha.pk}/change/", {
            "name": "alpha2", "kind": Entry.HOUSE, "user": "", "challenge_quota": "40",
            "_save": "Save"})
        self.assertEqual(self.actions()[-1].detail, "user: alpha -> (none)")
        self.admin.post(f"/admin/arena/entry/{self.alpha.pk}/change/", {
            "name": "alpha2", "kind": Entry.HOUSE, "user": "", "challenge_quota": "40",
            "_save": "Save"})
        self.assertEqual(self.actions()[-1].detail, "no fields changed")

    def test_an_addition_by_any_model_admin_with_its_secrets_kept_out(self):
        """Django's own User admin too; the password typed is not written."""
        answer = self.admin.post("/admin/auth/user/add/", {
            "username": "helper", "password1": "helper-Secret-42",
            "password2": "helper-Secret-42", "_save": "Save"})
        self.assertEqual(answer.status_code, 302, answer.content[:2000])
        helper = User.objects.get(username="helper")
        [added] = self.actions()
        self.assertEqual((added.actor, added.action, added.target),
                         ("boss", "add", f"user helper (id {helper.pk})"))
        self.assertEqual(added.detail, "username: 'helper'; password1: set; password2: set")
        answer = self.admin.post(f"/admin/auth/user/{helper.pk}/password/", {
            "password1": "other-Secret-43", "password2": "other-Secret-43"})
        self.assertEqual(answer.status_code, 302, answer.content[:2000])
        changed = self.actions()[-1]
        self.assertEqual((changed.action, changed.detail), ("change", "Changed password."))
        for entry in AuditEntry.objects.all():
            self.assertNotIn("Secret", entry.detail + entry.target)
            self.assertNotIn(helper.password, entry.detail)

    def test_deletions_one_or_many_at_once(self):
        version = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        answer = self.admin.post(f"/admin/arena/version/{version.pk}/delete/", {"post": "yes"})
        self.assertEqual(answer.status_code, 302, answer.content[:2000])
        self.assertFalse(Version.objects.filter(pk=version.pk).exists())
        [deleted] = self.actions()
        self.assertEqual((deleted.actor, deleted.action, deleted.target),
                         ("boss", "delete", f"version alpha v1 (id {version.pk})"))
        house = [Entry.objects.get(name=name).current_version() for name in ("random", "greedy")]
        games = [Game.objects.create(p1=house[0], p2=house[1], purpose=Game.MATCHMADE)
                 for _ in range(3)]
        answer = self.admin.post("/admin/arena/game/", {
            "action": "delete_selected", "_selected_action": [g.pk for g in games],
            "post": "yes"})
        self.assertEqual(answer.status_code, 302, answer.content[:2000])
        self.assertFalse(Game.objects.filter(pk__in=[g.pk for g in games]).exists())
        self.assertEqual(sorted(e.target for e in self.actions() if e.target.startswith("game")),
                         sorted(f"game {g.pk}: random v1 - greedy v1 (id {g.pk})"
                                for g in games))

    def test_the_log_is_shown_and_read_only(self):
        audit.record(audit.COMMAND_LINE, "team add", "alpha")
        entry = AuditEntry.objects.get(action="team add")
        listed = self.admin.get("/admin/arena/auditentry/")
        self.assertContains(listed, "team add")
        self.assertContains(listed, "command line")
        self.assertNotContains(listed, "delete_selected")
        shown = self.admin.get(f"/admin/arena/auditentry/{entry.pk}/change/")
        self.assertEqual(shown.status_code, 200)
        self.assertNotContains(shown, 'name="_save"')
        self.assertEqual(self.admin.get("/admin/arena/auditentry/add/").status_code, 403)
        self.assertEqual(self.admin.post(f"/admin/arena/auditentry/{entry.pk}/change/", {
            "actor": "someone else", "action": "team add", "target": "alpha",
            "detail": ""}).status_code, 403)
        self.assertEqual(self.admin.post(f"/admin/arena/auditentry/{entry.pk}/delete/",
                                         {"post": "yes"}).status_code, 403)
        self.admin.post("/admin/arena/auditentry/", {
            "action": "delete_selected", "_selected_action": [entry.pk], "post": "yes"})
        entry.refresh_from_db()
        self.assertEqual(entry.actor, "command line")
        self.assertEqual(AuditEntry.objects.filter(action="delete").count(), 0)
