"""The house opponents, and the match runner's player for any version.

A team's version plays through the course bridge in the sandbox (`python3 -m
divercite.course.engine --sandbox`), at the arena's clock, as the ladder runs it; a house
opponent is our engine `divercite`: a replica of a course agent (its option Agent) at the
arena's clock, or the engine itself at a clock of its own. The checker is the course's own
random player, through the bridge."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Dict, Optional

from .. import match


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


def bridge(name: str, agent: Path, arena) -> match.Player:
    return match.Player(cmd=sys.executable, name=name, tc=f"{arena.tc:g}",
                        args=["-m", "divercite.course.engine", "--sandbox",
                              "--course", arena.course, str(agent)])


def player(version, name: str, arena) -> match.Player:
    """The runner's player for `version` (a models.Version), named `name` in the record."""
    kind = version.entry.kind
    if kind == "checker":
        return bridge(name, Path(arena.course) / CHECKER_FILE, arena)
    if kind == "house":
        house = HOUSE[version.house]
        options = {"Agent": house.agent} if house.agent else {}
        return match.Player(name=name, options=options, tc=f"{house.tc or arena.tc:g}")
    return bridge(name, version.folder / version.agent_file, arena)
