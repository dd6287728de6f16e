"""The final tournament (issue 46): one frozen version a team, a round robin played apart from
matchmaking at its own clock, its standings and their CSV for grading.

The administrator names it on the command line (`divercite-arena tournament create`): each
team's version is frozen (the last ready one uploaded before the deadline, or without one the
current one; a version the administrator chose overrides), every pair's games are queued at
once (colours alternating within a pair and balanced over the tournament), and the arena's
workers play them after the checks of new versions, ahead of the challenges and of
matchmaking, which both wait while tournament games are queued (game_queue.claim). The rated
games never include them: the standings and matchmaking count matchmade and challenge games
only (standings.RATED_PURPOSES).

The standings rank by points (1 a win, 1/2 a draw), then by the points of the games between
the tied teams (head to head), then by Elo (the Bradley-Terry fit of standings.compute over
the tournament's games, unrated last); teams equal on all three share their rank."""

from __future__ import annotations

import csv
import dataclasses
import io
import threading
from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from django.db import IntegrityError, transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import slugify

from . import audit, grading, standings
from ..play import house as house_entries
from .models import Entry, Game, Tournament, TournamentEntry, Version
from .teams import RequestRefused

# The grade last: the columns before it are where they were before grades were added.
CSV_FIELDS = ["team", "rank", "points", "elo", "elo_low", "elo_high", "games", "wins", "draws",
              "losses", "divercites", "divercites_per_game", "points_for", "points_against",
              "points_for_per_game", "points_against_per_game", "kind", "version", "grade"]
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}  # a game's, each side


@dataclasses.dataclass
class Frozen:
    """A version entered: `how` it was taken (deadline, current, chosen or house), and a
    `note` where the team has a newer version still being checked (which does not play)."""
    version: Version
    how: str
    note: str = ""

    def __str__(self):
        return (f"{self.version.entry.name} v{self.version.number} ({self.how}"
                + (f"; {self.note}" if self.note else "") + ")")


@dataclasses.dataclass
class Created:
    tournament: Tournament
    entered: List[Frozen]
    left_out: List[Tuple[str, str]]  # (team, why)
    games: int

    def text(self) -> str:
        """What `tournament create` prints."""
        lines = [f"Tournament {self.tournament.pk} {self.tournament.name!r}: "
                 f"{len(self.entered)} entries, {self.tournament.games_per_pair} games a pair "
                 f"at {self.tournament.tc:g} s a game"
                 + (f", versions uploaded before {self.tournament.deadline.isoformat()}"
                    if self.tournament.deadline else "")]
        lines += [f"  {frozen}" for frozen in self.entered]
        lines += [f"  left out: {team} ({why})" for team, why in self.left_out]
        if self.tournament.grading:
            lines.append(f"grades: {self.tournament.grading}")
        lines.append(f"{self.games} games queued")
        return "\n".join(lines)


def parse_deadline(text: str):
    """An ISO 8601 date and time, UTC unless it names its offset; RequestRefused otherwise."""
    try:
        when = parse_datetime(text.strip())
    except ValueError:
        when = None
    if when is None:
        raise RequestRefused(f"deadline {text!r}: an ISO 8601 date and time, as 2025-12-05T23:59 "
                             "(UTC) or 2025-12-05T23:59-05:00")
    if timezone.is_naive(when):
        when = timezone.make_aware(when, timezone.utc)
    return when


def parse_choice(text: str) -> Tuple[str, int]:
    """TEAM=NUMBER (a version chosen for a team); RequestRefused otherwise."""
    team, equals, number = text.partition("=")
    if not equals or not team or not number.strip().isdigit():
        raise RequestRefused(f"--version {text!r}: TEAM=NUMBER, as alpha=3")
    return team, int(number)


def check_files(version: Version) -> None:
    """RequestRefused for a version whose folder the arena removed (storage.py): it cannot play."""
    if version.files_removed is not None:
        raise RequestRefused(
            f"{version.entry.name}'s version {version.number}: its files were removed "
            f"on {version.files_removed:%Y-%m-%d} (superseded for longer than the "
            "arena's retention_days); choose a version that still has its files "
            f"({version.entry.name}=NUMBER)")


def freeze(deadline=None, chosen: Optional[Dict[str, int]] = None, house: Sequence[str] = (),
           excluded: Sequence[str] = ()) -> Tuple[List[Frozen], List[Tuple[str, str]]]:
    """The versions entered and the teams left out (with why). Each team's last ready version
    uploaded before `deadline`, or without one its current one; `chosen` ({team: number})
    overrides, its version to be ready; the teams named in `excluded` left out; the house
    opponents named in `house` with their one version. A team whose newest version is still
    being checked plays with its newest ready one (said in its Frozen's note): nothing waits
    for a check. RequestRefused for a chosen version that is not there or not ready, a name
    that is no team's, and a team both chosen and excluded."""
    chosen = dict(chosen or {})
    excluded = set(excluded)
    entered, left_out = [], []
    teams = {entry.name: entry for entry in Entry.objects.filter(kind=Entry.TEAM)}
    for names, what in ((chosen, "chosen"), (excluded, "excluded")):
        unknown = sorted(set(names) - set(teams))
        if unknown:
            raise RequestRefused(f"no team named {', '.join(unknown)} (to be {what})")
    both = sorted(excluded & set(chosen))
    if both:
        raise RequestRefused(f"{', '.join(both)}: both excluded and given a version")
    for name, entry in sorted(teams.items()):
        if name in excluded:
            left_out.append((name, "excluded"))
            continue
        versions = entry.versions.all()
        if name in chosen:
            version = versions.filter(number=chosen[name]).first()
            if version is None or version.status != Version.READY:
                raise RequestRefused(f"{name} has no ready version {chosen[name]}"
                                     + (f" (it is {version.status})" if version else ""))
            check_files(version)
            entered.append(Frozen(version, "chosen"))
            continue
        if deadline is not None:
            versions = versions.filter(created__lt=deadline)
        checking = versions.filter(status=Version.CHECKING).order_by("-number").first()
        version = versions.filter(status=Version.READY).order_by("-number").first()
        note = ""
        if checking is not None and (version is None or checking.number > version.number):
            note = f"version {checking.number} still being checked"
        if version is None:
            left_out.append((name, "no ready version" + (" uploaded before the deadline"
                                                         if deadline else "")
                             + (f"; {note}" if note else "")))
            continue
        check_files(version)
        entered.append(Frozen(version, "deadline" if deadline else "current", note))
    for name in house:
        entry = Entry.objects.filter(name=name, kind=Entry.HOUSE).first()
        if entry is None or name not in house_entries.HOUSE:
            raise RequestRefused(
                f"no house opponent {name!r} (of {', '.join(house_entries.HOUSE)})")
        entered.append(Frozen(entry.current_version(), "house"))
    return entered, left_out


def rounds(count: int) -> List[List[Tuple[int, int]]]:
    """The round robin of `count` players (0 .. count-1) in rounds (the circle method): each
    pair (i, j), i < j, once; with an odd count one player rests each round."""
    players: List[Optional[int]] = list(range(count)) + ([None] if count % 2 else [])
    size = len(players)
    made = []
    for _ in range(size - 1):
        pairs = [(players[k], players[size - 1 - k]) for k in range(size // 2)]
        made.append([(min(a, b), max(a, b)) for a, b in pairs if a is not None and b is not None])
        players = [players[0], players[-1]] + players[1:-1]
    return made


def schedule(count: int, games_per_pair: int) -> List[Tuple[int, int]]:
    """(first, second) of every game, in the order they are queued: each pair's first game
    in rounds, then each pair's second, and so on; within a pair the colours alternate, and
    for an odd number a pair the extra first move goes to i if i + j is odd, else to j, which
    spreads the extras evenly (each player's first moves within one of any other's)."""
    games = []
    for game in range(games_per_pair):
        for pairs in rounds(count):
            for i, j in pairs:
                first, second = (i, j) if (i + j) % 2 else (j, i)
                games.append((first, second) if game % 2 == 0 else (second, first))
    return games


def create(name: str, tc: float, games_per_pair: int, deadline=None,
           chosen: Optional[Dict[str, int]] = None, house: Sequence[str] = (),
           actor: Optional[str] = None, excluded: Sequence[str] = (),
           grading_scheme: str = "") -> Created:
    """A tournament named `name`: its versions frozen (freeze) and its round robin queued, in
    one transaction (with the audit log's line when `actor` is given); its grading scheme
    `grading_scheme` (grading.py); RequestRefused (why) if it cannot be."""
    name = name.strip()
    if not name or len(name) > 100:
        raise RequestRefused("a tournament's name: 1 to 100 characters")
    if not tc > 0:
        raise RequestRefused(f"--tc {tc:g}: seconds a game, more than 0")
    if games_per_pair < 1:
        raise RequestRefused("games a pair: 1 or more")
    grading_scheme = grading_scheme.strip()
    try:
        grading.parse(grading_scheme)
    except grading.GradingError as refused:
        raise RequestRefused(str(refused)) from None
    try:
        with transaction.atomic():
            if Tournament.objects.filter(name=name).exists():
                raise RequestRefused(f"a tournament named {name!r} exists")
            entered, left_out = freeze(deadline, chosen, house, excluded)
            if len(entered) < 2:
                raise RequestRefused(f"{len(entered)} team{'s' * (len(entered) != 1)} to enter: "
                                     "a tournament needs two")
            made = Tournament.objects.create(name=name, tc=tc, games_per_pair=games_per_pair,
                                             deadline=deadline, grading=grading_scheme)
            TournamentEntry.objects.bulk_create(
                [TournamentEntry(tournament=made, version=frozen.version)
                 for frozen in entered])
            versions = [frozen.version for frozen in entered]
            games = [Game(p1=versions[first], p2=versions[second], purpose=Game.TOURNAMENT,
                          tournament=made)
                     for first, second in schedule(len(versions), games_per_pair)]
            Game.objects.bulk_create(games)
            result = Created(made, entered, left_out, len(games))
            if actor is not None:
                audit.record(actor, "tournament create", name, result.text())
    except IntegrityError:  # the same name, named at the same moment
        raise RequestRefused(f"a tournament named {name!r} exists") from None
    return result


def retry_failed(tournament: Tournament, actor: Optional[str] = None) -> int:
    """Queues again the tournament's failed games (the runner could not play them); how many."""
    with transaction.atomic():
        count = tournament.games.filter(status=Game.FAILED).update(
            status=Game.QUEUED, worker="", started=None, ended=None, attempts=0)
        if actor is not None and count:
            audit.record(actor, "tournament retry", tournament.name,
                         f"{count} failed games queued again")
    return count


def clock(game: Game, default: float) -> float:
    """The clock `game` is played at, seconds a player: its tournament's, else `default` (the
    arena's). A house engine keeps its own either way (house.seat)."""
    if game.tournament_id is None:
        return default
    return Tournament.objects.values_list("tc", flat=True).get(pk=game.tournament_id)


@dataclasses.dataclass
class Line(standings.Line):
    """A line of a tournament's table: the standings' fields, its rank and its points."""
    rank: int = 0
    points: float = 0.0

    def to_api(self) -> dict:
        return dict(super().to_api(), rank=self.rank, points=self.points)


def rank(lines: List[Line], games: Iterable[Tuple[str, str, str]]) -> List[Line]:
    """The lines sorted and ranked, each line's points counted from `games` ((p1, p2, result)
    by name): points, then the points of the games between the tied lines, then Elo (unrated
    last); equal on all three, the same rank (listed by name)."""
    games = list(games)
    gained = defaultdict(float)
    for p1, p2, result in games:
        first, second = POINTS.get(result, (0.0, 0.0))
        gained[p1] += first
        gained[p2] += second
    for line in lines:
        line.points = gained[line.team]
    between = defaultdict(float)
    for p1, p2, result in games:
        if gained[p1] == gained[p2]:  # a game between two lines tied on points
            first, second = POINTS.get(result, (0.0, 0.0))
            between[p1] += first
            between[p2] += second

    def key(line):
        return (-line.points, -between[line.team], line.elo is None, -(line.elo or 0.0))
    ordered = sorted(lines, key=lambda line: (key(line), line.team))
    for index, line in enumerate(ordered):
        line.rank = ordered[index - 1].rank if index and key(ordered[index - 1]) == key(line) \
            else index + 1
    return ordered


_CACHES: Dict[int, standings.Cache] = {}
_CACHES_LOCK = threading.Lock()


def table(tournament: Tournament) -> List[Line]:
    """The tournament's standings over its finished games, ranked (rank)."""
    entered = {entry.version_id: (entry.version.entry.name, entry.version.entry.kind,
                                  entry.version.number)
               for entry in tournament.entries.select_related("version__entry")}
    done = tournament.games.filter(status=Game.DONE)
    last = done.order_by("-id").values_list("id", flat=True).first()
    key = (tuple(sorted(entered)), last, done.count())

    def make() -> List[Line]:
        # A game whose record does not validate counts nowhere: not in the head to head either.
        games = [game for game in done.only("p1_id", "p2_id", "result", "score1", "score2",
                                            "divercites1", "divercites2", "record", "set_aside")
                 if standings.sound(game, entered)]
        lines = [Line(**dataclasses.asdict(line)) for line in standings.compute(entered, games)]
        return rank(lines, ((entered[game.p1_id][0], entered[game.p2_id][0], game.result)
                            for game in games))

    with _CACHES_LOCK:
        cache = _CACHES.setdefault(tournament.pk, standings.Cache())
    return cache.get(key, make)


def progress(tournament: Tournament) -> Dict[str, int]:
    """Its games: total, done, failed, playing, queued."""
    counts = tournament.games.aggregate(
        total=Count("id"), done=Count("id", filter=Q(status=Game.DONE)),
        failed=Count("id", filter=Q(status=Game.FAILED)),
        playing=Count("id", filter=Q(status=Game.PLAYING)),
        queued=Count("id", filter=Q(status=Game.QUEUED)))
    return {f"games_{key}": value for key, value in counts.items()}


def summary(tournament: Tournament) -> dict:
    """GET /api/tournaments' fields of one tournament."""
    return {"id": tournament.pk, "name": tournament.name, "tc": tournament.tc,
            "games_per_pair": tournament.games_per_pair,
            "deadline": tournament.deadline.isoformat() if tournament.deadline else None,
            "created": tournament.created.isoformat(),
            "entries": tournament.entries.count(), **progress(tournament)}


def to_api(tournament: Tournament) -> dict:
    """GET /api/tournaments/ID: the summary and the standings."""
    return dict(summary(tournament), standings=[line.to_api() for line in table(tournament)])


def scheme(tournament: Tournament) -> grading.Scheme:
    """The tournament's grading scheme; one kept before the validator (edited in the
    database) that no longer parses grades no one, rather than taking the CSV down."""
    try:
        return grading.parse(tournament.grading)
    except grading.GradingError:
        return grading.NONE


def set_grading(tournament: Tournament, text: str, actor: Optional[str] = None) -> None:
    """The tournament's grading scheme set to `text` ("" for none), with the audit log's line
    when `actor` is given; RequestRefused (why) for a scheme that is none."""
    text = text.strip()
    try:
        grading.parse(text)
    except grading.GradingError as refused:
        raise RequestRefused(str(refused)) from None
    with transaction.atomic():
        old = Tournament.objects.select_for_update().get(pk=tournament.pk).grading
        Tournament.objects.filter(pk=tournament.pk).update(grading=text)
        if actor is not None:
            audit.record(actor, "tournament grading", tournament.name,
                         f"{old or '(none)'} -> {text or '(none)'}")
    tournament.grading = text


def csv_text(tournament: Tournament) -> str:
    """The standings as CSV (CSV_FIELDS, a line a team, best first) for grading: each team's
    grade by the tournament's scheme (empty without one)."""
    graded = scheme(tournament)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, extrasaction="ignore")
    writer.writeheader()
    for line in table(tournament):
        fields = line.to_api()
        fields["points"] = f"{line.points:g}"
        fields["grade"] = graded.grade(line.rank, line.points)
        writer.writerow({key: "" if value is None else value for key, value in fields.items()})
    return out.getvalue()


def csv_name(tournament: Tournament) -> str:
    return f"tournament-{tournament.pk}-{slugify(tournament.name) or 'standings'}.csv"


def text_table(tournament: Tournament) -> str:
    """The standings as `tournament show` prints them."""
    done = progress(tournament)
    lines = [f"Tournament {tournament.pk} {tournament.name!r}: {tournament.games_per_pair} "
             f"games a pair at {tournament.tc:g} s a game"
             + (f", versions uploaded before {tournament.deadline.isoformat()}"
                if tournament.deadline else ""),
             f"{done['games_done']} of {done['games_total']} games played, "
             f"{done['games_playing']} being played, {done['games_failed']} failed"]
    graded = scheme(tournament)
    lines.extend([f"grades: {tournament.grading}"] if graded.kind else [])
    lines.append("")
    rows = [["#", "team", "version", "points", "Elo", "95 %", "games", "W", "D", "L",
             "divercités", "points for", "against"] + (["grade"] if graded.kind else [])]
    for line in table(tournament):
        rows.append([str(line.rank), line.team + (" (house)" if line.kind == "house" else ""),
                     str(line.version), f"{line.points:g}",
                     "-" if line.elo is None else f"{line.elo:.0f}",
                     "-" if line.elo_low is None else f"{line.elo_low:.0f}..{line.elo_high:.0f}",
                     str(line.games), str(line.wins), str(line.draws), str(line.losses),
                     str(line.divercites), str(line.points_for), str(line.points_against)]
                    + ([graded.grade(line.rank, line.points)] if graded.kind else []))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        lines.append("  ".join(cell.ljust(width) if i == 1 else cell.rjust(width)
                               for i, (cell, width) in enumerate(zip(row, widths))).rstrip())
    return "\n".join(lines)
