"""The arena's state for its staff, in one function (compute) that both the staff's page
(/staff/) and GET /api/status show: the queue by purpose, the workers and whether they are
alive, the games played an hour, how the last day's games ended and which failed, and what
each team keeps on disk. A few aggregate queries, whatever the number of games."""

from __future__ import annotations

from datetime import timedelta
from django.conf import settings
from django.db.models import Count, Min, Q
from django.utils import timezone

from . import storage
from .models import Game, ServeWorker, WorkerToken

# The queue's purposes in the order game_queue.claim takes them.
PURPOSES = (Game.CHECK, Game.TOURNAMENT, Game.CHALLENGE, Game.MATCHMADE)
# A serve worker is alive if it plays a game or was seen this recently (it says so every
# serve_workers.SEEN_SECONDS between games); a remote token, if seen within a lease (its
# workers ask for a game every 2 s when idle, send a heartbeat every quarter lease when not).
SERVE_SEEN_SECONDS = 90
FAILED_LISTED = 20
REASON_CHARACTERS = 500


def queue(now) -> list:
    """Each purpose's queued and playing games, and how long its oldest queued one waits."""
    counts = {row["purpose"]: row for row in Game.objects.filter(
        status__in=(Game.QUEUED, Game.PLAYING)).order_by().values("purpose").annotate(
        waiting=Count("id", filter=Q(status=Game.QUEUED)),
        being_played=Count("id", filter=Q(status=Game.PLAYING)),
        oldest=Min("queued", filter=Q(status=Game.QUEUED)))}
    shown = []
    for purpose in PURPOSES:
        row = counts.get(purpose, {})
        oldest = row.get("oldest")
        shown.append({"purpose": purpose, "queued": row.get("waiting", 0),
                      "playing": row.get("being_played", 0), "oldest_queued": oldest,
                      "waiting_seconds": round((now - oldest).total_seconds())
                      if oldest else None})
    return shown


def workers(now) -> dict:
    """serve's own game workers and the remote workers' tokens: last seen, games playing,
    alive."""
    playing = {game["worker"]: game for game in Game.objects.filter(status=Game.PLAYING)
               .values("worker", "id", "started")}
    own = []
    for worker in ServeWorker.objects.all():
        game = playing.get(worker.name)
        own.append({"name": worker.name, "started": worker.started,
                    "last_seen": worker.last_seen,
                    "game": game["id"] if game else None,
                    "game_started": game["started"] if game else None,
                    "alive": game is not None
                    or now - worker.last_seen <= timedelta(seconds=SERVE_SEEN_SECONDS)})
    lease = timedelta(seconds=settings.ARENA.lease_seconds)
    remote = []
    for token in WorkerToken.objects.all():
        games = sum(1 for name in playing if name.startswith(f"{token.name}/"))
        remote.append({"name": token.name, "last_seen": token.last_seen,
                       "revoked": token.revoked, "playing": games,
                       "alive": token.revoked is None and token.last_seen is not None
                       and now - token.last_seen <= lease})
    return {"serve": own, "remote": remote}


def games(now) -> dict:
    """Games finished (done) in the last hour and the last 24 hours; how the last day's
    ended (termination counts); the last day's failed games (the runner could not play
    them), the newest with their reasons."""
    hour, day = now - timedelta(hours=1), now - timedelta(days=1)
    done = Game.objects.filter(status=Game.DONE)
    counted = done.filter(ended__gt=day).aggregate(
        last_hour=Count("id", filter=Q(ended__gt=hour)), last_day=Count("id"))
    ended = {row["termination"] or "(none)": row["count"] for row in
             done.filter(ended__gt=day).values("termination").annotate(count=Count("id"))
             .order_by("-count", "termination")}
    failed = (Game.objects.filter(status=Game.FAILED, ended__gt=day)
              .select_related("p1__entry", "p2__entry").order_by("-ended", "-id"))
    return {"done_last_hour": counted["last_hour"], "done_last_day": counted["last_day"],
            "terminations_last_day": ended,
            "failed_last_day": failed.count(),
            "failed": [{"id": game.pk, "purpose": game.purpose, "p1": game.p1.entry.name,
                        "p2": game.p2.entry.name, "ended": game.ended,
                        "attempts": game.attempts,
                        "reason": game.reason[-REASON_CHARACTERS:]}
                       for game in failed.defer("record", "live", "analysis_json")
                       [:FAILED_LISTED]]}


def disk() -> dict:
    """What each team's versions hold (bytes) against the quota, the largest first."""
    quota = settings.ARENA.team_storage_mb << 20
    teams = [{"team": team.name, "bytes": team.used, "versions_kept": team.kept,
              "share_of_quota": round(team.used / quota, 3) if quota else None}
             for team in storage.usage().order_by("-used", "name")]
    return {"quota_bytes": quota, "total_bytes": sum(team["bytes"] for team in teams),
            "teams": teams}


def compute(now=None) -> dict:
    """The whole state (the module's docstring): numbers, strings, lists, dictionaries and
    datetimes (which Django's JSON encoder writes in ISO 8601)."""
    now = now or timezone.now()
    return {"now": now, "queue": queue(now), "workers": workers(now),
            "games": games(now), "storage": disk()}
