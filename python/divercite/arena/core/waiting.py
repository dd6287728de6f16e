"""What a team waits for, and about how long: each of its games queued or being played (a
check, a challenge, a tournament's game, matchmaking's), its place among the queued games in
the order workers claim them (game_queue.claim_order), and an estimate of when it starts; and
for a version just made ready, its first rated game (matchmaking gives a new version's pairs
first, so it starts once a worker is free of the games queued ahead).

The estimate is a rough one, said as such: the games ahead shared among the workers at work
(serve's own alive, and the remote workers' games being played), each taking as long as the
last finished games of its kind took (a check is cut after its first moves: about a minute),
plus half a game for the next worker to be free. It needs no history it does not have: with
no finished game of a kind, that kind is not estimated."""

from __future__ import annotations

from typing import List, Optional

from django.db.models import Q
from django.utils import timezone

from . import game_queue, staff_status
from .models import Entry, Game

# How many of a kind's last finished games set its duration.
RECENT_GAMES = 20


def typical_seconds(purpose: str) -> Optional[float]:
    """The median time the last finished games of `purpose` took (matchmaking's for a
    tournament's and a challenge's without any: the same clock); None without any."""
    kinds = [purpose] if purpose == Game.CHECK else [purpose, Game.MATCHMADE]
    for kind in kinds:
        spans = sorted((ended - started).total_seconds() for started, ended in
                       Game.objects.filter(status=Game.DONE, purpose=kind,
                                           started__isnull=False, ended__isnull=False)
                       .order_by("-ended").values_list("started", "ended")[:RECENT_GAMES])
        if spans:
            return spans[len(spans) // 2]
    return None


def workers_at_work(now=None) -> int:
    """serve's own workers alive and the games remote workers are playing: at least one."""
    seen = staff_status.workers(now or timezone.now())
    return max(1, sum(1 for worker in seen["serve"] if worker["alive"])
               + sum(token["playing"] for token in seen["remote"] if token["alive"]))


def waiting(team: Entry) -> List[dict]:
    """The team's games queued or being played, oldest first, each with its place among the
    queued games (1: the next claimed) and its estimated start in seconds (None: not known),
    then its current version's first rated game if it has none yet."""
    versions = list(team.versions.values_list("pk", flat=True))
    mine = Q(p1_id__in=versions) | Q(p2_id__in=versions)
    order = list(game_queue.claim_order().values_list("pk", "purpose"))
    places = {pk: place for place, (pk, _) in enumerate(order, start=1)}
    workers = workers_at_work()
    typical = {purpose: typical_seconds(purpose) for purpose in
               (Game.CHECK, Game.MATCHMADE, Game.CHALLENGE, Game.TOURNAMENT)}

    def start_in(ahead: List[str]) -> Optional[float]:
        """Seconds until a game starts behind the queued games of purposes `ahead`."""
        if any(typical[purpose] is None for purpose in ahead):
            return None
        if not ahead and not Game.objects.filter(status=Game.PLAYING).count() >= workers:
            return 0.0  # a worker is free now
        busy = typical[Game.MATCHMADE] or typical[Game.CHECK] or 0.0
        return sum(typical[purpose] for purpose in ahead) / workers + busy / 2

    lines = []
    games = (Game.objects.filter(mine, status__in=(Game.QUEUED, Game.PLAYING))
             .select_related("p1__entry", "p2__entry").order_by("id"))
    for game in games:
        line = {"game": game.pk, "purpose": game.purpose, "status": game.status,
                "p1": game.p1.entry.name, "p2": game.p2.entry.name,
                "place": places.get(game.pk), "starts_in_seconds": None}
        if game.status == Game.QUEUED:
            ahead = [purpose for pk, purpose in order[:places[game.pk] - 1]]
            line["starts_in_seconds"] = start_in(ahead)
        lines.append(line)
    current = team.current_version()
    if current is not None and not Game.objects.filter(
            Q(p1=current) | Q(p2=current), purpose__in=(Game.MATCHMADE, Game.CHALLENGE),
            status__in=(Game.DONE, Game.PLAYING, Game.QUEUED)).exists():
        lines.append({"game": None, "purpose": "first rated game", "status": "waiting",
                      "p1": team.name, "p2": None, "place": len(order) + 1,
                      "starts_in_seconds": start_in([purpose for _, purpose in order])})
    return lines
