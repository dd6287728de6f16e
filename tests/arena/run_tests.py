#!/usr/bin/python3
"""Runs the arena's Django tests (test_*.py of this folder but the process and browser ones)
on a fresh arena folder and Django's test database:

    tests/arena/run_tests.py [-v] [test_uploads | test_uploads.UploadTest.test_zip ...]
"""

import argparse
import sys

from arena_support import HERE, setup_django

UNIT_SUITES = ["test_models", "test_uploads", "test_api", "test_matchmaking", "test_standings"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labels", nargs="*", help=f"default: {' '.join(UNIT_SUITES)}")
    parser.add_argument("-v", "--verbosity", type=int, default=2)
    arguments = parser.parse_args()
    setup_django()
    from django.test.runner import DiscoverRunner
    sys.path.insert(0, str(HERE))
    runner = DiscoverRunner(verbosity=arguments.verbosity, top_level=str(HERE))
    return 1 if runner.run_tests(arguments.labels or UNIT_SUITES) else 0


if __name__ == "__main__":
    sys.exit(main())
