"""The standings tables of the arena's pages, written by the project's one writer of a
standings table (divercite._core.standings_table_html, tools/common/standings_table.h): the
arena's markup (classes, data-sort headings, the house mark) and its look, the same as the match
report's and the ladder's."""

from __future__ import annotations

from typing import Iterable, Optional

from django.urls import reverse

from ... import _core
from ..core import standings


def row(line: standings.Line, rank: int, points: float = 0.0, reader: Optional[str] = None
        ) -> dict:
    """A line of the table as the writer's row: the team linked to its page, a house opponent
    marked, and the reader's own team's line (`reader`, the logged-in team's name) marked
    "you" (class "own")."""
    own = reader is not None and line.team == reader
    mark = "you" if own else "house" if line.kind == "house" else None
    return {"name": line.team, "link": reverse("arena:team", args=[line.team]), "mark": mark,
            "row_class": f"{line.kind} own" if own else line.kind,
            "rank": rank, "elo": line.elo, "elo_low": line.elo_low, "elo_high": line.elo_high,
            "games": line.games, "wins": line.wins, "draws": line.draws, "losses": line.losses,
            "points": points, "version": line.version,
            "divercites": line.divercites, "points_for": line.points_for,
            "points_against": line.points_against}


def standings_table(lines: Iterable[standings.Line], reader: Optional[str] = None,
                    first_rank: int = 1) -> str:
    """The arena's standings: ranked as listed from `first_rank`, with the seeds' columns
    (W/L, the divercités, the points scored and conceded, their ratio, each a game); the
    `reader`'s line marked."""
    return _core.standings_table_html(
        [row(line, rank, reader=reader) for rank, line in enumerate(lines, first_rank)],
        ("win_ratio", "divercites"), empty="No version is ready yet.")


def tournament_table(lines, reader: Optional[str] = None) -> str:
    """A final tournament's standings (tournament.Line): its ranks, each entry's version and
    points first; the `reader`'s line marked."""
    return _core.standings_table_html(
        [row(line, line.rank, line.points, reader) for line in lines],
        ("version", "points", "divercites"), empty="No entry.")
