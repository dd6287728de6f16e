"""The ladder's command line: every team's course agent against every other, sandboxed, resumable.

    python3 -m divercite.ladder CLASS_DIR [--out DIR] [--tc 900] [--games 2] [--concurrency N]

CLASS_DIR holds one folder per team, each with its agent (`my_player.py`, or --agent-file).
Sandboxed, a team's folder is checked first: one holding a link that leads out of it, a
device, fifo or socket, or more than --folder-files entries or --folder-mb MB is refused,
with the reason, printed at the start and listed with the standings, and not played. Every
pair of teams plays a match of --games games (both colours on each opening: a double round
robin with the default 2), each agent through the course bridge in its sandbox
(course_engine.py --sandbox, with the limits given here). The games start from the empty
board, as the course's own games do; --plies N starts every pair's games after the same N
random plies (from --seed) instead, which gives deterministic agents different games, but an
agent that learns its colour only when it sees the empty board (students' agents do) then
plays the other side's pieces, or returns None, and loses those games.

Each pair is a match of the runner, divercite-match, with its own records and report pages
in DIR/pairs/A--B.jsonl and DIR/pairs/A--B/index.html: a ladder started again plays only the
games its records lack, so adding a team plays only that team's games, and --shard K/N plays
the K-th of N parts of the pairs. --slurm N submits those N shards as a Slurm job array and
the report as a job after it (the folders on a filesystem the nodes share), and waits for
them. A pair whose match fails (the runner refuses it or dies, or anything else goes wrong)
is recorded with its reason in DIR/pairs/A--B.failed, listed with the standings and played
again by the next run; the other pairs go on. What the runner and the agents write is kept
only in part (match.OutputTail): no agent's output can fill the ladder's memory.

At the end, and with --report alone, the standings (Bradley-Terry Elo and its 95 % interval,
from `divercite-match -ratings` over every pair's records) and the cross table are printed and
written to DIR/index.html and DIR/standings.json, with the refused teams and the failed pairs,
each pair's wall time per game in DIR/timings.jsonl and, from it, what a class of --estimate
teams would take. Exit status: 0; 1 when a pair failed (the same command plays it again); 2
when the ladder cannot start (fewer than two teams, no runner).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
from pathlib import Path
from typing import Sequence, Tuple

from ..course.bridge.locations import NOT_A_COURSE, course_in
from ..match import MatchError
from ..sandbox.limits import (Limits, add_limit_arguments, limit_flags, limits_given,
                              positive_integer)
from ..slurm import SlurmError
from .cluster import submit_to_slurm
from .pairs import play
from .report_html import html_report
from .settings import Settings
from .standings import Report, report, standings_json, text_report
from .teams import LadderError, Team, find_teams, plain


def write_report(result: Report, teams: Sequence[Team], settings: Settings) -> None:
    """The ladder's report files: OUT/index.html (report_html's page), OUT/standings.json."""
    settings.out.mkdir(parents=True, exist_ok=True)
    (settings.out / "index.html").write_text(html_report(result, teams, settings),
                                             encoding="utf-8")
    (settings.out / "standings.json").write_text(
        json.dumps(standings_json(result, teams), indent=1) + "\n", encoding="utf-8")


def parse_shard(text: str) -> Tuple[int, int]:
    match_ = re.fullmatch(r"(\d+)/(\d+)", text)
    if not match_ or not 1 <= int(match_.group(1)) <= int(match_.group(2)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, not '{text}'")
    return int(match_.group(1)), int(match_.group(2))


def opening_plies(text: str) -> int:
    if not text.isdigit() or int(text) > 39:
        raise argparse.ArgumentTypeError(f"expected 0 to 39 plies, not '{text}'")
    return int(text)


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog="python3 -m divercite.ladder",
        description=__doc__.split("\n\n", 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("class_dir", metavar="CLASS_DIR", type=Path)
    parser.add_argument("--out", type=Path, help="the ladder's folder (default: CLASS_DIR "
                        "followed by -ladder, beside it)")
    parser.add_argument("--tc", default="900", help="each agent's clock, seconds a game "
                        "(default 900, the course's)")
    parser.add_argument("--games", type=positive_integer, default=2,
                        help="games a pair (default 2)")
    parser.add_argument("--plies", type=opening_plies, default=0, metavar="N",
                        help="start every game after N random plies (from --seed; every pair "
                        "the same), 0 to 39; default 0: the empty board, as the course's "
                        "games do. An agent that learns its colour only when it sees the "
                        "empty board then plays the other side's pieces, or returns None, and "
                        "loses")
    parser.add_argument("--seed", type=int, default=8175)
    parser.add_argument("--concurrency", type=positive_integer,
                        help="pairs played at once (default: the cores; with --slurm, 1 a "
                             "shard)")
    parser.add_argument("--shard", type=parse_shard, metavar="K/N",
                        help="play the K-th of N parts of the pairs")
    parser.add_argument("--report", action="store_true", help="play nothing: the standings")
    cluster = parser.add_argument_group(
        "Slurm", "the ladder and its folder on a filesystem the nodes share; this process "
        "and the environment it has (PYTHONPATH) are those of the jobs")
    cluster.add_argument("--slurm", type=positive_integer, metavar="N",
                         help="play the missing games as a Slurm job array of N shards, then "
                              "the report as a job after them")
    cluster.add_argument("--sbatch", default="", metavar="ARGS",
                         help="more sbatch arguments for the jobs (partition, time, account), "
                              "as --sbatch=\"-p short -t 2:00:00\"")
    cluster.add_argument("--no-wait", action="store_true",
                         help="return once submitted (default: wait, print progress and the "
                              "standings)")
    cluster.add_argument("--interval", type=positive_integer, default=30, metavar="SECONDS",
                         help="between progress lines while waiting (default 30)")
    parser.add_argument("--estimate", type=positive_integer, metavar="TEAMS",
                        help="print what a class of TEAMS would take at this ladder's pace")
    parser.add_argument("--agent-file", default="my_player.py")
    parser.add_argument("--startup-timeout", type=positive_integer, default=60, metavar="SECONDS",
                        help="for an agent's start to uciok (default 60: the bridge checks "
                             "that the agent imports, which may take seconds)")
    parser.add_argument("--no-sandbox", action="store_true",
                        help="trusted agents only: run them unconfined")
    parser.add_argument("--course", metavar="DIR", help="the course's Divercité folder, or "
                        "its root (default: as the bridge finds it)")
    add_limit_arguments(parser.add_argument_group(
        "sandbox limits", "each agent's, as course_engine.py --sandbox takes them"))
    arguments = parser.parse_args(argv)
    given = limits_given(arguments)
    if given and arguments.no_sandbox:
        parser.error("the sandbox's limits need the sandbox (not --no-sandbox)")
    if arguments.slurm and (arguments.shard or arguments.report):
        parser.error("--slurm submits the shards and the report: not with --shard or --report")
    bridge_options = limit_flags(given)
    if arguments.course:
        course = course_in(arguments.course)
        if course is None:
            parser.error(f"--course {arguments.course}: {NOT_A_COURSE}")
        bridge_options += ["--course", course]
    class_dir = arguments.class_dir.resolve()
    try:
        limits = Limits(**given)
    except ValueError as error:
        parser.error(str(error))
    settings = Settings(class_dir=class_dir,
                        out=(arguments.out or class_dir.with_name(class_dir.name + "-ladder"))
                        .resolve(),
                        tc=arguments.tc, games=arguments.games, plies=arguments.plies,
                        seed=arguments.seed,
                        concurrency=arguments.concurrency or
                        (1 if arguments.slurm else os.cpu_count() or 1),
                        agent_file=arguments.agent_file, sandbox=not arguments.no_sandbox,
                        limits=limits, bridge_options=bridge_options,
                        startup_timeout=arguments.startup_timeout)
    # A Slurm task's CPUs: a pair's agents take turns (the sandbox stops the one waiting), so
    # a pair needs the cores of one agent.
    agent_cores = 1 if arguments.no_sandbox else given.get("cpus", Limits().cpus)
    arguments.slurm_cpus = settings.concurrency * agent_cores
    return arguments, settings


def main(argv=None) -> int:
    arguments, settings = parse_arguments(argv)
    try:
        teams, refused = find_teams(settings.class_dir, settings.agent_file,
                                    settings.limits if settings.sandbox else None)
        for team in refused:
            print(f"refused: {team.name}: {team.reason}", flush=True)
        if arguments.slurm:
            return submit_to_slurm(settings, teams, arguments.slurm, arguments.slurm_cpus,
                                   shlex.split(arguments.sbatch), not arguments.no_wait,
                                   arguments.interval, arguments.estimate)
        failures = [] if arguments.report else play(settings, teams, arguments.shard)
        if arguments.shard is not None and not arguments.report:
            return 1 if failures else 0  # the report is the merge step's
        result = report(settings, teams, refused)
    except (LadderError, MatchError, SlurmError, FileNotFoundError) as error:
        print(f"divercite.ladder: {plain(str(error))}", file=sys.stderr)
        return 2
    write_report(result, teams, settings)
    print(text_report(result, teams, settings, arguments.estimate))
    print(f"report: {settings.out / 'index.html'}")
    if failures:
        print(f"divercite.ladder: {len(failures)} pair(s) failed (listed above, and kept in "
              f"{settings.out / 'pairs'}/*.failed); the same command plays them again",
              file=sys.stderr)
    return 1 if failures else 0
