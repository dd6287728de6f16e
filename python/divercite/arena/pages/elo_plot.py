"""A team's Elo over time as an inline SVG drawn here (the arena is offline: no plotting script
is fetched, none runs): each version of the team marked at its upload, its rating (the field's
fit, core.team_record) a point with its 95 % interval, and the team's Elo a step from version
to version, a version playing until the next ready one, the last until now.

    <svg class="elo-plot" viewBox="0 0 W H" role="img" aria-labelledby="elo-plot-title">
    <circle class="version-point" data-version="3" data-elo="1512.5" cx=".." cy=".." r="5">
      <title>v3: Elo 1512 (1440 … 1585), 8 games</title></circle> ...
"""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import math
from html import escape
from typing import List, Optional, Sequence, Tuple

WIDTH, HEIGHT = 480, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 14, 22, 34
# A version's label is left out where it would overlap the previous one (its mark and
# tooltip stay).
LABEL_GAP = 22


@dataclasses.dataclass
class PlotVersion:
    number: int
    created: datetime.datetime
    status: str  # models.Version's: checking, ready, rejected
    games: int = 0
    elo: Optional[float] = None
    elo_low: Optional[float] = None
    elo_high: Optional[float] = None


def nice_step(span: float, ticks: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 times a power of ten) giving about `ticks` ticks over
    `span`."""
    raw = max(span, 1.0) / ticks
    power = 10 ** math.floor(math.log10(raw))
    return next(power * m for m in (1, 2, 2.5, 5, 10) if power * m >= raw)


def elo_range(rated: Sequence[PlotVersion]) -> Tuple[float, float, float]:
    """The y axis: its bottom, top and step, round numbers around every interval."""
    values = [v for p in rated for v in (p.elo, p.elo_low, p.elo_high) if v is not None]
    low, high = min(values), max(values)
    if high - low < 40:  # one version, or all alike: a scale of some tens of Elo at least
        low, high = (low + high) / 2 - 20, (low + high) / 2 + 20
    step = nice_step(high - low)
    return math.floor(low / step) * step, math.ceil(high / step) * step, step


def number(value: float) -> str:
    """An axis' tick: 1500, 1512.5."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def whole(value: float) -> str:
    """Rounded to the unit, halves away from zero, as the tables show an Elo (Django's
    floatformat:0, the standings' writer)."""
    return str(decimal.Decimal(repr(value)).quantize(0, decimal.ROUND_HALF_UP) + 0)


def elo_plot_svg(team: str, versions: Sequence[PlotVersion], now: datetime.datetime) -> str:
    """The plot of `team`'s `versions` (any order) up to `now`; "" without a rated version."""
    ordered = sorted(versions, key=lambda v: (v.created, v.number))
    rated = [v for v in ordered if v.elo is not None]
    if not rated:
        return ""
    start = ordered[0].created
    end = max(now, ordered[-1].created)
    seconds = max((end - start).total_seconds(), 1.0)
    bottom, top, step = elo_range(rated)
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(when: datetime.datetime) -> float:
        return LEFT + inner_w * (when - start).total_seconds() / seconds

    def y(elo: float) -> float:
        return TOP + inner_h * (top - elo) / (top - bottom)

    parts: List[str] = [
        f'<svg class="elo-plot" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="elo-plot-title" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="elo-plot-title">The Elo of each version of {escape(team)} over time: '
        f'a point at its upload, with its 95 % interval</title>']
    tick = bottom
    while tick <= top + step / 2:
        at = y(tick)
        parts.append(f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{at:.1f}" '
                     f'y2="{at:.1f}"/><text class="axis" x="{LEFT - 4}" y="{at + 4:.1f}" '
                     f'text-anchor="end">{number(tick)}</text>')
        tick += step
    for when, anchor in ((start, "start"), (end, "end")):
        utc = when.astimezone(datetime.timezone.utc)
        parts.append(f'<text class="axis" x="{x(when):.1f}" y="{HEIGHT - 8}" '
                     f'text-anchor="{anchor}">{utc:%Y-%m-%d %H:%M} UTC</text>')
    # The team's Elo over time: each rated version's from its upload until the next rated
    # one's, the last's until now.
    path = []
    for index, version in enumerate(rated):
        until = rated[index + 1].created if index + 1 < len(rated) else end
        level = y(version.elo)
        path.append(f"M{x(version.created):.1f},{level:.1f}" if index == 0 else f"V{level:.1f}")
        path.append(f"H{x(until):.1f}")
    parts.append(f'<path class="step" d="{" ".join(path)}"/>')
    last_label = -LABEL_GAP
    for version in ordered:
        at = x(version.created)
        parts.append(f'<line class="version-mark {escape(version.status)}" data-version='
                     f'"{version.number}" x1="{at:.1f}" x2="{at:.1f}" y1="{TOP}" '
                     f'y2="{HEIGHT - BOTTOM}"><title>v{version.number}: '
                     f'{escape(what_it_is(version))}</title></line>')
        if at - last_label >= LABEL_GAP:
            parts.append(f'<text class="version-label" x="{at:.1f}" y="{TOP - 8}" '
                         f'text-anchor="middle">v{version.number}</text>')
            last_label = at
    for version in rated:
        at = x(version.created)
        if version.elo_low is not None and version.elo_high is not None:
            parts.append(f'<line class="interval" x1="{at:.1f}" x2="{at:.1f}" '
                         f'y1="{y(version.elo_low):.1f}" y2="{y(version.elo_high):.1f}"/>')
        parts.append(f'<circle class="version-point" data-version="{version.number}" '
                     f'data-elo="{version.elo}" cx="{at:.1f}" cy="{y(version.elo):.1f}" r="5">'
                     f'<title>v{version.number}: {escape(what_it_is(version))}</title>'
                     f'</circle>')
    parts.append("</svg>")
    return "\n".join(parts)


def what_it_is(version: PlotVersion) -> str:
    """A version's tooltip: its rating and games, or why it has none."""
    if version.elo is None:
        return version.status if version.status != "ready" else "ready, no rated game yet"
    interval = (f" ({whole(version.elo_low)} … {whole(version.elo_high)})"
                if version.elo_low is not None and version.elo_high is not None else "")
    return (f"Elo {whole(version.elo)}{interval}, {version.games} "
            f"game{'s' if version.games != 1 else ''}")
