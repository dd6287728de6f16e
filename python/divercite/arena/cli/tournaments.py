"""The command line of the final tournament (tournament.py): `divercite-arena tournament
create | list | show | csv | grading | retry`. No Django at import: main.py builds its parser
first."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import arena_folder


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: 1 or more")
    return value


def seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text}: seconds, more than 0")
    return value


def found(arguments):
    """The tournament `arguments.id`; ArenaError if there is none."""
    from ..core.models import Tournament
    made = Tournament.objects.filter(pk=arguments.id).first()
    if made is None:
        raise arena_folder.ArenaError(
            f"no tournament {arguments.id} (divercite-arena tournament "
            f"list {arguments.dir})")
    return made


def create(arguments) -> int:
    from .arena_setup import setup
    arena = setup(arguments.dir)
    from ..core import audit, tournament
    try:
        deadline = tournament.parse_deadline(arguments.deadline) if arguments.deadline else None
        chosen = {}
        for text in arguments.version or []:
            team, number = tournament.parse_choice(text)
            if team in chosen:
                raise tournament.RequestRefused(f"--version {text}: {team} chosen twice")
            chosen[team] = number
        made = tournament.create(arguments.name, arguments.tc or arena.tc,
                                 arguments.games_per_pair, deadline, chosen,
                                 arguments.house or (), actor=audit.COMMAND_LINE,
                                 excluded=arguments.exclude or (),
                                 grading_scheme=arguments.grading)
    except tournament.RequestRefused as refused:
        print(f"divercite-arena: no tournament created: {refused}", file=sys.stderr)
        return 1
    print(made.text())
    return 0


def listed(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core import tournament
    from ..core.models import Tournament
    for made in Tournament.objects.all():
        done = tournament.progress(made)
        print(f"{made.pk}  {made.name}  {made.entries.count()} entries, "
              f"{made.games_per_pair} games a pair at {made.tc:g} s; {done['games_done']} of "
              f"{done['games_total']} games played, {done['games_failed']} failed")
    return 0


def show(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core import tournament
    print(tournament.text_table(found(arguments)))
    return 0


def to_csv(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core import tournament
    text = tournament.csv_text(found(arguments))
    if arguments.out:
        Path(arguments.out).write_text(text, encoding="utf-8", newline="")
    else:
        sys.stdout.write(text)
    return 0


def grades(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core import audit, tournament
    made = found(arguments)
    try:
        tournament.set_grading(made, arguments.scheme, actor=audit.COMMAND_LINE)
    except tournament.RequestRefused as refused:
        print(f"divercite-arena: grading not changed: {refused}", file=sys.stderr)
        return 1
    print(f"Tournament {made.pk} {made.name!r}: "
          + (f"grades: {made.grading}" if made.grading else "no grades"))
    return 0


def retry(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core import audit, tournament
    count = tournament.retry_failed(found(arguments), actor=audit.COMMAND_LINE)
    print(f"{count} failed games queued again")
    return 0


def add_commands(commands) -> None:
    """`tournament ...` among the subcommands `commands` (cli.parser's)."""
    parser = commands.add_parser("tournament", help="the final tournament: frozen versions, a "
                                 "round robin apart from matchmaking, its standings and CSV")
    actions = parser.add_subparsers(dest="tournament_command", required=True,
                                    metavar="create|list|show|csv|grading|retry")
    made = actions.add_parser(
        "create", help="freeze a version a team and queue the round robin",
        description="Freezes each team's version (its last ready one uploaded before "
                    "--deadline, else its current one; --version overrides; a team without "
                    "one, or excluded, is left out and listed; a newer version still being "
                    "checked does not play, and is named) and queues every pair's games, "
                    "colours alternating, played by the arena's workers after the checks, "
                    "ahead of challenges and matchmaking.")
    made.add_argument("dir", metavar="DIR")
    made.add_argument("name", metavar="NAME")
    made.add_argument("--tc", type=seconds, metavar="SECONDS",
                      help="each player's clock, seconds a game (default: the arena's)")
    made.add_argument("--games-per-pair", type=positive, default=2, metavar="N",
                      help="games each pair plays, colours alternating (default: 2)")
    made.add_argument("--deadline", metavar="ISO8601",
                      help="take the versions uploaded before it, as 2025-12-05T23:59 (UTC "
                           "unless an offset is given: 2025-12-05T23:59-05:00)")
    made.add_argument("--version", action="append", metavar="TEAM=NUMBER",
                      help="the version a team plays, chosen (repeat for more teams)")
    made.add_argument("--house", action="append", metavar="NAME",
                      help="a house opponent entered too (random, greedy, skypiea_v5, "
                           "engine-40k, ...; repeat for more): by default only teams enter")
    made.add_argument("--exclude", action="append", metavar="NAME",
                      help="a team left out (repeat for more)")
    made.add_argument("--grading", default="", metavar="SCHEME",
                      help="the grades in the CSV, from ranks (\"rank 1-3:100, 4-6:90, "
                           "7-:80\") or points (\"points 5:100, 3.5:90, 0:75\"); set or "
                           "changed later with `tournament grading`")
    made.set_defaults(run=create)
    shown = actions.add_parser("list", help="the tournaments and their progress")
    shown.add_argument("dir", metavar="DIR")
    shown.set_defaults(run=listed)
    for name, run, help_text in (("show", show, "a tournament's standings as a table"),
                                 ("csv", to_csv, "a tournament's standings as CSV, for "
                                  "grading"),
                                 ("retry", retry, "queue again the games the runner could not "
                                  "play")):
        action = actions.add_parser(name, help=help_text)
        action.add_argument("dir", metavar="DIR")
        action.add_argument("id", type=int, metavar="ID")
        if name == "csv":
            action.add_argument("--out", metavar="FILE", help="write it here (default: stdout)")
        action.set_defaults(run=run)
    graded = actions.add_parser(
        "grading", help="set a tournament's grading scheme (the CSV's grade column)",
        description="Sets the scheme that gives each team its grade in the CSV: by rank, "
                    "\"rank 1-3:100, 4-6:90, 7-:80\" (ranges from 1, the last open), or by "
                    "points, \"points 5:100, 3.5:90, 0:75\" (the highest threshold reached, "
                    "the lowest 0); \"\" for none.")
    graded.add_argument("dir", metavar="DIR")
    graded.add_argument("id", type=int, metavar="ID")
    graded.add_argument("scheme", metavar="SCHEME")
    graded.set_defaults(run=grades)
