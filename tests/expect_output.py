#!/usr/bin/env python3
"""Runs a command and checks both its exit status and its output, for ctest.

    expect_output.py [--status N | --fails] [--match REGEX]... [--no-match REGEX]... -- COMMAND...

CTest's PASS_REGULAR_EXPRESSION ignores the exit status, so a test that printed the expected
lines and then crashed would pass; this checks both. The command's stdout and stderr are
echoed (stderr after stdout); the regular expressions (Python's `re.search`, `.` not matching a
newline) are searched in the two together. Exit status 0 when every check holds, 1 otherwise,
with a line per failed check.
"""
import argparse
import re
import subprocess
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    status = parser.add_mutually_exclusive_group()
    status.add_argument("--status", type=int, default=0, help="the exit status expected (0)")
    status.add_argument("--fails", action="store_true", help="expect a non-zero exit status")
    parser.add_argument("--match", action="append", default=[], metavar="REGEX")
    parser.add_argument("--no-match", action="append", default=[], metavar="REGEX")
    parser.add_argument("command", nargs="+")
    args = parser.parse_args()

    result = subprocess.run(args.command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    sys.stdout.write(result.stdout)
    sys.stdout.write(result.stderr)
    output = result.stdout + result.stderr
    failures = []
    if args.fails and result.returncode == 0:
        failures.append("exit status 0, expected a failure")
    if not args.fails and result.returncode != args.status:
        failures.append(f"exit status {result.returncode}, expected {args.status}")
    failures += [f"no match for {regex!r}" for regex in args.match if not re.search(regex, output)]
    failures += [f"unexpected match for {regex!r}" for regex in args.no_match
                 if re.search(regex, output)]
    for failure in failures:
        print(f"expect_output.py: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
