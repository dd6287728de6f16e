"""`divercite-arena backup` / `restore`: a backup taken while games are being written holds
one consistent moment (every finished game whole, its versions and their folders there) and
restores into a new arena that reads it; on SQLite and, with run_tests.py --postgresql, on
PostgreSQL (restored into a new database of the same server)."""

import json
import secrets
import shutil
import sqlite3
import tempfile
import threading
from pathlib import Path

from arena_games import AGENT, play, ready
from django.conf import settings
from django.db import connection, connections
from django.test import TransactionTestCase

from divercite.arena.core import backup, teams
from divercite.arena import arena_folder
from divercite.arena.core.models import Entry, Game


TEAM_VERSIONS = ("select v.id from arena_version v join arena_entry e on v.entry_id = e.id "
                 f"where e.kind = '{Entry.TEAM}'")
DONE_GAMES = f"select record, result from arena_game where status = '{Game.DONE}'"


class BackupTest(TransactionTestCase):
    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_backup_test_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)

    def test_a_backup_taken_while_games_are_written_restores_whole(self):
        teams.ensure_house()
        alpha, _ = teams.add_team("alpha")
        mine = ready(teams.upload(alpha, "my_player.py", AGENT))
        Game.objects.filter(status=Game.QUEUED).delete()  # its check game
        house = Entry.objects.get(name="greedy").current_version()
        for k in range(5):
            play(mine, house, k)
        before = Game.objects.filter(status=Game.DONE).count()

        writing = threading.Event()
        stop = threading.Event()
        failures = []

        def writer():
            try:
                k = 0
                while not stop.is_set():
                    play(house, mine, k)
                    k += 1
                    writing.set()
            except BaseException as error:  # reported by the test's thread
                failures.append(error)
            finally:
                connections.close_all()

        thread = threading.Thread(target=writer)
        thread.start()
        writing.wait(30)
        out = self.temp / "arena-backup.tar.gz"
        try:
            summary = backup.create(settings.ARENA, connection.settings_dict, out)
        finally:
            stop.set()
            thread.join(60)
        self.assertEqual(failures, [])
        after = Game.objects.filter(status=Game.DONE).count()
        self.assertEqual(summary["database"], connection.vendor)

        target = self.temp / "restored"
        if connection.vendor == "postgresql":
            url = self.empty_database()
            restored = backup.restore(out, target, url)
            rows = self.postgresql_rows(url)
        else:
            restored = backup.restore(out, target, None)
            rows = self.sqlite_rows(restored.sqlite)
        versions, games = rows
        self.assertTrue(before <= len(games) <= after, (before, len(games), after))
        for record, result in games:
            self.assertEqual(json.loads(record)["result"], result, "a game cut in two")
        self.assertTrue(versions)
        for version in versions:  # the teams' versions: each with its files
            self.assertTrue((restored.agents / str(version) / "my_player.py").is_file(), version)
        self.assertEqual(arena_folder.load(target).secret_key, settings.ARENA.secret_key)
        with self.assertRaises(arena_folder.ArenaError):
            backup.restore(out, target, None)  # not over an arena

    @staticmethod
    def sqlite_rows(path):
        with sqlite3.connect(path) as database:
            versions = [pk for (pk,) in database.execute(TEAM_VERSIONS)]
            games = database.execute(DONE_GAMES).fetchall()
        return versions, games

    def empty_database(self) -> str:
        """A new database on the test's PostgreSQL server, dropped at the end; its URL."""
        name = f"restored_{secrets.token_hex(4)}"
        with connection.cursor() as cursor:
            cursor.execute(f"create database {name}")
        self.addCleanup(self.drop_database, name)
        database = connection.settings_dict
        return (f"postgresql://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:"
                f"{database['PORT']}/{name}")

    @staticmethod
    def drop_database(name):
        with connection.cursor() as cursor:
            cursor.execute(f"drop database if exists {name} with (force)")

    @staticmethod
    def postgresql_rows(url):
        import psycopg2
        with psycopg2.connect(url) as database, database.cursor() as cursor:
            cursor.execute(TEAM_VERSIONS)
            versions = [pk for (pk,) in cursor.fetchall()]
            cursor.execute(DONE_GAMES)
            games = cursor.fetchall()
        database.close()
        return versions, games
