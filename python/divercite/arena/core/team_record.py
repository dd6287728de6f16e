"""A team's record as its page shows it: each version's own games and rating against the same
field, and the team's results against each opponent.

A version's rating comes from one Bradley-Terry fit (`divercite-match -ratings`, as the
standings' Elo) over every rated game of every version, each version a player of its own: the
records are fed to it with their players named by version ("alpha v3"). A version is one
program, so its strength is one number, fitted from its own games; a superseded version keeps
the rating of the games it played; and every version of every team is on the one scale of that
fit, so that a team's versions compare with each other and with the field they met. (The
standings fit the current versions' games only: the two scales differ by a constant or so.)

The games counted are the standings' (rated, finished, sound: a record that does not validate
is set aside, standings.sound). Unlike the standings' they only grow, a class's whole
history, so the field is kept up to date game by game (Tally): each game is read, checked and
counted once; when standings.stamp() changes, the games finished since are, and the fit is
made again over the kept players and results (the moves left out: the fit does not read them,
and -ratings took 4.4 s over 20,000 records with their moves, 0.7 s without). Measured on
10,000 games of 20 teams (tests/arena/load.py's): 3.6 s to count them all the first time in a
process (the standings take 3.4 s over the same games), then 0.4 s a stamp."""

from __future__ import annotations

import dataclasses
import json
import threading
from typing import Dict, List, Optional, Set, Tuple

from . import standings

Named = Dict[int, Tuple[str, str, int]]  # {version id: (entry name, kind, number)}


def player(name: str, number: int) -> str:
    """A version's name in the fit's records: a team's name holds no space
    (models.NAME_PATTERN), so that "alpha v3" is no other version's."""
    return f"{name} v{number}"


@dataclasses.dataclass
class Field:
    """Every rated game counted: by version id, the version's line (its entry's name, kind
    and number; its games and rating); by (entry, opponent) names, the entry's line against
    that opponent, all its versions together (the opponent's name, kind, no version)."""
    versions: Dict[int, standings.Line]
    pairs: Dict[Tuple[str, str], standings.Line]


class Tally:
    """The field's counts and the fit's lines, game by game."""

    def __init__(self):
        self.counted: Set[int] = set()  # the games' ids
        self.named: Named = {}  # the names the games were counted under
        self.lines: List[str] = []  # a record a game for -ratings, its players by version
        self.versions: Dict[int, standings.Line] = {}
        self.pairs: Dict[Tuple[str, str], standings.Line] = {}

    def add(self, game, named: Named):
        """Counts the finished rated `game` (a Game row) if it is sound (standings.sound,
        which sets a bad one aside)."""
        if not standings.sound(game, named):
            return
        record = json.loads(game.record)
        record["moves"] = []
        record["p1"], record["p2"] = (player(named[pk][0], named[pk][2])
                                      for pk in (game.p1_id, game.p2_id))
        self.lines.append(json.dumps(record))
        self.counted.add(game.pk)
        for pk, other, first in ((game.p1_id, game.p2_id, True),
                                 (game.p2_id, game.p1_id, False)):
            self.named[pk] = named[pk]
            name, kind, number = named[pk]
            rival, rival_kind, _ = named[other]
            if pk not in self.versions:
                self.versions[pk] = standings.Line(team=name, kind=kind, version=number)
            if (name, rival) not in self.pairs:
                self.pairs[name, rival] = standings.Line(team=rival, kind=rival_kind,
                                                         version=None)
            self.versions[pk].count(game, first)
            self.pairs[name, rival].count(game, first)

    def fitted(self) -> Field:
        """The field now: copies of the counts (a page reads them while the next games are
        counted), each version rated by -ratings over every game counted."""
        versions = {pk: dataclasses.replace(line) for pk, line in self.versions.items()}
        by_player = {player(line.team, line.version): line for line in versions.values()}
        for standing in standings.ratings(self.lines):
            if standing.name in by_player:
                by_player[standing.name].rate(standing)
        return Field(versions, {pair: dataclasses.replace(line)
                                for pair, line in self.pairs.items()})


def fit(named: Named, games) -> Field:
    """The field of the versions `named` over `games` (finished rated Game rows between
    them), counted at once."""
    tally = Tally()
    for game in games:
        tally.add(game, named)
    return tally.fitted()


class FieldCache:
    """The field as of the last stamp, and the tally it was fitted from, kept up to date."""

    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        """Forgets the games counted (a test's database rolled back reuses their ids)."""
        self.key = None
        self.tally = Tally()
        self.field = Field({}, {})

    def get(self, key) -> Field:
        from .models import Game, Version
        with self.lock:
            if key == self.key:
                return self.field
            named = {version.pk: (version.entry.name, version.entry.kind, version.number)
                     for version in Version.objects.select_related("entry")}
            rated = Game.objects.filter(status=Game.DONE, purpose__in=standings.RATED_PURPOSES,
                                        set_aside="")
            ids = set(rated.values_list("pk", flat=True))
            # A game counted and now deleted or set aside, a version renamed: count again.
            if not self.tally.counted <= ids or any(
                    named.get(pk) != names for pk, names in self.tally.named.items()):
                self.tally = Tally()
            new = sorted(ids - self.tally.counted)
            for start in range(0, len(new), 500):
                for game in rated.filter(pk__in=new[start:start + 500]).order_by("pk").only(
                        "p1_id", "p2_id", "result", "score1", "score2", "divercites1",
                        "divercites2", "record", "set_aside"):
                    self.tally.add(game, named)
            self.field = self.tally.fitted()
            self.key = key
            return self.field


CACHE = FieldCache()


def field(key: Optional[Tuple] = None) -> Field:
    """The field now (brought up to date only when `key`, standings.stamp() by default,
    changes)."""
    return CACHE.get(standings.stamp() if key is None else key)


@dataclasses.dataclass
class VersionRecord:
    """A version of a team and its line in the field (no game: an empty line, unrated)."""
    version: object  # models.Version
    line: standings.Line


def versions(entry, the_field: Field) -> List[VersionRecord]:
    """Each version of `entry`, newest first, with its record."""
    return [VersionRecord(version, the_field.versions.get(version.pk) or standings.Line(
        team=entry.name, kind=entry.kind, version=version.number))
            for version in entry.versions.order_by("-number")]


def head_to_head(entry, the_field: Field) -> List[standings.Line]:
    """`entry`'s lines against each opponent it met (all its versions' games), the most
    games first, then by name."""
    lines = [line for (name, _), line in the_field.pairs.items() if name == entry.name]
    return sorted(lines, key=lambda line: (-line.games, line.team))
