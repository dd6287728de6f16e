"""Grades from a final tournament's standings: the staff's grading scheme, a line of text kept
with the tournament (Tournament.grading), gives each team a grade from its rank or its points,
written in the tournament's CSV.

    rank 1-3:100, 4-6:90, 7-:80          by rank: ranges of ranks from 1, without gap or
                                         overlap, the last one open (N-), so that every rank
                                         has a grade; teams sharing a rank share its grade
    points 10:100, 7.5:90, 5:80, 0:70    by points: the grade of the highest threshold the
                                         team's points reach; the lowest threshold is 0, so
                                         that every team has a grade

A grade is a number (100, 92.5) or a short word (A+, B-, pass): 1 to 10 letters, digits, '.',
'+' or '-'. parse() says in words what is wrong with a scheme (GradingError); the empty scheme
grades no one (the CSV's grade column is left empty). No Django here: the model's validator
(models.validate_grading) and the command line call parse()."""

from __future__ import annotations

import dataclasses
import re
from typing import List, Optional, Tuple

GRADE = re.compile(r"[A-Za-z0-9.+-]{1,10}")
RANKS = re.compile(r"(\d+)(?:(-)(\d+)?)?")
POINTS = re.compile(r"\d+(?:\.\d+)?")
EXAMPLE = "as `rank 1-3:100, 4-:90` or `points 5:100, 2.5:80, 0:60`"


class GradingError(ValueError):
    """A grading scheme that cannot be: the message says why, and how to write it."""


@dataclasses.dataclass(frozen=True)
class Scheme:
    """A parsed scheme: `kind` "rank" with `steps` (first rank, last rank or None for the
    open end, grade), or "points" with `steps` (threshold, None, grade), highest first; the
    empty scheme: kind "" and no steps."""

    kind: str
    steps: Tuple[Tuple[float, Optional[int], str], ...]

    def grade(self, rank: int, points: float) -> str:
        """The grade of a team at `rank` with `points`; "" under the empty scheme."""
        for low, high, grade in self.steps:
            if self.kind == "rank" and low <= rank and (high is None or rank <= high):
                return grade
            if self.kind == "points" and points >= low:
                return grade
        return ""


NONE = Scheme("", ())


def _items(text: str, kind: str) -> List[Tuple[str, str]]:
    """The scheme's KEY:GRADE items after its kind."""
    items = []
    for item in text.split(","):
        key, colon, grade = (part.strip() for part in item.partition(":"))
        if not colon or not key:
            wanted = "RANKS:GRADE, as 4-6:90" if kind == "rank" else "POINTS:GRADE, as 7.5:90"
            raise GradingError(f"grading: {item.strip()!r}: each item is {wanted}, the items "
                               "separated by commas")
        if not GRADE.fullmatch(grade):
            raise GradingError(f"grading: {item.strip()!r}: a grade is a number (92.5) or a "
                               "short word (A+, pass): 1 to 10 letters, digits, '.', '+' or "
                               "'-'")
        items.append((key, grade))
    return items


def _ranks(items: List[Tuple[str, str]]) -> Scheme:
    steps = []
    for key, grade in items:
        matched = RANKS.fullmatch(key)
        if matched is None or int(matched.group(1)) < 1:
            raise GradingError(f"grading: {key!r}: ranks are N, N-M or N- (N and after), "
                               "from 1")
        low = int(matched.group(1))
        high = None if matched.group(2) and matched.group(3) is None else \
            int(matched.group(3) or low)
        if high is not None and high < low:
            raise GradingError(f"grading: {key!r}: the range ends before it begins")
        steps.append((low, high, grade))
    steps.sort(key=lambda step: step[0])
    expected, previous = 1, None
    for low, high, grade in steps:
        shown = f"{low}:{grade}" if high == low else \
            f"{low}-{'' if high is None else high}:{grade}"
        if expected is None:
            raise GradingError(f"grading: {previous}: an open range (N-) is the last one, and "
                               f"{shown} comes after it")
        if low < expected:
            raise GradingError(f"grading: rank {low} is in two ranges ({previous} and "
                               f"{shown})")
        if low > expected:
            gap = f"rank {expected}" if low == expected + 1 else \
                f"ranks {expected} to {low - 1}"
            raise GradingError(f"grading: {gap} ha{'s' if low == expected + 1 else 've'} no "
                               "grade" + (f" (between {previous} and {shown})" if previous
                                          else ": the ranges begin at 1"))
        expected, previous = None if high is None else high + 1, shown
    if expected is not None:
        raise GradingError(f"grading: rank {expected} and after have no grade: end with an "
                           f"open range, as {expected}-:GRADE")
    return Scheme("rank", tuple(steps))


def _points(items: List[Tuple[str, str]]) -> Scheme:
    steps = []
    for key, grade in items:
        if not POINTS.fullmatch(key):
            raise GradingError(f"grading: {key!r}: a threshold is a number of points, 0 or "
                               "more (7.5: at least 7.5 points)")
        steps.append((float(key), None, grade))
    steps.sort(key=lambda step: -step[0])
    for (high, _, _), (low, _, _) in zip(steps, steps[1:]):
        if high == low:
            raise GradingError(f"grading: the threshold {low:g} is given twice")
    if steps[-1][0] != 0:
        raise GradingError(f"grading: a team below {steps[-1][0]:g} points has no grade: add "
                           "a threshold 0, as 0:GRADE")
    return Scheme("points", tuple(steps))


def parse(text: str) -> Scheme:
    """The scheme `text` writes (the module's docstring); GradingError if it writes none."""
    text = (text or "").strip()
    if not text:
        return NONE
    kind, rest = (text.split(None, 1) + [""])[:2]
    if kind not in ("rank", "points") or not rest.strip():
        raise GradingError(f"grading: {text[:40]!r}: start with `rank` or `points` and give "
                           f"its grades, {EXAMPLE}")
    items = _items(rest, kind)
    return _ranks(items) if kind == "rank" else _points(items)
