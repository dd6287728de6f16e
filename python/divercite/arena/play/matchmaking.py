"""Which pair plays next: a new version until it is placed, then opponents near in rating and
those met least, each pair's colours balanced; no pair starves, since the meetings of the
pairs chosen grow while the rating term is bounded."""

from __future__ import annotations

import random
from collections import Counter
from typing import Dict, Optional, Sequence, Tuple

ELO_SCALE = 200.0  # rating points that weigh as much as one more meeting of a pair
ELO_TERM_CAP = 6.0  # meetings: the farthest pair waits at most this many rounds of the others
PLACEMENT_BONUS = 4.0  # meetings an unplaced version's pairs are preferred by
BUSY_PENALTY = 2.0  # for each game a version of the pair is playing now


def choose(versions: Sequence[int], elo: Dict[int, Optional[float]],
           games: Sequence[Tuple[int, int]], playing: Sequence[Tuple[int, int]],
           placement: int, rng: random.Random) -> Optional[Tuple[int, int]]:
    """(first, second) of the pair to play next among `versions`, given the ratings `elo`
    (None: unrated), the (p1, p2) of their finished `games` and of those `playing` now;
    None with fewer than two versions."""
    if len(versions) < 2:
        return None
    played = Counter()
    first = Counter()
    meetings = Counter()
    busy = Counter()
    for p1, p2 in list(games) + list(playing):
        played[p1] += 1
        played[p2] += 1
        first[(p1, p2)] += 1
        meetings[frozenset((p1, p2))] += 1
    for p1, p2 in playing:
        busy[p1] += 1
        busy[p2] += 1
    rated = [value for value in elo.values() if value is not None]
    middle = sorted(rated)[len(rated) // 2] if rated else 0.0

    def rating(version):
        value = elo.get(version)
        return middle if value is None else value

    best, best_cost = None, None
    for i, a in enumerate(versions):
        for b in versions[i + 1:]:
            cost = meetings[frozenset((a, b))]
            cost += min(abs(rating(a) - rating(b)) / ELO_SCALE, ELO_TERM_CAP)
            # Once a pair: two new versions do not play each other first for a double bonus.
            cost -= PLACEMENT_BONUS * (played[a] < placement or played[b] < placement)
            cost += BUSY_PENALTY * (busy[a] + busy[b])
            cost += rng.random() * 0.5
            if best_cost is None or cost < best_cost:
                best, best_cost = (a, b), cost
    a, b = best
    if first[(a, b)] > first[(b, a)] or (first[(a, b)] == first[(b, a)] and rng.random() < 0.5):
        a, b = b, a
    return a, b
