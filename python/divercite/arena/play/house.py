"""The house opponents, and the match runner's player for any version.

A team's version plays through the course bridge in the sandbox (`python3 -m
divercite.course.engine --sandbox`), at the arena's clock, as divercite.ladder runs it; a house
opponent is our engine `divercite`: a replica of a course agent (its option Agent) at the
arena's clock, or the engine itself at a clock of its own. The checker is the course's own
random player, through the bridge."""

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
    tc: Optional[float] = None  # its own clock; None: the arena's


HOUSE: Dict[str, House] = {
    "random": House("the course's random player (our replica)", agent="random"),
    "greedy": House("the course's greedy player (our replica)", agent="greedy"),
    "skypiea_v5": House("a strong student agent of the course (our replica)",
                        agent="skypiea_v5"),
    "engine-0.1s": House("our engine, 0.1 s a game", tc=0.1),
    "engine-1s": House("our engine, 1 s a game", tc=1.0),
    "engine-10s": House("our engine, 10 s a game", tc=10.0),
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
    tc: float
    house: str = ""

    def to_json(self) -> dict:
        return dataclasses.asdict(self)

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
        tc = HOUSE[version.house].tc or tc
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
        return match.Player(name=seat.name, options=options, tc=f"{seat.tc:g}")
    if agent is None:
        raise ValueError(f"{seat.name}: a team's seat needs its agent's file")
    flags = ["--agent-log", str(log)] if log is not None else []
    return agent_player(seat.name, agent, seat.tc, course=course, flags=flags)
