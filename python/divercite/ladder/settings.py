"""A ladder's settings and its folder: where each pair's files are, and how many games a
pair's records hold."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Optional, Sequence

from ..records import read_records
from ..sandbox.limits import Limits
from .teams import Team, pairs_of


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
        """OUT/pairs/A--B with `suffix`: .jsonl (the records), .failed (why its last match
        failed), none (the folder of the match's report pages)."""
        return self.out / "pairs" / f"{a}--{b}{suffix}"

    def openings(self) -> Optional[str]:
        """The runner's -openings words; None: the empty board."""
        return f"random plies={self.plies}" if self.plies else None

    def openings_text(self) -> str:
        return (f"after {self.plies} random plies (seed {self.seed})" if self.plies
                else "from the empty board")


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


def games_played(settings: Settings, teams: Sequence[Team]) -> int:
    """The games the pairs' records hold, at most the ladder's games a pair each."""
    return sum(min(settings.games, finished_games(settings.pair_path(a.name, b.name, ".jsonl")))
               for a, b in pairs_of(teams))
