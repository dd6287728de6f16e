"""The teams of a class folder: every folder holding the agent file, each a team named after
its folder; those the ladder refuses, with why; the pairs they make and a shard's part of
them."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import List, Optional, Sequence, Tuple

from ..sandbox.limits import Limits
from ..sandbox.staging import folder_problem

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
class RefusedTeam:
    """A team's folder the ladder does not play, and why (listed with the standings, and as
    `refused` in standings.json)."""
    name: str
    reason: str


def find_teams(class_dir: Path, agent_file: str,
               limits: Optional[Limits] = None) -> Tuple[List[Team], List[RefusedTeam]]:
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
            refused.append(RefusedTeam(plain(folder.name, 100), "a team's folder name must be "
                                       "letters, digits, '_', '.' or '-' (it names the team "
                                       "in the records)"))
            continue
        problem = None if limits is None else folder_problem(str(folder), limits)
        if problem is not None:
            refused.append(RefusedTeam(folder.name, plain(problem)))
            continue
        teams.append(Team(folder.name, agent.resolve()))
    if len(teams) < 2:
        also = f" ({len(refused)} refused)" if refused else ""
        raise LadderError(f"{class_dir}: {len(teams)} team folder(s) holding {agent_file}"
                          f"{also}; a ladder needs two or more")
    return teams, refused


def pairs_of(teams: Sequence[Team]) -> List[Tuple[Team, Team]]:
    """Every pair of teams once, in the teams' order: (a, b) with a before b."""
    return [(a, b) for i, a in enumerate(teams) for b in teams[i + 1:]]


def shard_of(pairs: List[Tuple[Team, Team]], shard: Optional[Tuple[int, int]]):
    """The pairs of shard K of N (every N-th from the K-th); all of them without a shard."""
    if shard is None:
        return pairs
    k, n = shard
    return [pair for index, pair in enumerate(pairs) if index % n == k - 1]
