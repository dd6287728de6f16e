"""The ladder's standings, from every pair's records: Bradley-Terry Elo and its 95 % interval
(`divercite-match -ratings`), the cross table, how the games ended, the refused teams and the
failed pairs, the pace; as printed (text_report) and as OUT/standings.json holds them
(standings_json; the page, OUT/index.html, is report_html's)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

from .. import match
from ..records import read_records
from .settings import Settings
from .teams import REASON_CHARACTERS, LadderError, RefusedTeam, Team, pairs_of, plain


@dataclasses.dataclass
class Report:
    standings: List[match.Standing]
    points: Dict[Tuple[str, str], float]  # (a, b): a's points against b
    games: Dict[Tuple[str, str], int]
    seconds_per_game: Optional[float]
    # How the games ended (normal, time, illegal, crash, stall, ...): a ladder whose games
    # all crash at once has a setup problem, not bad agents.
    terminations: Dict[str, int] = dataclasses.field(default_factory=dict)
    refused: List[RefusedTeam] = dataclasses.field(default_factory=list)
    failures: List[Tuple[str, str, str]] = dataclasses.field(default_factory=list)  # a, b, why
    # Each team's wins, draws and losses, for the page's table.
    results: Dict[str, Tuple[int, int, int]] = dataclasses.field(default_factory=dict)

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
           refused: Sequence[RefusedTeam] = ()) -> Report:
    """The standings of the games the pairs' records hold; LadderError if there are none."""
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
    results: Dict[str, List[int]] = {}
    for records in played.values():
        for record in records.values():
            how = record.termination or "unknown"
            terminations[how] = terminations.get(how, 0) + 1
            first = {"1-0": 1.0, "0-1": 0.0}.get(record.result, 0.5)
            for me, them, mine in ((record.p1, record.p2, first),
                                   (record.p2, record.p1, 1 - first)):
                points[me, them] = points.get((me, them), 0.0) + mine
                games[me, them] = games.get((me, them), 0) + 1
                results.setdefault(me, [0, 0, 0])[{1.0: 0, 0.5: 1}.get(mine, 2)] += 1
    return Report(standings, points, games, seconds_per_game(settings.out / "timings.jsonl"),
                  terminations, list(refused), failures,
                  {name: tuple(counts) for name, counts in results.items()})


def seconds_per_game(path: Path) -> Optional[float]:
    """The wall time of a game, over every pair's match timings.jsonl has."""
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
    """The standings as printed: the table, how the games ended, the refused teams, the
    failed pairs, the pace (and with `estimate`, what a class of that many teams takes)."""
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


def standings_json(result: Report, teams: Sequence[Team]) -> dict:
    """The standings as OUT/standings.json holds them."""
    return {"teams": len(teams), "standings": [dataclasses.asdict(s) for s in result.standings],
            "seconds_per_game": result.seconds_per_game, "terminations": result.terminations,
            "refused": [dataclasses.asdict(team) for team in result.refused],
            "failures": [{"a": a, "b": b, "reason": why} for a, b, why in result.failures]}
