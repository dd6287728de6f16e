"""The house opponents, and the match runner's player for any version.

A team's version plays through the course bridge in the sandbox (`python3 -m
divercite.course.engine --sandbox`), at the arena's clock, as divercite.ladder runs it; a house
opponent is our engine `divercite`: a replica of a course agent (its option Agent: a fixed
depth schedule, or none), or the engine itself searching a fixed number of nodes a move. What
a house opponent does is its search's, never the clock's: it is as strong on a busy worker as
on a free one, the same on every machine, and never loses on time. The engine's levels were
calibrated once against its clock levels (search/NOTES.md, "The arena's house levels"): from
the nodes it searched a move at 0.1 s, 1 s and 10 s a game, and matches against them. The
levels by clock that arenas began with are retired: their entries play no more
(teams.ensure_house), their games stay. The checker is the course's own random player,
through the bridge."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Dict, Optional

from ... import match
from ...course.bridged import agent_player


@dataclasses.dataclass(frozen=True)
class House:
    description: str
    agent: Optional[str] = None  # the engine's option Agent
    nodes: Optional[int] = None  # the nodes its search may visit a move (go nodes N)
    tc: Optional[float] = None  # a retired level's own clock
    retired: str = ""  # the level that replaced it: it plays no more

    def seconds(self, arena_tc: float) -> float:
        """What it may take of a game's time (the runner's timeout counts it): its own clock,
        a nodes level's allowance (a machine 5 times slower than the calibration's, 1 M
        nodes a second, at least 30 s), else the arena's clock."""
        if self.nodes is not None:
            return max(30.0, self.nodes * MOVES_A_SIDE / 1e6)
        return self.tc or arena_tc


MOVES_A_SIDE = 20
HOUSE: Dict[str, House] = {
    "random": House("the course's random player (our replica)", agent="random"),
    "greedy": House("the course's greedy player (our replica)", agent="greedy"),
    "skypiea_v5": House("a strong student agent of the course (our replica)",
                        agent="skypiea_v5"),
    "engine-40k": House("our engine, 40,000 nodes a move (as strong as at 0.1 s a game)",
                        nodes=40_000),
    "engine-250k": House("our engine, 250,000 nodes a move (as strong as at 1 s a game)",
                         nodes=250_000),
    "engine-2.5m": House("our engine, 2.5 million nodes a move (as strong as at 10 s a game)",
                         nodes=2_500_000),
    # Retired: a clock's strength depends on the worker's load, and a clock can run out.
    "engine-0.1s": House("our engine, 0.1 s a game", tc=0.1, retired="engine-40k"),
    "engine-1s": House("our engine, 1 s a game", tc=1.0, retired="engine-250k"),
    "engine-10s": House("our engine, 10 s a game", tc=10.0, retired="engine-2.5m"),
}
CHECKER = "course-random"  # the entry that checks new versions: the course's random player
CHECKER_FILE = "random_player_divercite.py"


@dataclasses.dataclass(frozen=True)
class Seat:
    """One side of a game as a worker needs it, here or on another machine (JSON over the
    workers' API): the entry's name, its kind, the house opponent's key or the team version
    whose files it plays, and its clock in seconds."""
    name: str
    kind: str  # models.Entry's: team, house or checker
    version: int
    tc: float  # its clock; a nodes level's allowance (House.seconds)
    house: str = ""

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

    def clock_text(self) -> str:
        """Its time control as the runner writes it in a record's `tc`."""
        nodes = HOUSE[self.house].nodes if self.kind == "house" else None
        return f"nodes={nodes}" if nodes is not None else f"tc={self.tc:g}"

    @classmethod
    def from_json(cls, fields: dict) -> "Seat":
        try:
            seat = cls(name=str(fields["name"]), kind=str(fields["kind"]),
                       version=int(fields["version"]), tc=float(fields["tc"]),
                       house=str(fields.get("house", "")))
        except (KeyError, TypeError, ValueError) as bad:
            raise ValueError(f"not a seat: {fields!r} ({bad})") from None
        if seat.kind == "house" and seat.house not in HOUSE:
            raise ValueError(f"no house opponent {seat.house!r} here")
        return seat


def seat(version, name: str, tc: float) -> Seat:
    """The seat of `version` (a models.Version) named `name`, a team's at the clock `tc`; a
    house engine keeps its own clock where it has one."""
    kind = version.entry.kind
    if kind == "house":
        tc = HOUSE[version.house].seconds(tc)
    return Seat(name=name, kind=kind, version=version.pk, tc=tc, house=version.house)


def runner_player(seat: Seat, course: str, agent: Optional[Path],
                  log: Optional[Path] = None) -> match.Player:
    """The match runner's player for `seat`: the checker and teams through the course bridge
    in the sandbox (a team's `agent`, its my_player.py, what it writes kept in `log`), house
    opponents as our engine."""
    if seat.kind == "checker":
        return agent_player(seat.name, Path(course) / CHECKER_FILE, seat.tc, course=course)
    if seat.kind == "house":
        house = HOUSE[seat.house]
        options = {"Agent": house.agent} if house.agent else {}
        if house.nodes is not None:
            return match.Player(name=seat.name, options=options, nodes=house.nodes)
        return match.Player(name=seat.name, options=options, tc=f"{seat.tc:g}")
    if agent is None:
        raise ValueError(f"{seat.name}: a team's seat needs its agent's file")
    flags = ["--agent-log", str(log)] if log is not None else []
    return agent_player(seat.name, agent, seat.tc, course=course, flags=flags)
