#!/usr/bin/python3
"""Runs the arena's Django tests (test_*.py of this folder but the process and browser ones)
on a fresh arena folder and Django's test database: SQLite in the folder, or with
--postgresql a PostgreSQL server of their own (tests/arena/postgres_server.py):

    tests/arena/run_tests.py [-v N] [--postgresql] [test_uploads | test_uploads.UploadTest ...]
"""

import argparse
import contextlib
import sys

from arena_support import HERE, setup_django
from postgres_server import PostgresServer

UNIT_SUITES = ["test_models", "test_uploads", "test_storage", "test_api", "test_matchmaking",
               "test_standings", "test_team_page", "test_backup", "test_worker_api",
               "test_audit", "test_limits", "test_tournament", "test_live", "test_requests",
               "test_fair_games", "test_staff", "test_command_line", "test_waiting"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", nargs="*", help=f"default: {' '.join(UNIT_SUITES)}")
    parser.add_argument("-v", "--verbosity", type=int, default=2)
    parser.add_argument("--postgresql", action="store_true",
                        help="on a PostgreSQL server of the tests' own, not SQLite")
    arguments = parser.parse_args()
    with contextlib.ExitStack() as stack:
        database = None
        if arguments.postgresql:
            database = stack.enter_context(PostgresServer()).url
        setup_django(database=database)
        from django.conf import settings
        # Every test's client is one address (127.0.0.1): on a fast machine the suites' anonymous
        # requests would add up to the arena's limit a minute. test_requests sets its own.
        settings.ARENA.anonymous_requests_per_minute = 0
        # A fast hasher, as Django's documentation advises for tests: the default (PBKDF2,
        # 260,000 rounds) took two thirds of these suites' time on the teams' tokens and the
        # staff's passwords. The arena keeps the default: the process tests run it as served.
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
        from django.test.runner import DiscoverRunner
        sys.path.insert(0, str(HERE))
        runner = DiscoverRunner(verbosity=arguments.verbosity, top_level=str(HERE))
        return 1 if runner.run_tests(arguments.labels or UNIT_SUITES) else 0


if __name__ == "__main__":
    sys.exit(main())
