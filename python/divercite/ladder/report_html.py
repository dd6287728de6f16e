"""The ladder's standings as a page, OUT/index.html: the table with its cross table (each
cell linking to the pair's match report), the refused teams, the failed pairs. One function,
html_report, so that the page's writer can be swapped for another."""

from __future__ import annotations

import html
from typing import Sequence

from .settings import Settings
from .standings import Report
from .teams import Team, plain


def html_report(result: Report, teams: Sequence[Team], settings: Settings) -> str:
    """The page of the standings `result`, of the ladder of `teams` with `settings`."""
    order = [s.name for s in result.standings]
    head = "".join(f"<th title=\"{html.escape(n)}\">{i}</th>" for i, n in enumerate(order, 1))
    rows = []
    for rank, s in enumerate(result.standings, 1):
        cells = []
        for other in order:
            if other == s.name:
                cells.append("<td class=\"self\"></td>")
                continue
            games = result.games.get((s.name, other), 0)
            a, b = sorted((s.name, other))
            link = f"pairs/{html.escape(a)}--{html.escape(b)}/index.html"
            text = f"{result.points.get((s.name, other), 0):g}/{games}" if games else "-"
            cells.append(f"<td class=\"n\"><a href=\"{link}\">{text}</a></td>")
        interval = "&infin;" if s.elo_interval is None else f"{s.elo_interval:.0f}"
        rows.append(f"<tr><td class=\"n\">{rank}</td><td>{html.escape(s.name)}</td>"
                    f"<td class=\"n\">{s.elo:.0f}</td><td class=\"n\">&plusmn;{interval}</td>"
                    f"<td class=\"n\">{s.points:g}</td><td class=\"n\">{s.games}</td>"
                    + "".join(cells) + "</tr>")
    title = f"Ladder: {html.escape(plain(settings.class_dir.name))}"
    sandboxed = ", sandboxed" if settings.sandbox else ""
    notes = ""
    if result.refused:
        notes += ("<h2>Refused</h2>\n<p>These teams' folders were not played.</p>\n"
                  "<table id=\"refused\"><tr><th>team</th><th>why</th></tr>\n" +
                  "".join(f"<tr><td>{html.escape(team.name)}</td>"
                          f"<td>{html.escape(team.reason)}</td></tr>\n"
                          for team in result.refused) + "</table>\n")
    if result.failures:
        notes += ("<h2>Failed</h2>\n<p>These pairs' matches failed; the next run plays them "
                  "again.</p>\n<table id=\"failures\"><tr><th>pair</th><th>why</th></tr>\n" +
                  "".join(f"<tr><td>{html.escape(a)} - {html.escape(b)}</td>"
                          f"<td><pre>{html.escape(why)}</pre></td></tr>\n"
                          for a, b, why in result.failures) + "</table>\n")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;margin:2em}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:.2em .5em}}td.n{{text-align:right}}
td.self{{background:#eee}}</style></head><body>
<h1>{title}</h1>
<p>{len(teams)} teams, {settings.games} games a pair ({settings.openings_text()}),
tc={html.escape(settings.tc)}{sandboxed}.
{html.escape(result.terminations_text())}.
Elo: Bradley-Terry over all games, with its 95 % interval. A cell: the row's points against
the column's team, out of the games played; it links to the pair's match report.</p>
<table id="standings"><tr><th>#</th><th>team</th><th>Elo</th><th>95 %</th><th>points</th>
<th>games</th>{head}</tr>
{chr(10).join(rows)}
</table>
{notes}</body></html>
"""
