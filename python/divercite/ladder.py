"""A class's ladder: every team's course agent against every other, sandboxed, resumable.

    python3 -m divercite.ladder CLASS_DIR [--out DIR] [--tc 900] [--games 2] [--concurrency N]

CLASS_DIR holds one folder per team, each with its agent (`my_player.py`, or --agent-file).
Every pair of teams plays a match of --games games (both colours on each opening: a double
round robin with the default 2) on the same openings as every other pair (`random plies=N`
from --seed), each agent through the course bridge in its sandbox (course_engine.py
--sandbox, with the limits given here). Each pair is a match of the runner, divercite-match,
with its own records and report pages in DIR/pairs/A--B.jsonl and DIR/pairs/A--B/index.html:
a ladder started again plays only the games its records lack, so adding a team plays only
that team's games, and --shard K/N plays the K-th of N parts of the pairs. --slurm N submits
those N shards as a Slurm job array and the report as a job after it (the folders on a
filesystem the nodes share), and waits for them. At the end, and with --report alone, the
standings (Bradley-Terry Elo and its 95 % interval, from `divercite-match -ratings` over
every pair's records) and the cross table are printed and written to DIR/index.html and
DIR/standings.json, with each pair's wall time per game in DIR/timings.jsonl and, from it,
what a class of --estimate teams would take.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import html
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from . import match, slurm
from .course.bridge.locations import NOT_A_COURSE, course_in
from .records import read_records
from .sandbox.limits import Limits, add_limit_arguments, limit_flags, limits_given, positive_integer

TEAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class LadderError(RuntimeError):
    """A class folder or a setting the ladder cannot use; the message says which."""


@dataclasses.dataclass(frozen=True)
class Team:
    name: str
    agent: Path


@dataclasses.dataclass
class Settings:
    class_dir: Path
    out: Path
    tc: str = "900"
    games: int = 2
    plies: int = 2
    seed: int = 8175
    concurrency: int = 1
    agent_file: str = "my_player.py"
    sandbox: bool = True
    bridge_options: Sequence[str] = ()  # limits and --course, passed to the bridge
    startup_timeout: float = 60.0  # an agent importing torch takes seconds before uciok

    def pair_path(self, a: str, b: str, suffix: str = "") -> Path:
        return self.out / "pairs" / f"{a}--{b}{suffix}"


def find_teams(class_dir: Path, agent_file: str) -> List[Team]:
    """The teams of the class folder, by name: every folder holding the agent file."""
    if not class_dir.is_dir():
        raise LadderError(f"{class_dir}: not a folder")
    teams = []
    for folder in sorted(class_dir.iterdir()):
        agent = folder / agent_file
        if not folder.is_dir() or not agent.is_file():
            continue
        if not TEAM_NAME.fullmatch(folder.name):
            raise LadderError(f"{folder}: a team's folder name must be letters, digits, '_', "
                              "'.' or '-' (it names the team in the records)")
        teams.append(Team(folder.name, agent.resolve()))
    if len(teams) < 2:
        raise LadderError(f"{class_dir}: {len(teams)} team folder(s) holding {agent_file}; a "
                          "ladder needs two or more")
    return teams


def pairs_of(teams: Sequence[Team]) -> List[Tuple[Team, Team]]:
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1:]]


def shard_of(pairs: List[Tuple[Team, Team]], shard: Optional[Tuple[int, int]]):
    if shard is None:
        return pairs
    k, n = shard
    return [pair for index, pair in enumerate(pairs) if index % n == k - 1]


def finished_games(path: Path) -> int:
    if not path.exists():
        return 0
    return len({record.game for record in read_records(path)})


def player(settings: Settings, team: Team) -> match.Player:
    bridge = ["-m", "divercite.course.engine"]
    if settings.sandbox:
        bridge.append("--sandbox")
    return match.Player(cmd=sys.executable, name=team.name, tc=settings.tc,
                        args=bridge + list(settings.bridge_options) + [str(team.agent)])


def play_pair(settings: Settings, a: Team, b: Team) -> Optional[str]:
    """Plays the games the pair's records lack; None, or why it failed."""
    records = settings.pair_path(a.name, b.name, ".jsonl")
    before = finished_games(records)
    if before >= settings.games:
        return None
    started = time.monotonic()
    try:
        match.run([player(settings, a), player(settings, b)], games=settings.games,
                  repeat=settings.games % 2 == 0, openings=f"random plies={settings.plies}",
                  seed=settings.seed, concurrency=1, records=records,
                  extra=["-html", str(settings.pair_path(a.name, b.name)),
                         "-startuptimeout", f"{settings.startup_timeout:g}"])
    except match.MatchError as error:
        return f"{a.name} against {b.name}: {error}"
    played = finished_games(records) - before
    with open(settings.out / "timings.jsonl", "a") as timings:
        timings.write(json.dumps({"a": a.name, "b": b.name, "games": played, "tc": settings.tc,
                                  "seconds": round(time.monotonic() - started, 3)}) + "\n")
    return None


def play(settings: Settings, teams: Sequence[Team], shard=None, progress=print) -> List[str]:
    """Plays every pair of this shard that lacks games; the failures' reasons."""
    (settings.out / "pairs").mkdir(parents=True, exist_ok=True)
    match.runner()  # a missing runner is said once, before any pair
    missing = [(a, b) for a, b in shard_of(pairs_of(teams), shard)
               if finished_games(settings.pair_path(a.name, b.name, ".jsonl")) < settings.games]
    progress(f"{len(teams)} teams, {len(pairs_of(teams))} pairs; {len(missing)} to play")
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=settings.concurrency) as pool:
        futures = {pool.submit(play_pair, settings, a, b): (a, b) for a, b in missing}
        for future in concurrent.futures.as_completed(futures):
            a, b = futures[future]
            why = future.result()
            progress(f"  {a.name} - {b.name}: " + ("done" if why is None else f"failed: {why}"))
            if why is not None:
                failures.append(why)
    return failures


def command_line(settings: Settings) -> List[str]:
    """The command that runs this ladder again, with the same settings (for a Slurm node)."""
    command = [sys.executable, "-m", "divercite.ladder", str(settings.class_dir),
               "--out", str(settings.out), "--tc", settings.tc, "--games", str(settings.games),
               "--plies", str(settings.plies), "--seed", str(settings.seed),
               "--concurrency", str(settings.concurrency), "--agent-file", settings.agent_file,
               "--startup-timeout", f"{settings.startup_timeout:g}"]
    if not settings.sandbox:
        command.append("--no-sandbox")
    return command + list(settings.bridge_options)


def games_played(settings: Settings, teams: Sequence[Team]) -> int:
    return sum(min(settings.games, finished_games(settings.pair_path(a.name, b.name, ".jsonl")))
               for a, b in pairs_of(teams))


def submit_to_slurm(settings: Settings, teams: Sequence[Team], shards: int, cpus: int,
                    sbatch: Sequence[str], wait: bool, interval: float,
                    estimate: Optional[int]) -> int:
    """The missing games as a Slurm job array of `shards` tasks (--shard K/N each), then the
    report as a job after it; with `wait`, returns when the report is written: 0 if every
    pair has its games, 1 otherwise (the same command plays what is missing)."""
    slurm.require()
    folder = settings.out / "slurm"
    folder.mkdir(parents=True, exist_ok=True)
    jobs_file = folder / "jobs"
    earlier = jobs_file.read_text().split() if jobs_file.exists() else []
    if slurm.queued(earlier):
        raise LadderError(f"this ladder's jobs {', '.join(earlier)} are still queued or "
                          "running: wait for them, or scancel them first")
    (settings.out / "pairs").mkdir(exist_ok=True)
    command = " ".join(shlex.quote(part) for part in command_line(settings))
    total = len(pairs_of(teams)) * settings.games
    before = games_played(settings, teams)
    print(f"{len(teams)} teams, {len(pairs_of(teams))} pairs; {total - before} games to play")
    jobs = []
    if before < total:
        jobs.append(slurm.submit(f"{command} --shard \"$SLURM_ARRAY_TASK_ID/{shards}\"",
                                 name="divercite-ladder", output=str(folder / "shard-%a.out"),
                                 array=shards, cpus=cpus, extra=sbatch))
        jobs_file.write_text(jobs[0] + "\n")  # kept at once: the report's sbatch may fail
        each = f"{cpus} CPU{'s' if cpus > 1 else ''} each"
        print(f"Submitted {shards} shards as job array {jobs[0]} ({each}): "
              f"{folder}/shard-K.out")
    report_out = folder / "report.out"
    report_out.unlink(missing_ok=True)  # this submission's report alone
    report_command = command + " --report" + (f" --estimate {estimate}" if estimate else "")
    jobs.append(slurm.submit(report_command, name="divercite-ladder-report",
                             output=str(report_out), after=jobs[0] if jobs else None,
                             extra=sbatch))
    print(f"Submitted the report as job {jobs[-1]}: {report_out}", flush=True)
    jobs_file.write_text(" ".join(jobs) + "\n")
    if not wait:
        return 0
    last = before

    def progress():
        nonlocal last
        played = games_played(settings, teams)
        if played != last:
            print(f"{time.strftime('%H:%M:%S')} {played} of {total} games", flush=True)
            last = played
    try:
        slurm.wait(jobs, interval, progress)
    except KeyboardInterrupt:
        print(f"\nThe jobs go on without this command (scancel {' '.join(jobs)} stops them); "
              "the same command, once they have ended, plays what they left", file=sys.stderr)
        return 130
    if report_out.exists():
        print(report_out.read_text(), end="")
    missing = total - games_played(settings, teams)
    if missing:
        print(f"divercite.ladder: {missing} games were not played (see {folder}/shard-*.out); "
              "the same command plays them", file=sys.stderr)
        return 1
    return 0


@dataclasses.dataclass
class Report:
    standings: List[match.Standing]
    points: Dict[Tuple[str, str], float]  # (a, b): a's points against b
    games: Dict[Tuple[str, str], int]
    seconds_per_game: Optional[float]
    # How the games ended (normal, time, illegal, crash, stall, ...): a ladder whose games
    # all crash at once has a setup problem, not bad agents.
    terminations: Dict[str, int] = dataclasses.field(default_factory=dict)

    def terminations_text(self) -> str:
        counts = ", ".join(f"{n} {how}" for how, n in
                           sorted(self.terminations.items(), key=lambda item: -item[1]))
        return f"{sum(self.terminations.values())} games ({counts})"


def report(settings: Settings, teams: Sequence[Team]) -> Report:
    files = [settings.pair_path(a.name, b.name, ".jsonl") for a, b in pairs_of(teams)]
    files = [path for path in files if path.exists()]
    if not files:
        raise LadderError(f"{settings.out}: no games played yet")
    names = {team.name for team in teams}
    standings = [s for s in match.ratings(*files) if s.name in names]
    points: Dict[Tuple[str, str], float] = {}
    games: Dict[Tuple[str, str], int] = {}
    terminations: Dict[str, int] = {}
    for path in files:
        for record in {r.game: r for r in read_records(path)}.values():
            how = record.termination or "unknown"
            terminations[how] = terminations.get(how, 0) + 1
            first = {"1-0": 1.0, "0-1": 0.0}.get(record.result, 0.5)
            for me, them, mine in ((record.p1, record.p2, first),
                                   (record.p2, record.p1, 1 - first)):
                points[me, them] = points.get((me, them), 0.0) + mine
                games[me, them] = games.get((me, them), 0) + 1
    return Report(standings, points, games, seconds_per_game(settings.out / "timings.jsonl"),
                  terminations)


def seconds_per_game(path: Path) -> Optional[float]:
    if not path.exists():
        return None
    games = seconds = 0.0
    with open(path) as timings:
        for line in timings:
            entry = json.loads(line)
            games += entry["games"]
            seconds += entry["seconds"]
    return seconds / games if games else None


def estimate_hours(seconds: float, teams: int, games: int, workers: int) -> float:
    return teams * (teams - 1) / 2 * games * seconds / workers / 3600


def text_report(result: Report, teams: Sequence[Team], settings: Settings,
                estimate: Optional[int]) -> str:
    lines = [f"{'#':>3} {'team':20} {'Elo':>7} {'95 %':>7} {'points':>7} {'games':>6} "
             f"{'score':>6}"]
    for rank, s in enumerate(result.standings, 1):
        interval = "inf" if s.elo_interval is None else f"{s.elo_interval:.0f}"
        lines.append(f"{rank:>3} {s.name:20} {s.elo:>7.0f} {'+/-' + interval:>7} "
                     f"{s.points:>7.1f} {s.games:>6} {100 * s.score:>5.1f}%")
    lines.append(result.terminations_text() + (
        "; the reasons are in each pair's records and report"
        if set(result.terminations) - {"normal"} else ""))
    if result.seconds_per_game is not None:
        lines.append(f"{result.seconds_per_game:.1f} s a game at tc={settings.tc} "
                     f"(wall time, {settings.concurrency} at once)")
        if estimate:
            hours = estimate_hours(result.seconds_per_game, estimate, settings.games, 1)
            lines.append(f"{estimate} teams: {hours:.1f} hours of one worker; "
                         f"{hours / 8:.1f} on 8, {hours / 64:.2f} on 64 (one game a core)")
    return "\n".join(lines)


def html_report(result: Report, teams: Sequence[Team], settings: Settings) -> str:
    order = [s.name for s in result.standings]
    head = "".join(f"<th title=\"{html.escape(n)}\">{i}</th>" for i, n in enumerate(order, 1))
    rows = []
    for rank, s in enumerate(result.standings, 1):
        cells = []
        for other in order:
            if other == s.name:
                cells.append("<td class=\"self\"></td>")
                continue
            games = result.games.get((s.name, other), 0)
            a, b = sorted((s.name, other))
            link = f"pairs/{html.escape(a)}--{html.escape(b)}/index.html"
            text = f"{result.points.get((s.name, other), 0):g}/{games}" if games else "-"
            cells.append(f"<td class=\"n\"><a href=\"{link}\">{text}</a></td>")
        interval = "&infin;" if s.elo_interval is None else f"{s.elo_interval:.0f}"
        rows.append(f"<tr><td class=\"n\">{rank}</td><td>{html.escape(s.name)}</td>"
                    f"<td class=\"n\">{s.elo:.0f}</td><td class=\"n\">&plusmn;{interval}</td>"
                    f"<td class=\"n\">{s.points:g}</td><td class=\"n\">{s.games}</td>"
                    + "".join(cells) + "</tr>")
    title = f"Ladder: {html.escape(settings.class_dir.name)}"
    sandboxed = ", sandboxed" if settings.sandbox else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .5em}}td.n{{text-align:right}}
td.self{{background:#eee}}</style></head><body>
<h1>{title}</h1>
<p>{len(teams)} teams, {settings.games} games a pair (random openings of {settings.plies}
plies, seed {settings.seed}), tc={html.escape(settings.tc)}{sandboxed}.
{html.escape(result.terminations_text())}.
Elo: Bradley-Terry over all games, with its 95 % interval. A cell: the row's points against
the column's team, out of the games played; it links to the pair's match report.</p>
<table id="standings"><tr><th>#</th><th>team</th><th>Elo</th><th>95 %</th><th>points</th>
<th>games</th>{head}</tr>
{chr(10).join(rows)}
</table></body></html>
"""


def write_report(result: Report, teams: Sequence[Team], settings: Settings) -> None:
    settings.out.mkdir(parents=True, exist_ok=True)
    (settings.out / "index.html").write_text(html_report(result, teams, settings))
    standings = [dataclasses.asdict(s) for s in result.standings]
    (settings.out / "standings.json").write_text(json.dumps(
        {"teams": len(teams), "standings": standings,
         "seconds_per_game": result.seconds_per_game, "terminations": result.terminations},
        indent=1) + "\n")


def parse_shard(text: str) -> Tuple[int, int]:
    match_ = re.fullmatch(r"(\d+)/(\d+)", text)
    if not match_ or not 1 <= int(match_.group(1)) <= int(match_.group(2)):
        raise argparse.ArgumentTypeError(f"expected K/N with 1 <= K <= N, not '{text}'")
    return int(match_.group(1)), int(match_.group(2))


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
    parser.add_argument("--plies", type=int, default=2, help="random opening plies")
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
    settings = Settings(class_dir=class_dir,
                        out=(arguments.out or class_dir.with_name(class_dir.name + "-ladder"))
                        .resolve(),
                        tc=arguments.tc, games=arguments.games, plies=arguments.plies,
                        seed=arguments.seed,
                        concurrency=arguments.concurrency or
                        (1 if arguments.slurm else os.cpu_count() or 1),
                        agent_file=arguments.agent_file, sandbox=not arguments.no_sandbox,
                        bridge_options=bridge_options,
                        startup_timeout=arguments.startup_timeout)
    # A Slurm task's CPUs: a pair's agents take turns (the sandbox stops the one waiting), so
    # a pair needs the cores of one agent.
    agent_cores = 1 if arguments.no_sandbox else given.get("cpus", Limits().cpus)
    arguments.slurm_cpus = settings.concurrency * agent_cores
    return arguments, settings


def main(argv=None) -> int:
    arguments, settings = parse_arguments(argv)
    try:
        teams = find_teams(settings.class_dir, settings.agent_file)
        if arguments.slurm:
            return submit_to_slurm(settings, teams, arguments.slurm, arguments.slurm_cpus,
                                   shlex.split(arguments.sbatch), not arguments.no_wait,
                                   arguments.interval, arguments.estimate)
        failures = [] if arguments.report else play(settings, teams, arguments.shard)
        if arguments.shard is not None and not arguments.report:
            return 1 if failures else 0  # the report is the merge step's
        result = report(settings, teams)
    except (LadderError, match.MatchError, slurm.SlurmError, FileNotFoundError) as error:
        print(f"divercite.ladder: {error}", file=sys.stderr)
        return 2
    write_report(result, teams, settings)
    print(text_report(result, teams, settings, arguments.estimate))
    print(f"report: {settings.out / 'index.html'}")
    for why in failures:
        print(f"failed: {why}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
