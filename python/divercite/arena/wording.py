"""How the arena writes a count and a measure, one way on every page and in every message: a
count with its noun in the singular for one (`1 game`, `2 games`, `0 games`), seconds as
configured (`900 s`, `0.1 s`, `0.05 s`: Python's %g, never rounded to a tenth), a time spent
as people say it (`0.3 s`, `41 s`, `6 min 13 s`), and points
(a loss, from centipoints) to two decimals, as divercite-analyze's review page writes them.
The pages' templates have the same as filters (`{% load wording %}`, pages/templatetags)."""

from __future__ import annotations

from typing import Optional


def counted(count: int, noun: str, plural: Optional[str] = None) -> str:
    """`count` and its noun: `noun` for one, else `plural` (default: the noun and an s)."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def seconds(value: float) -> str:
    """A clock or a time in seconds, as given: `900 s`, `0.1 s`."""
    return f"{value:g} s"


def duration(ms: float) -> str:
    """A time spent, as people say it, rounded once: a tenth under 10 s (`0.3 s`), whole
    seconds under a minute (`41 s`), then minutes and seconds (`6 min 13 s`, `2 min`)."""
    tenths = round(ms / 100)
    if tenths < 100:
        return f"{tenths / 10:.1f} s"
    whole = round(ms / 1000)
    if whole < 60:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60} s" if whole % 60 else f"{whole // 60} min"


def points(centipoints: float) -> str:
    """Points from centipoints, to two decimals (`1.50`), without the noun: a loss of
    1.50 points reads in the plural whatever its value."""
    return f"{centipoints / 100:.2f}"
