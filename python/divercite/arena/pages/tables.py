"""The standings tables of the arena's pages, written by the project's one writer of a
standings table (divercite._core.standings_table_html, tools/common/standings_table.h): the
arena's markup (classes, data-sort headings, the house mark) and its look, the same as the match
report's and the ladder's."""

from __future__ import annotations

from typing import Iterable

from django.urls import reverse

from ... import _core
from ..core import standings


def row(line: standings.Line, rank: int, points: float = 0.0) -> dict:
    """A line of the table as the writer's row: the team linked to its page, a house opponent
    marked."""
    shown = line.to_api()
    return {"name": line.team, "link": reverse("arena:team", args=[line.team]),
            "mark": "house" if line.kind == "house" else None, "row_class": line.kind,
            "rank": rank, "elo": line.elo, "elo_low": line.elo_low, "elo_high": line.elo_high,
            "games": line.games, "wins": line.wins, "draws": line.draws, "losses": line.losses,
            "points": points, "version": line.version,
            "divercites": line.divercites, "points_for": line.points_for,
            "points_against": line.points_against,
            **{key: shown[key] for key in ("divercites_per_game", "points_for_per_game",
                                           "points_against_per_game")}}


def standings_table(lines: Iterable[standings.Line]) -> str:
    """The arena's standings: ranked as listed, with W/L and the divercités' columns."""
    return _core.standings_table_html([row(line, rank) for rank, line in enumerate(lines, 1)],
                                      ("win_ratio", "divercites"),
                                      empty="No version is ready yet.")


def tournament_table(lines) -> str:
    """A final tournament's standings (tournament.Line): its ranks, each entry's version and
    points first."""
    return _core.standings_table_html([row(line, line.rank, line.points) for line in lines],
                                      ("version", "points", "divercites"), empty="No entry.")
