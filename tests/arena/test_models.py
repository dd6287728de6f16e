"""The models and what teams.py and game_queue.py do with them: teams and their tokens, the house,
versions and their folders, challenges, and a game's life in the queue (claimed once,
finished once, its check settling its version, failed after its attempts)."""

import hashlib
import io

from arena_games import AGENT, DRAWN, REFERENCE_GAMES, play, ready, record_of
from django.conf import settings
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.test import TestCase

from divercite.arena.play import house
from divercite.arena.core import game_queue, teams
from divercite.arena.core.models import Challenge, Entry, Game, Version
from divercite.arena.agent_files.uploads import UploadError


class MigrationsTest(TestCase):
    def test_the_migrations_make_the_models(self):
        """A field added to models.py without its migration (written by hand, as they are
        here) fails here rather than on a teacher's `serve`."""
        out = io.StringIO()
        call_command("makemigrations", "arena", "--check", "--dry-run", stdout=out)
        self.assertIn("No changes detected", out.getvalue())


class TeamsTest(TestCase):
    def setUp(self):
        teams.ensure_house()

    def test_the_token_is_the_password_and_only_its_digest_is_kept(self):
        """A stolen database gives no team's token: the entry keeps a SHA-256, the user a
        salted hash."""
        entry, token = teams.add_team("alpha")
        self.assertGreaterEqual(len(token), 24)
        self.assertEqual(entry.token_digest, hashlib.sha256(token.encode()).hexdigest())
        self.assertEqual(authenticate(username="alpha", password=token), entry.user)
        user = User.objects.get(username="alpha")
        self.assertFalse(user.is_staff or user.is_superuser)
        self.assertNotIn(token, user.password)
        self.assertEqual(teams.team_of_token(token), entry)
        for wrong in ("", token[:-1], token + "x", entry.token_digest):
            with self.subTest(wrong=wrong):
                self.assertIsNone(teams.team_of_token(wrong))

    def test_two_teams_have_different_tokens(self):
        _, first = teams.add_team("alpha")
        beta, second = teams.add_team("beta")
        self.assertNotEqual(first, second)
        self.assertEqual(teams.team_of_token(second), beta)

    def test_a_name_must_fit_records_files_and_addresses(self):
        for name in ("", "-alpha", ".hidden", "a b", "a;b", "a/b", "équipe", "x" * 41, "alpha\n"):
            with self.subTest(name=name), self.assertRaises(ValidationError):
                teams.add_team(name)
        self.assertEqual(Entry.objects.filter(kind=Entry.TEAM).count(), 0)
        self.assertEqual(User.objects.count(), 0, "a refused team left its user")
        entry, _ = teams.add_team("Team_1.b-2")
        self.assertEqual(entry.kind, Entry.TEAM)

    def test_a_name_taken_by_a_team_the_house_or_the_administrator(self):
        teams.add_team("alpha")
        User.objects.create_superuser("admin", password="admin-password")
        for name in ("alpha", "greedy", house.CHECKER, "admin"):
            with self.subTest(name=name):
                with self.assertRaises(ValidationError) as caught:
                    teams.add_team(name)
                self.assertIn("is taken", str(caught.exception))
        self.assertEqual(Entry.objects.get(name="greedy").kind, Entry.HOUSE)

    def test_the_house_is_made_once(self):
        teams.ensure_house()
        playing = [name for name, level in house.HOUSE.items() if not level.retired]
        for name in playing:
            with self.subTest(name=name):
                entry = Entry.objects.get(name=name)
                self.assertEqual(entry.kind, Entry.HOUSE)
                version = entry.versions.get()
                self.assertEqual((version.status, version.house), (Version.READY, name))
        checker = Entry.objects.get(kind=Entry.CHECKER)
        self.assertEqual(checker.name, "course-random")
        self.assertEqual(checker.versions.get().house, "")
        self.assertEqual(Entry.objects.count(), len(playing) + 1)  # no retired level made
        self.assertIsNone(checker.user)

    def test_the_current_version_is_the_newest_ready_one(self):
        alpha, _ = teams.add_team("alpha")
        self.assertIsNone(alpha.current_version())
        first = ready(teams.upload(alpha, "my_player.py", AGENT))
        second = ready(teams.upload(alpha, "my_player.py", AGENT))
        third = teams.upload(alpha, "my_player.py", AGENT)  # still checking
        self.assertEqual([v.number for v in (first, second, third)], [1, 2, 3])
        self.assertEqual(alpha.current_version(), second)
        Version.objects.filter(pk=third.pk).update(status=Version.REJECTED)
        self.assertEqual(alpha.current_version(), second)
        Version.objects.filter(pk=second.pk).update(status=Version.REJECTED)
        self.assertEqual(alpha.current_version(), first)

    def test_a_number_is_one_version_s(self):
        alpha, _ = teams.add_team("alpha")
        Version.objects.create(entry=alpha, number=1)
        with self.assertRaises(IntegrityError), transaction.atomic():
            Version.objects.create(entry=alpha, number=1)

    def test_an_upload_unpacks_into_the_version_s_own_folder(self):
        alpha, _ = teams.add_team("alpha")
        version = teams.upload(alpha, "alpha_agent.py", AGENT)
        self.assertEqual(version.folder, settings.ARENA.agents / str(version.pk))
        self.assertEqual([p.name for p in version.folder.iterdir()], ["my_player.py"])
        self.assertEqual((version.folder / version.agent_file).read_bytes(), AGENT)
        self.assertEqual((version.upload_name, version.status), ("alpha_agent.py", "checking"))
        check = Game.objects.get()
        self.assertEqual((check.p1, check.p2.entry.kind, check.purpose),
                         (version, Entry.CHECKER, Game.CHECK))

    def test_a_refused_upload_leaves_nothing(self):
        alpha, _ = teams.add_team("alpha")
        with self.assertRaises(UploadError):
            teams.upload(alpha, "my_player.py", b"def f(:\n")
        self.assertFalse(Version.objects.filter(entry=alpha).exists())
        self.assertFalse(Game.objects.exists())
        self.assertEqual(teams.upload(alpha, "my_player.py", AGENT).number, 1)

    def test_a_folder_left_by_a_rolled_back_upload_is_replaced(self):
        """SQLite gives a rolled-back version's id again; its folder, written before the
        rollback, must not mix its files into the new version's. (PostgreSQL's sequences
        never give an id twice: the new version has a folder of its own.)"""
        alpha, _ = teams.add_team("alpha")

        class RolledBack(Exception):
            pass
        try:
            with transaction.atomic():
                ghost = Version.objects.create(entry=alpha, number=1)
                ghost.folder.mkdir(parents=True, exist_ok=True)
                (ghost.folder / "stale.py").write_text("LEFT = 'over'\n")
                raise RolledBack
        except RolledBack:
            pass
        version = teams.upload(alpha, "my_player.py", AGENT)
        if connection.vendor == "sqlite":
            self.assertEqual(version.pk, ghost.pk, "the id was not given again: no leftover")
        self.assertEqual(sorted(p.name for p in version.folder.iterdir()), ["my_player.py"])

    def test_a_challenge_is_taken_from_the_quota_in_the_database(self):
        alpha, _ = teams.add_team("alpha")
        mine = ready(teams.upload(alpha, "my_player.py", AGENT))
        made, queued = teams.challenge(alpha, "greedy", 4)
        greedy = Entry.objects.get(name="greedy").current_version()
        self.assertEqual((made.team, made.opponent, made.games), (alpha, greedy, 4))
        self.assertEqual([(g.p1, g.p2) for g in queued], [(mine, greedy), (greedy, mine)] * 2)
        self.assertTrue(all(g.purpose == Game.CHALLENGE and g.challenge == made
                            for g in queued))
        self.assertEqual(Entry.objects.get(pk=alpha.pk).challenge_quota, 16)
        for games in (0, -1, True, 2.0, "2"):
            with self.subTest(games=games), self.assertRaises(teams.RequestRefused):
                teams.challenge(alpha, "greedy", games)
        with self.assertRaises(teams.RequestRefused) as caught:
            teams.challenge(alpha, house.CHECKER, 1)
        self.assertIn("no team or house opponent", str(caught.exception))
        self.assertEqual(Challenge.objects.count(), 1)
        self.assertEqual(Entry.objects.get(pk=alpha.pk).challenge_quota, 16)


class GameTest(TestCase):
    def setUp(self):
        teams.ensure_house()
        self.greedy = Entry.objects.get(name="greedy").current_version()
        self.random = Entry.objects.get(name="random").current_version()

    def test_the_loser(self):
        game = Game.objects.create(p1=self.greedy, p2=self.random, purpose=Game.MATCHMADE)
        self.assertIsNone(game.loser(), "a queued game has no loser")
        for result, loser in (("1-0", self.random), ("0-1", self.greedy), ("1/2-1/2", None)):
            with self.subTest(result=result):
                game.status, game.result = Game.DONE, result
                self.assertEqual(game.loser(), loser)

    def test_a_finished_game_keeps_its_record_and_its_numbers(self):
        game = play(self.greedy, self.random, 5)
        reference = REFERENCE_GAMES[5]
        self.assertEqual((game.status, game.result, game.termination), ("done", "1-0", "normal"))
        self.assertEqual([game.score1, game.score2], reference["final"])
        self.assertEqual([m["move"] for m in game_queue.record_of(game)["moves"]],
                         reference["moves"])
        self.assertIsNotNone(game.ended)
        self.assertIsNotNone(game.divercites1)
        self.assertEqual(game.analysis, "", "a house opponent's lost game is not analysed")
        drawn = play(self.greedy, self.random, DRAWN)
        self.assertEqual((drawn.result, drawn.score1), ("1/2-1/2", drawn.score2))


class QueueTest(TestCase):
    """The queue's promises: each game is claimed by one worker, counted once, and settles its
    version."""

    def setUp(self):
        teams.ensure_house()
        self.alpha, _ = teams.add_team("alpha")
        self.greedy = Entry.objects.get(name="greedy").current_version()

    def check_game(self):
        version = teams.upload(self.alpha, "my_player.py", AGENT)
        return version, game_queue.claim("w")

    def test_claims_never_share_a_game(self):
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        queued = {Game.objects.get(p1=mine).pk}
        for _ in range(5):
            queued.add(Game.objects.create(p1=mine, p2=self.greedy, purpose=Game.MATCHMADE).pk)
        claimed = [game_queue.claim(f"w{i}") for i in range(len(queued))]
        self.assertEqual({game.pk for game in claimed}, queued)
        self.assertEqual(len({game.pk for game in claimed}), len(claimed))
        self.assertEqual([game.worker for game in claimed],
                         [f"w{i}" for i in range(len(queued))])
        self.assertTrue(all(game.status == Game.PLAYING and game.attempts == 1
                            for game in claimed))
        self.assertIsNone(game_queue.claim("late"))

    def test_a_game_started_by_matchmaking_is_not_claimed_again(self):
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.all().delete()
        game = game_queue.start_matchmade_game(mine, self.greedy, "w0")
        self.assertEqual((game.status, game.worker, game.attempts), (Game.PLAYING, "w0", 1))
        self.assertIsNone(game_queue.claim("w1"))
        self.assertTrue(game_queue.finish(game, record_of(game, 2)))
        done = Game.objects.get(pk=game.pk)
        self.assertEqual((done.status, done.result), (Game.DONE, "0-1"))
        self.assertEqual(done.analysis, "pending", "a team's lost game waits for its analysis")

    def test_a_game_is_finished_once(self):
        version, game = self.check_game()
        self.assertTrue(game_queue.finish(game, record_of(game, 0)))
        record = Game.objects.get(pk=game.pk).record
        self.assertFalse(game_queue.finish(game, record_of(game, 1)), "finished twice")
        self.assertEqual(Game.objects.get(pk=game.pk).record, record)

    def test_only_the_claiming_worker_finishes(self):
        version, game = self.check_game()
        stranger = Game.objects.get(pk=game.pk)
        stranger.worker = "another"
        self.assertFalse(game_queue.finish(stranger, record_of(stranger, 0)))
        self.assertEqual(Game.objects.get(pk=game.pk).status, Game.PLAYING)
        version.refresh_from_db()
        self.assertEqual(version.status, Version.CHECKING)

    def test_a_stop_requeues_only_its_own_workers_games(self):
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.create(p1=mine, p2=self.greedy, purpose=Game.MATCHMADE)
        first, second = game_queue.claim("serve-1/0"), game_queue.claim("serve-2/0")
        self.assertEqual(game_queue.requeue_cut_games("serve-1/"), 1)
        self.assertEqual(Game.objects.get(pk=first.pk).status, Game.QUEUED)
        self.assertEqual(Game.objects.get(pk=second.pk).status, Game.PLAYING)
        self.assertFalse(game_queue.finish(first, record_of(first, 0)))
        self.assertFalse(Game.objects.filter(status=Game.DONE).exists())
        self.assertEqual(game_queue.requeue_cut_games(), 1)

    def test_the_check_s_verdict(self):
        """Rejected for a fault of the version's own (it moved first); ready for a loss on
        the board, an adjudication or the checker's own fault."""
        normal_loss = next(i for i, game in enumerate(REFERENCE_GAMES)
                           if game["final"][0] < game["final"][1])
        cases = [
            (dict(index=normal_loss), Version.READY, ""),
            (dict(index=DRAWN), Version.READY, ""),
            (dict(index=0, termination="adjudication", reason="ply limit", plies=10),
             Version.READY, ""),
            (dict(index=0, termination="crash", reason="course-random crashed", plies=5),
             Version.READY, ""),
            (dict(index=0, termination="timeout", reason="alpha's clock ran out", plies=8),
             Version.REJECTED, "alpha timeout on move 9: alpha's clock ran out"),
            (dict(index=0, termination="stall", reason="no move in 60 s", plies=2),
             Version.REJECTED, "alpha stopped answering on move 3: no move in 60 s"),
            (dict(index=0, termination="maxplies", reason="cut after 8 moves (-maxplies 8)",
                  plies=8, result="1/2-1/2"), Version.READY, ""),
        ]
        for ending, status, reason in cases:
            with self.subTest(**ending):
                version, game = self.check_game()
                index = ending.pop("index")
                self.assertTrue(game_queue.finish(game, record_of(game, index, **ending)))
                version.refresh_from_db()
                self.assertEqual((version.status, version.reason), (status, reason))
                self.assertEqual(Game.objects.get(pk=game.pk).analysis, "",
                                 "a check game is not analysed")

    def test_a_failed_matchmade_game_leaves_the_versions_alone(self):
        mine = ready(teams.upload(self.alpha, "my_player.py", AGENT))
        Game.objects.all().delete()
        Game.objects.create(p1=mine, p2=self.greedy, purpose=Game.MATCHMADE)
        for attempt in range(game_queue.ATTEMPTS):
            game = game_queue.claim("w")
            stale = Game.objects.get(pk=game.pk)
            stale.worker = "gone"
            game_queue.fail(stale, "not this worker's any more")  # ignored
            self.assertEqual(Game.objects.get(pk=game.pk).status, Game.PLAYING)
            game_queue.fail(game, f"runner failed, attempt {attempt + 1}")
        failed = Game.objects.get(pk=game.pk)
        self.assertEqual((failed.status, failed.reason),
                         (Game.FAILED, f"runner failed, attempt {game_queue.ATTEMPTS}"))
        self.assertIsNotNone(failed.ended)
        self.assertIsNone(game_queue.claim("w"))
        mine.refresh_from_db()
        self.assertEqual(mine.status, Version.READY)


class DatabaseUrlTest(TestCase):
    """`init --database`: a PostgreSQL URL it can reach, else a refusal that says why."""

    def test_a_database_that_is_not_postgresql_or_not_reached_is_refused(self):
        from divercite.arena import arena_folder
        for url, words in (("mysql://u:p@localhost/arena", "a URL postgresql://"),
                           ("postgresql://u:p@localhost:5432", "a URL postgresql://"),
                           ("postgresql://u:p@127.0.0.1:1/arena",
                            "cannot connect to 127.0.0.1:1/arena")):
            with self.subTest(url=url), self.assertRaises(arena_folder.ArenaError) as refused:
                arena_folder.check_postgresql(url)
            self.assertIn(words, str(refused.exception))
