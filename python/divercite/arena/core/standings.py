"""The table: Bradley-Terry Elo over the games of the current versions (`divercite-match
-ratings`, as divercite.match computes it for a match), with the seeds' statistics (games,
wins, losses, draws, divercités, points for and against, totals and per game).

A finished game whose record does not validate (record_checks.check_stored: kept before those
checks, or edited by hand) is set aside: left out of the table, with the reason written once in
its row (Game.set_aside, shown on the admin pages), so that one bad row never takes the
standings, the pages and matchmaking down with it. Should -ratings fail all the same, the table
is shown without Elo."""

from __future__ import annotations

import dataclasses
import logging
import os
import tempfile
import threading
from typing import Dict, List, Optional, Tuple

from ... import match
from ...records import GameRecord
from ..play.record_checks import RecordRefused, check_stored

log = logging.getLogger("divercite.arena")

NEIGHBOURS = ((-1, 0), (1, 0), (0, -1), (0, 1))
# The rated games (the table's, matchmaking's): matchmaking's own and the challenges, never a
# version's check nor a final tournament's (models.Game's purposes).
RATED_PURPOSES = ("ladder", "challenge")


def divercites(record: GameRecord) -> Tuple[Optional[int], Optional[int]]:
    """Each player's divercité cities on the game's last board (a city whose four neighbours
    hold resources of four colours); (None, None) if the record does not replay."""
    try:
        board = record.positions()[-1].board()
    except (ValueError, TypeError):
        return None, None
    counts = [0, 0]
    for (row, col), piece in board.items():
        if piece[1] != "C":
            continue
        around = [board.get((row + dr, col + dc)) for dr, dc in NEIGHBOURS]
        if all(p is not None and p[1] == "R" for p in around) and \
                len({p[0] for p in around}) == 4:
            counts[0 if piece[2] == "W" else 1] += 1
    return counts[0], counts[1]


@dataclasses.dataclass
class Line:
    team: str
    kind: str
    version: Optional[int]
    elo: Optional[float] = None
    elo_low: Optional[float] = None
    elo_high: Optional[float] = None
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    divercites: int = 0
    points_for: int = 0
    points_against: int = 0

    def count(self, game, first: bool):
        """Adds the finished `game` (a Game row) to the line: its first player's side if
        `first`, else its second's."""
        won, lost = ("1-0", "0-1") if first else ("0-1", "1-0")
        scored, conceded, divercite = ((game.score1, game.score2, game.divercites1) if first
                                       else (game.score2, game.score1, game.divercites2))
        self.games += 1
        self.wins += game.result == won
        self.losses += game.result == lost
        self.draws += game.result == "1/2-1/2"
        self.divercites += divercite or 0
        self.points_for += scored or 0
        self.points_against += conceded or 0

    def rate(self, standing: match.Standing):
        """Takes the Elo and its 95 % interval (none when unbounded) of -ratings' `standing`,
        to a tenth."""
        self.elo = round(standing.elo, 1)
        if standing.elo_interval is not None:
            self.elo_low = round(standing.elo - standing.elo_interval, 1)
            self.elo_high = round(standing.elo + standing.elo_interval, 1)

    def per_game(self, value: int) -> Optional[float]:
        return round(value / self.games, 2) if self.games else None

    def to_api(self) -> dict:
        return {"team": self.team, "kind": self.kind, "version": self.version,
                "elo": self.elo, "elo_low": self.elo_low, "elo_high": self.elo_high,
                "games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "divercites": self.divercites,
                "divercites_per_game": self.per_game(self.divercites),
                "points_for": self.points_for, "points_against": self.points_against,
                "points_for_per_game": self.per_game(self.points_for),
                "points_against_per_game": self.per_game(self.points_against)}


def compute(current: Dict[int, Tuple[str, str, int]], games) -> List[Line]:
    """The table of the `current` versions ({version id: (entry name, kind, number)}) over
    `games` (finished Game rows between two of them), best first; entries without a game
    last, unrated. A game whose record does not validate is set aside (the module's
    docstring); without -ratings' answer the lines have no Elo."""
    lines = {pk: Line(team=name, kind=kind, version=number)
             for pk, (name, kind, number) in current.items()}
    records = []
    for game in games:
        if not sound(game, current):
            continue
        records.append(game.record)
        lines[game.p1_id].count(game, first=True)
        lines[game.p2_id].count(game, first=False)
    by_name = {line.team: line for line in lines.values()}
    for standing in ratings(records):
        if standing.name in by_name:
            by_name[standing.name].rate(standing)
    return sorted(lines.values(), key=lambda line: (line.elo is None, -(line.elo or 0),
                                                    line.team))


def sound(game, current: Dict[int, Tuple[str, str, int]]) -> bool:
    """Whether the finished game counts: not set aside before, and its record valid for its
    row; a game found bad now is set aside (one UPDATE, the first time only)."""
    if "set_aside" not in game.get_deferred_fields() and game.set_aside:
        return False
    try:
        check_stored(game.record, game.result, [current[game.p1_id][0], current[game.p2_id][0]],
                     [game.score1, game.score2])
        return True
    except RecordRefused as refused:
        reason = f"left out of the standings: {refused}"
    from .models import Game
    if Game.objects.filter(pk=game.pk, set_aside="").update(set_aside=reason):
        log.warning("game %s: %s", game.pk, reason)
    return False


def ratings(records: List[str]) -> List[match.Standing]:
    """-ratings over the records (JSON lines); none if there is none, or if it fails (logged:
    the table is then shown without Elo rather than not at all)."""
    if not records:
        return []
    try:
        with tempfile.TemporaryDirectory(prefix="divercite_arena_") as folder:
            path = os.path.join(folder, "records.jsonl")
            with open(path, "w", encoding="utf-8") as file:
                file.writelines(record + "\n" for record in records)
            return match.ratings(path, timeout=120)
    except (match.MatchError, OSError, ValueError, TypeError) as failure:
        log.error("the standings are shown without Elo: %s", failure)
        return []


class Cache:
    """The last table computed, kept until a game ends or the current versions change (the
    ratings are a fit over every game: computed once, read by every page)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.key = None
        self.lines: List[Line] = []

    def get(self, key, make) -> List[Line]:
        with self.lock:
            if key != self.key:
                self.lines = make()
                self.key = key
            return self.lines


CACHE = Cache()


def current_versions() -> Dict[int, Tuple[str, str, int]]:
    """{version id: (entry name, kind, number)} of the versions that play now: each team's
    newest ready version and each house opponent's."""
    from .models import Entry, Version
    current, seen = {}, set()
    for version in (Version.objects.filter(status=Version.READY,
                                           entry__kind__in=(Entry.TEAM, Entry.HOUSE))
                    .select_related("entry").order_by("entry_id", "-number")):
        if version.entry_id not in seen:  # the newest first
            seen.add(version.entry_id)
            current[version.pk] = (version.entry.name, version.entry.kind, version.number)
    return current


def stamp() -> Tuple:
    """What the standings and the pages' lists of games depend on, read in four indexed
    queries: a game created, started or ended, a version made ready or removed changes it."""
    from django.db.models import Count, Max
    from .models import Game, Version
    games = Game.objects.aggregate(last=Max("id"), ended=Max("ended"))
    playing = Game.objects.filter(status=Game.PLAYING).count()
    versions = Version.objects.filter(status=Version.READY).aggregate(
        last=Max("id"), ready=Count("id"))
    return (games["last"], games["ended"], playing, versions["last"], versions["ready"])


def table(key: Optional[Tuple] = None) -> List[Line]:
    """The standings now (computed again only when `key`, stamp() by default, changes)."""
    from .models import Game

    def make():
        current = current_versions()
        done = Game.objects.filter(status=Game.DONE, p1_id__in=current, p2_id__in=current,
                                   purpose__in=RATED_PURPOSES)
        return compute(current, done.only("p1_id", "p2_id", "result", "score1", "score2",
                                          "divercites1", "divercites2", "record", "set_aside"))
    return CACHE.get(stamp() if key is None else key, make)
