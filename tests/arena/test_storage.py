"""What a team's uploads may cost the arena (issue 55): every attempt counted by the hourly
limit, a team's storage quota, rejected versions' files removed at once and superseded ones'
after the retention, one pending check a team, and checks held to their share of the
workers."""

from __future__ import annotations

import contextlib
import io
import random
from datetime import timedelta
from unittest import mock

from arena_games import AGENT, ready, record_of
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, TestCase
from django.utils import timezone

from divercite.arena.cli import main as cli
from divercite.arena.core import game_queue, storage, teams, tournament, serve_workers
from divercite.arena.core.models import Entry, Game, Tournament, TournamentEntry, Version
from divercite.arena.agent_files.uploads import UploadError


def settings_patch(test, **values):
    for name, value in values.items():
        patch = mock.patch.object(settings.ARENA, name, value)
        patch.start()
        test.addCleanup(patch.stop)


class AttemptsTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.token = teams.add_team("alpha")
        settings_patch(self, upload_limit_per_hour=3)

    def post(self, name, content):
        return Client().post("/api/agents", {"file": SimpleUploadedFile(name, content)},
                             HTTP_AUTHORIZATION=f"Token {self.token}")

    def test_refused_uploads_count_toward_the_limit(self):
        for _ in range(3):
            answer = self.post("my_player.py", b"def f(:\n")
            self.assertEqual(answer.status_code, 400)
        over = self.post("my_player.py", AGENT)
        self.assertEqual(over.status_code, 429)
        self.assertIn("your team has sent 3 in the last hour", over.json()["error"])
        self.assertEqual(self.alpha.versions.count(), 0)
        self.assertEqual(list(self.alpha.upload_attempts.values_list("refused", flat=True)),
                         ["my_player.py line 1: not Python (invalid syntax)"] * 3)

    def test_a_file_too_large_counts_and_is_not_read(self):
        answer = self.post("my_player.py", b"#" * ((20 << 20) + 1))
        self.assertEqual(answer.status_code, 400)
        self.assertIn("at most 20 MB", answer.json()["error"])
        self.assertEqual(self.alpha.upload_attempts.count(), 1)


class StorageTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, self.token = teams.add_team("alpha")

    def test_the_quota_counts_the_versions_kept(self):
        settings_patch(self, team_storage_mb=1)
        big = AGENT + b"#" * (600 << 10) + b"\n"
        first = teams.upload(self.alpha, "my_player.py", big)
        self.assertEqual(first.size, len(big))
        self.assertEqual(storage.used_bytes(self.alpha), len(big))
        with self.assertRaisesRegex(UploadError, r"this version takes 0\.6 MB and your team's "
                                                 r"versions already 0\.6 MB of the 1 MB"):
            teams.upload(self.alpha, "my_player.py", big)
        # A version whose files were removed no longer counts.
        Game.objects.filter(purpose=Game.CHECK).delete()
        self.assertTrue(storage.remove_files(Version.objects.get(pk=first.pk)))
        self.assertEqual(storage.used_bytes(self.alpha), 0)
        teams.upload(self.alpha, "my_player.py", big)

    def test_a_rejected_version_s_files_go_once_its_reason_is_kept(self):
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        self.assertTrue((version.folder / "my_player.py").is_file())
        check = game_queue.claim("test")
        self.assertEqual(check.p1_id, version.pk)
        with self.captureOnCommitCallbacks(execute=True):
            self.assertTrue(game_queue.finish(check, record_of(check, 0, termination="time",
                                                               reason="no bestmove", plies=10)))
        version.refresh_from_db()
        self.assertEqual(version.status, Version.REJECTED)
        # Its clock was tc=5: 4.9 s after its five moves of the reference game's.
        self.assertRegex(version.reason, r"^alpha ran out of time on move 11 \(it had \d\.\d s "
                                         r"left and used it all on that one move\)$")
        self.assertFalse(version.folder.exists())
        self.assertIsNotNone(version.files_removed)
        self.assertTrue(Game.objects.get(pk=check.pk).record)  # its record stays

    def test_superseded_versions_go_after_the_retention(self):
        settings_patch(self, retention_days=7)
        old, frozen, middle, current = (ready(teams.upload(self.alpha, "my_player.py", AGENT))
                                        for _ in range(4))
        beta, _ = teams.add_team("beta")
        opponent = ready(teams.upload(beta, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        made = Tournament.objects.create(name="final", tc=5)
        TournamentEntry.objects.create(tournament=made, version=frozen)
        # A game still queued needs its versions, superseded or not.
        Game.objects.create(p1=middle, p2=opponent, purpose=Game.CHALLENGE)
        Version.objects.filter(pk=current.pk).update(
            created=timezone.now() - timedelta(days=8))
        self.assertEqual(storage.prune(), 1)  # old: frozen, middle and current stay
        gone = {version.pk for version in Version.objects.filter(files_removed__isnull=False)}
        self.assertEqual(gone, {old.pk})
        self.assertFalse(old.folder.exists())
        for kept in (frozen, middle, current, opponent):
            self.assertTrue(kept.folder.exists(), kept)
        Game.objects.filter(purpose=Game.CHALLENGE).delete()
        self.assertEqual(storage.prune(), 1)  # middle
        self.assertEqual(storage.prune(), 0)

    def test_a_tournament_does_not_take_a_version_without_its_files(self):
        old = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        self.assertTrue(storage.remove_files(old))
        with self.assertRaisesRegex(tournament.RequestRefused, "alpha's version 1: its files were "
                                    "removed on"):
            tournament.create("final", 5, 2, chosen={"alpha": 1})

    def test_within_the_retention_nothing_superseded_goes(self):
        settings_patch(self, retention_days=7)
        for _ in range(2):
            ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.filter(purpose=Game.CHECK).delete()
        self.assertEqual(storage.prune(), 0)

    def test_team_list_shows_each_team_s_storage(self):
        teams.upload(self.alpha, "my_player.py", AGENT)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            cli.main(["team", "list", str(settings.ARENA.folder)])
        self.assertIn(f"storage: 0.0 of {settings.ARENA.team_storage_mb} MB", out.getvalue())


class OnePendingCheckTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.alpha, _ = teams.add_team("alpha")

    def test_a_newer_upload_drops_the_queued_check(self):
        first = teams.upload(self.alpha, "my_player.py", AGENT)
        with self.captureOnCommitCallbacks(execute=True):
            second = teams.upload(self.alpha, "my_player.py", AGENT)
        first.refresh_from_db()
        self.assertEqual(first.status, Version.REJECTED)
        self.assertEqual(first.reason, "superseded by version 2 before its check game ended")
        self.assertFalse(first.folder.exists())
        checks = Game.objects.filter(purpose=Game.CHECK)
        self.assertEqual([game.p1_id for game in checks], [second.pk])

    def test_a_check_being_played_is_stopped(self):
        first = teams.upload(self.alpha, "my_player.py", AGENT)
        check = game_queue.claim("serve-1/0")
        self.assertTrue(game_queue.still_claimed(check.pk, check.worker))
        teams.upload(self.alpha, "my_player.py", AGENT)
        self.assertFalse(game_queue.still_claimed(check.pk, check.worker))
        stopped = Game.objects.get(pk=check.pk)
        self.assertEqual(stopped.status, Game.FAILED)
        # Its worker's record, should it still come, is not kept.
        self.assertFalse(game_queue.finish(check, record_of(check, 0)))
        first.refresh_from_db()
        self.assertEqual(first.status, Version.REJECTED)
        # Its folder waits for nothing that plays: removed at the next prune.
        self.assertEqual(storage.prune(), 1)


class CheckShareTest(TestCase):
    """Checks hold at most check_share of the busy workers while another game waits; past it
    they still go before a worker idles."""

    def setUp(self):
        teams.ensure_house()
        settings_patch(self, check_share=0.5)
        self.teams = [teams.add_team(name)[0] for name in ("a", "b", "c", "d")]

    def test_checks_and_other_games_share_the_workers(self):
        for team in self.teams:
            teams.upload(team, "my_player.py", AGENT)
        house = Entry.objects.filter(kind=Entry.HOUSE).order_by("name")
        h1, h2 = (entry.versions.get() for entry in house[:2])
        for _ in range(3):
            Game.objects.create(p1=h1, p2=h2, purpose=Game.CHALLENGE)
        rng = random.Random(1)
        claimed = [serve_workers.next_game(f"w/{i}", rng) for i in range(4)]
        purposes = [game.purpose for game in claimed]
        self.assertEqual(purposes, [Game.CHECK, Game.CHALLENGE, Game.CHECK, Game.CHALLENGE])
        # With no other game waiting, the remaining checks go before a worker idles.
        Game.objects.filter(purpose=Game.CHALLENGE, status=Game.QUEUED).delete()
        Version.objects.filter(entry__kind=Entry.HOUSE).update(status=Version.REJECTED)
        more = [serve_workers.next_game(f"w/{i}", rng) for i in range(4, 6)]
        self.assertEqual([game.purpose for game in more], [Game.CHECK, Game.CHECK])

    def test_checks_are_taken_in_upload_order_one_a_team(self):
        a, b = self.teams[:2]
        teams.upload(a, "my_player.py", AGENT)
        teams.upload(b, "my_player.py", AGENT)
        teams.upload(a, "my_player.py", AGENT)  # supersedes a's first: b's goes first now
        first = game_queue.claim("w/0")
        self.assertEqual(first.p1.entry.name, "b")
        second = game_queue.claim("w/1")
        self.assertEqual((second.p1.entry.name, second.p1.number), ("a", 2))
