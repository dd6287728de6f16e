"""The ladder's standings as a page, OUT/index.html: the standings and the cross table (each
cell linking to the pair's match report), written by the project's one writer of those tables
(divercite._core, tools/common/standings_table.h) in a page that carries the arena's style
sheet as the pairs' match reports do (self-contained: the folder opens from any disk); then
the refused teams and the failed pairs. One function, html_report, so that the page's writer
can be swapped for another."""

from __future__ import annotations

import html
from typing import Optional, Sequence

from .. import _core
from .settings import Settings
from .standings import Report
from .teams import Team, plain


def standings_rows(result: Report) -> list:
    """The writer's rows: rank, Elo with its 95 % interval (none when unbounded), points,
    games, wins, draws, losses."""
    rows = []
    for rank, s in enumerate(result.standings, 1):
        wins, draws, losses = result.results.get(s.name, (0, 0, 0))
        bounded = s.elo_interval is not None
        rows.append({"name": s.name, "rank": rank, "elo": s.elo,
                     "elo_low": s.elo - s.elo_interval if bounded else None,
                     "elo_high": s.elo + s.elo_interval if bounded else None,
                     "points": s.points, "games": s.games, "wins": wins, "draws": draws,
                     "losses": losses})
    return rows


def cross_cell(result: Report, a: str, b: str) -> Optional[dict]:
    """a's points against b out of their games, linking to the pair's match report; None
    before they have played."""
    games = result.games.get((a, b), 0)
    if not games:
        return None
    first, second = sorted((a, b))
    return {"text": f"{result.points.get((a, b), 0):g}/{games}",
            "link": f"pairs/{first}--{second}/index.html"}


def html_report(result: Report, teams: Sequence[Team], settings: Settings) -> str:
    """The page of the standings `result`, of the ladder of `teams` with `settings`."""
    order = [s.name for s in result.standings]
    sandboxed = ", sandboxed" if settings.sandbox else ""
    body = (f"<p class=\"note\">{len(teams)} teams, {settings.games} games a pair "
            f"({settings.openings_text()}), tc={html.escape(settings.tc)}{sandboxed}.\n"
            f"{html.escape(result.terminations_text())}.\n"
            "Elo: Bradley-Terry over all games, with its 95 % interval. A cell of the cross "
            "table: the row's points against the column's team, out of the games played; it "
            "links to the pair's match report.</p>\n"
            + _core.standings_table_html(standings_rows(result), ("points",),
                                         table_id="standings", sortable=False)
            + "<h2>Cross table</h2>\n"
            + _core.cross_table_html(order, [[None if a == b else cross_cell(result, a, b)
                                              for b in order] for a in order],
                                     table_id="cross-table"))
    if result.refused:
        body += ("<h2>Refused</h2>\n<p>These teams' folders were not played.</p>\n"
                 "<div class=\"scroll\"><table id=\"refused\"><tr><th>team</th><th>why</th>"
                 "</tr>\n" +
                 "".join(f"<tr><td>{html.escape(team.name)}</td>"
                         f"<td><pre class=\"reason\">{html.escape(team.reason)}</pre></td></tr>\n"
                         for team in result.refused) + "</table></div>\n")
    if result.failures:
        body += ("<h2>Failed</h2>\n<p>These pairs' matches failed; the next run plays them "
                 "again.</p>\n<div class=\"scroll\"><table id=\"failures\"><tr><th>pair</th>"
                 "<th>why</th></tr>\n" +
                 "".join(f"<tr><td>{html.escape(a)} - {html.escape(b)}</td>"
                         f"<td><pre class=\"reason\">{html.escape(why)}</pre></td></tr>\n"
                         for a, b, why in result.failures) + "</table></div>\n")
    return _core.table_page_html(f"Ladder: {plain(settings.class_dir.name)}", body)
