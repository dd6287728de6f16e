"""A class's ladder: every team's course agent against every other, sandboxed, resumable.

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
from .sandbox.staging import folder_problem

TEAM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
REASON_CHARACTERS = 4000  # of a failure's or a refusal's reason, as kept and shown


def plain(text: str, limit: int = REASON_CHARACTERS) -> str:
    """`text` as any output can take it: no surrogates (a file name's or an agent's bytes
    that are not UTF-8 are written as escapes), at most `limit` characters."""
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[:limit] + f" ... ({len(text) - limit} more)"


class LadderError(RuntimeError):
    """A class folder or a setting the ladder cannot use; the message says which."""


@dataclasses.dataclass(frozen=True)
class Team:
    name: str
    agent: Path


@dataclasses.dataclass(frozen=True)
class Refused:
    """A team's folder the ladder does not play, and why."""
    name: str
    reason: str


@dataclasses.dataclass
class Settings:
    class_dir: Path
    out: Path
    tc: str = "900"
    games: int = 2
    plies: int = 0  # random opening plies; 0: the empty board
    seed: int = 8175
    concurrency: int = 1
    agent_file: str = "my_player.py"
    sandbox: bool = True
    limits: Limits = Limits()  # the sandbox's; those given are in bridge_options too
    bridge_options: Sequence[str] = ()  # limits and --course, passed to the bridge
    startup_timeout: float = 60.0  # an agent importing torch takes seconds before uciok

    def pair_path(self, a: str, b: str, suffix: str = "") -> Path:
        return self.out / "pairs" / f"{a}--{b}{suffix}"

    def openings(self) -> Optional[str]:
        """The runner's -openings words; None: the empty board."""
        return f"random plies={self.plies}" if self.plies else None

    def openings_text(self) -> str:
        return (f"after {self.plies} random plies (seed {self.seed})" if self.plies
                else "from the empty board")


def find_teams(class_dir: Path, agent_file: str,
               limits: Optional[Limits] = None) -> Tuple[List[Team], List[Refused]]:
    """The teams of the class folder, by name: every folder holding the agent file; and those
    refused, with why: a folder name the records cannot hold, or (with the sandbox's
    `limits`) a folder the sandbox would refuse (staging.folder_problem)."""
    if not class_dir.is_dir():
        raise LadderError(f"{class_dir}: not a folder")
    teams, refused = [], []
    for folder in sorted(class_dir.iterdir()):
        agent = folder / agent_file
        if not folder.is_dir() or not agent.is_file():
            continue
        if not TEAM_NAME.fullmatch(folder.name):
            refused.append(Refused(plain(folder.name, 100), "a team's folder name must be "
                                   "letters, digits, '_', '.' or '-' (it names the team in "
                                   "the records)"))
            continue
        problem = None if limits is None else folder_problem(str(folder), limits)
        if problem is not None:
            refused.append(Refused(folder.name, plain(problem)))
            continue
        teams.append(Team(folder.name, agent.resolve()))
    if len(teams) < 2:
        also = f" ({len(refused)} refused)" if refused else ""
        raise LadderError(f"{class_dir}: {len(teams)} team folder(s) holding {agent_file}"
                          f"{also}; a ladder needs two or more")
    return teams, refused


def pairs_of(teams: Sequence[Team]) -> List[Tuple[Team, Team]]:
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1:]]


def shard_of(pairs: List[Tuple[Team, Team]], shard: Optional[Tuple[int, int]]):
    if shard is None:
        return pairs
    k, n = shard
    return [pair for index, pair in enumerate(pairs) if index % n == k - 1]


def finished_games(path: Path, strict: bool = False) -> int:
    """The games a pair's records hold; a file that cannot be read holds none (`strict`:
    ValueError or OSError, which play_pair records as the pair's failure)."""
    if not path.exists():
        return 0
    try:
        return len({record.game for record in read_records(path)})
    except (OSError, ValueError):
        if strict:
            raise
        return 0


def player(settings: Settings, team: Team) -> match.Player:
    bridge = ["-m", "divercite.course.engine"]
    if settings.sandbox:
        bridge.append("--sandbox")
    return match.Player(cmd=sys.executable, name=team.name, tc=settings.tc,
                        args=bridge + list(settings.bridge_options) + [str(team.agent)])


def play_pair(settings: Settings, a: Team, b: Team) -> Optional[str]:
    """Plays the games the pair's records lack; None, or why it failed (whatever failed:
    the runner, or an exception here), also kept in the pair's .failed file until a run
    plays its games."""
    failed = settings.pair_path(a.name, b.name, ".failed")
    try:
        why = _play_pair(settings, a, b)
    except match.MatchError as error:
        why = str(error)
    except Exception as error:  # noqa: BLE001 - one pair never stops the ladder
        why = f"{type(error).__name__}: {error}"
    if why is None:
        failed.unlink(missing_ok=True)
        return None
    why = plain(why)
    try:
        failed.write_text(why + "\n", encoding="utf-8")
    except OSError as error:
        why += f" (not kept in {failed}: {error.strerror})"
    return f"{a.name} against {b.name}: {why}"


def _play_pair(settings: Settings, a: Team, b: Team) -> Optional[str]:
    records = settings.pair_path(a.name, b.name, ".jsonl")
    before = finished_games(records, strict=True)
    if before >= settings.games:
        return None
    started = time.monotonic()
    match.run([player(settings, a), player(settings, b)], games=settings.games,
              repeat=settings.games % 2 == 0, openings=settings.openings(),
              seed=settings.seed, concurrency=1, records=records,
              extra=["-html", str(settings.pair_path(a.name, b.name)),
                     "-startuptimeout", f"{settings.startup_timeout:g}"])
    played = finished_games(records, strict=True) - before
    with open(settings.out / "timings.jsonl", "a") as timings:
        timings.write(json.dumps({"a": a.name, "b": b.name, "games": played, "tc": settings.tc,
                                  "seconds": round(time.monotonic() - started, 3)}) + "\n")
    if before + played < settings.games:
        return (f"the runner ended with {before + played} of {settings.games} games in "
                f"{records.name}")
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
            try:
                why = future.result()
            except Exception as error:  # noqa: BLE001 - play_pair's own failure
                why = plain(f"{a.name} against {b.name}: {type(error).__name__}: {error}")
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
    refused: List[Refused] = dataclasses.field(default_factory=list)
    failures: List[Tuple[str, str, str]] = dataclasses.field(default_factory=list)  # a, b, why

    def terminations_text(self) -> str:
        counts = ", ".join(f"{n} {how}" for how, n in
                           sorted(self.terminations.items(), key=lambda item: -item[1]))
        return f"{sum(self.terminations.values())} games ({counts})"


def recorded_failures(settings: Settings, teams: Sequence[Team]) -> List[Tuple[str, str, str]]:
    """The pairs whose last match failed, with why (their .failed files)."""
    failures = []
    for a, b in pairs_of(teams):
        path = settings.pair_path(a.name, b.name, ".failed")
        if path.exists():
            with open(path, encoding="utf-8", errors="replace") as text:
                why = text.read(REASON_CHARACTERS * 2).strip()
            failures.append((a.name, b.name, plain(why)))
    return failures


def report(settings: Settings, teams: Sequence[Team],
           refused: Sequence[Refused] = ()) -> Report:
    failures = recorded_failures(settings, teams)
    played = {}  # the records of each pair's file, by game
    for a, b in pairs_of(teams):
        path = settings.pair_path(a.name, b.name, ".jsonl")
        if not path.exists():
            continue
        try:
            played[path] = {r.game: r for r in read_records(path)}
        except (OSError, ValueError) as error:  # left out of the standings, and said
            failures.append((a.name, b.name, plain(f"its records cannot be read: {error}")))
    files = list(played)
    if not files and not failures:
        raise LadderError(f"{settings.out}: no games played yet")
    names = {team.name for team in teams}
    standings = [s for s in match.ratings(*files) if s.name in names] if files else []
    points: Dict[Tuple[str, str], float] = {}
    games: Dict[Tuple[str, str], int] = {}
    terminations: Dict[str, int] = {}
    for records in played.values():
        for record in records.values():
            how = record.termination or "unknown"
            terminations[how] = terminations.get(how, 0) + 1
            first = {"1-0": 1.0, "0-1": 0.0}.get(record.result, 0.5)
            for me, them, mine in ((record.p1, record.p2, first),
                                   (record.p2, record.p1, 1 - first)):
                points[me, them] = points.get((me, them), 0.0) + mine
                games[me, them] = games.get((me, them), 0) + 1
    return Report(standings, points, games, seconds_per_game(settings.out / "timings.jsonl"),
                  terminations, list(refused), failures)


def seconds_per_game(path: Path) -> Optional[float]:
    if not path.exists():
        return None
    games = seconds = 0.0
    with open(path, encoding="utf-8", errors="replace") as timings:
        for line in timings:
            try:
                entry = json.loads(line)
                games += entry["games"]
                seconds += entry["seconds"]
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a ladder that was killed as it wrote it
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
    for team in result.refused:
        lines.append(f"refused: {team.name}: {team.reason}")
    for a, b, why in result.failures:
        lines.append(f"failed: {a} - {b}: {why}")
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
    title = f"Ladder: {html.escape(plain(settings.class_dir.name))}"
    sandboxed = ", sandboxed" if settings.sandbox else ""
    notes = ""
    if result.refused:
        notes += ("<h2>Refused</h2>\n<p>These teams' folders were not played.</p>\n"
                  "<table id=\"refused\"><tr><th>team</th><th>why</th></tr>\n" +
                  "".join(f"<tr><td>{html.escape(team.name)}</td>"
                          f"<td>{html.escape(team.reason)}</td></tr>\n"
                          for team in result.refused) + "</table>\n")
    if result.failures:
        notes += ("<h2>Failed</h2>\n<p>These pairs' matches failed; the next run plays them "
                  "again.</p>\n<table id=\"failures\"><tr><th>pair</th><th>why</th></tr>\n" +
                  "".join(f"<tr><td>{html.escape(a)} - {html.escape(b)}</td>"
                          f"<td><pre>{html.escape(why)}</pre></td></tr>\n"
                          for a, b, why in result.failures) + "</table>\n")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .5em}}td.n{{text-align:right}}
td.self{{background:#eee}}</style></head><body>
<h1>{title}</h1>
<p>{len(teams)} teams, {settings.games} games a pair ({settings.openings_text()}),
tc={html.escape(settings.tc)}{sandboxed}.
{html.escape(result.terminations_text())}.
Elo: Bradley-Terry over all games, with its 95 % interval. A cell: the row's points against
the column's team, out of the games played; it links to the pair's match report.</p>
<table id="standings"><tr><th>#</th><th>team</th><th>Elo</th><th>95 %</th><th>points</th>
<th>games</th>{head}</tr>
{chr(10).join(rows)}
</table>
{notes}</body></html>
"""


def write_report(result: Report, teams: Sequence[Team], settings: Settings) -> None:
    settings.out.mkdir(parents=True, exist_ok=True)
    (settings.out / "index.html").write_text(html_report(result, teams, settings),
                                             encoding="utf-8")
    standings = [dataclasses.asdict(s) for s in result.standings]
    (settings.out / "standings.json").write_text(json.dumps(
        {"teams": len(teams), "standings": standings,
         "seconds_per_game": result.seconds_per_game, "terminations": result.terminations,
         "refused": [dataclasses.asdict(team) for team in result.refused],
         "failures": [{"a": a, "b": b, "reason": why} for a, b, why in result.failures]},
        indent=1) + "\n", encoding="utf-8")


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
    except (LadderError, match.MatchError, slurm.SlurmError, FileNotFoundError) as error:
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


if __name__ == "__main__":
    sys.exit(main())
