"""The database as the game queue: games claimed one at a time, finished in one transaction,
played again when a stop cut them.

A claim is a conditional update (status queued -> playing where it is still queued), which
two workers cannot both win; on PostgreSQL the game is first picked with a row lock that
skips the rows other workers hold (FOR UPDATE SKIP LOCKED), so that workers racing for the
queue take different games instead of retrying. A game is done, with its record and its
version's verdict, in one transaction, so that a finished game is in the database before its
pair is offered again, and a game cut by a stop (still `playing` when the arena starts again)
is queued again, never counted twice.

A worker on another machine (worker_api) holds its game for a lease (the arena's
lease_seconds), renewed
by its heartbeats; a game whose lease ran out is queued again at the next claim, and its
first worker's late record refused, so that it is counted once.

Such a worker's word is all there is of a game it lost for a player by a fault (time, an
illegal move, a crash: nothing in the record shows it), and a leaked worker token could so
reject any team's new version. A remote worker's fault verdict on a check game is therefore
not settled: the check is played again, by another worker (serve's own, or another token's),
whose verdict settles it. Only where no other worker has been seen for a lease does the
reporting token play it again itself: there it plays every game anyway."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Optional, Sequence

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Case, F, IntegerField, Q, Value, When
from django.db.models.functions import Concat
from django.utils import timezone

from ...records import GameRecord
from ..play import fairness, reasons
from . import storage
from .models import Entry, Game, Version, WorkerToken
from .standings import divercites

ATTEMPTS = 3  # a game the runner fails to play this many times is failed, not queued again
AGAIN = dict(status=Game.QUEUED, worker="", started=None, lease_until=None, live="")


def requeue_cut_games(worker_prefix: str = "") -> int:
    """Queues again the games still marked playing by serve's own workers whose name starts
    with `worker_prefix` (all of them by default: the arena is starting and none of its own
    plays). Remote workers' games keep their leases: those workers play on."""
    return (Game.objects.filter(status=Game.PLAYING, worker__startswith=worker_prefix,
                                lease_until__isnull=True).update(**AGAIN))


def requeue_expired() -> int:
    """Queues again the games whose remote worker let its lease run out."""
    return (Game.objects.filter(status=Game.PLAYING, lease_until__lt=timezone.now())
            .update(**AGAIN))


def renew_lease(game_pk: int, worker: str, live: str = ""):
    """The new end of `worker`'s lease on the game, `live` (new lines of the runner's -live
    file) appended to the game's; None if the game is no longer that worker's."""
    until = timezone.now() + timedelta(seconds=lease_seconds())
    fields = {"lease_until": until}
    if live:
        fields["live"] = Concat(F("live"), Value(live))
    updated = Game.objects.filter(pk=game_pk, status=Game.PLAYING, worker=worker).update(**fields)
    return until if updated else None


def append_live(game_pk: int, worker: str, lines: str) -> bool:
    """The runner's new -live lines added to the game's, while it is `worker`'s to play."""
    return bool(Game.objects.filter(pk=game_pk, status=Game.PLAYING, worker=worker)
                .update(live=Concat(F("live"), Value(lines))))


def release(game_pk: int, worker: str) -> bool:
    """The game given back by its worker (stopping): queued again at once."""
    return bool(Game.objects.filter(pk=game_pk, status=Game.PLAYING, worker=worker)
                .update(**AGAIN))


def lease_seconds() -> float:
    return settings.ARENA.lease_seconds


def lease_end(leased: bool):
    return timezone.now() + timedelta(seconds=lease_seconds()) if leased else None


def checks_allowed() -> bool:
    """Whether a worker claiming now may take a check game: the checks being played hold less
    than the arena's check_share of the workers known busy (those playing, and this one)."""
    playing = Game.objects.filter(status=Game.PLAYING)
    checks = playing.filter(purpose=Game.CHECK).count()
    return checks < max(1.0, settings.ARENA.check_share * (playing.count() + 1))


def claim(worker: str, leased: bool = False, checks: bool = True) -> Optional[Game]:
    """The next queued game, now playing for `worker` (under a lease if `leased`: a remote
    worker); None when none is queued. By purpose, then oldest first: the checks of new
    versions (unless `checks` is False), then a final tournament's games, then the
    challenges, then the rest (matchmaking's games queued again after a stop: matchmaking
    makes its games only when none is queued, so it waits for all of these). A tournament's
    games go before the challenges: the staff's deadline is the class's, and a challenge is
    a team's practice, which may wait.

    The checks take turns between teams: a team has one check at most, queued or being played
    (teams.supersede_checks), so the oldest first is each team in turn."""
    priority = claim_priority()
    while True:
        with transaction.atomic():
            queued = Game.objects.filter(status=Game.QUEUED)
            if not checks:
                queued = queued.exclude(purpose=Game.CHECK)
            if leased:
                queued = queued.exclude(_barred_checks(worker.split("/", 1)[0]))
            queued = queued.annotate(priority=priority).order_by("priority", "id")
            if connection.features.has_select_for_update_skip_locked:
                queued = queued.select_for_update(skip_locked=True)
            game = queued.first()
            if game is None:
                return None
            taken = Game.objects.filter(pk=game.pk, status=Game.QUEUED).update(
                status=Game.PLAYING, worker=worker, started=timezone.now(),
                lease_until=lease_end(leased), attempts=F("attempts") + 1)
        if taken:
            return Game.objects.select_related("p1__entry", "p2__entry").get(pk=game.pk)


def claim_priority() -> Case:
    """A queued game's rank in the claims' order (then the oldest first): checks, a final
    tournament's games, challenges, the rest."""
    return Case(When(purpose=Game.CHECK, then=Value(0)),
                When(purpose=Game.TOURNAMENT, then=Value(1)),
                When(purpose=Game.CHALLENGE, then=Value(2)),
                default=Value(3), output_field=IntegerField())


def claim_order():
    """The queued games in the order workers claim them."""
    return (Game.objects.filter(status=Game.QUEUED).annotate(priority=claim_priority())
            .order_by("priority", "id"))


def _barred_checks(token: str) -> Q:
    """The check games the remote worker token `token` may not claim: those whose verdict so
    far is its word alone (the second opinion on its fault verdict, a check it failed to
    play: the reason its `failed` gave), unless no other worker is at work (none playing, no
    other token seen for a lease) and the game has waited a lease for one (serve's idle
    workers take a check within a second, another token's idle workers within their poll)."""
    # A subquery, not a join: PostgreSQL locks no row on the nullable side of an outer join.
    reported = Game.objects.filter(worker__startswith=f"{token}/").values("pk")
    own = (Q(second_opinion_of__in=reported)
           | Q(purpose=Game.CHECK, reason__startswith=f"{token}: "))
    since = timezone.now() - timedelta(seconds=lease_seconds())
    others = (Game.objects.filter(status=Game.PLAYING).exclude(worker__startswith=f"{token}/")
              .exists()
              or WorkerToken.objects.filter(revoked__isnull=True, last_seen__gte=since)
              .exclude(name=token).exists())
    return own if others else own & Q(queued__gt=since)


def still_claimed(game_pk: int, worker: str) -> bool:
    """Whether the game is still being played by `worker` (a newer upload stops a check being
    played by failing it; a lapsed lease queues a game again)."""
    return Game.objects.filter(pk=game_pk, status=Game.PLAYING, worker=worker).exists()


def start_matchmade_game(p1: Version, p2: Version, worker: str, leased: bool = False) -> Game:
    """A matchmade game created already claimed by `worker` (matchmaking chose its pair)."""
    return Game.objects.create(p1=p1, p2=p2, purpose=Game.MATCHMADE, status=Game.PLAYING,
                               worker=worker, started=timezone.now(),
                               lease_until=lease_end(leased), attempts=1)


def replays_before(game: Game) -> int:
    """How many games overloaded workers lost before this one, of the meeting it plays."""
    count, replayed = 0, game.replay_of_id
    while replayed is not None and count <= settings.ARENA.overloaded_replays:
        count += 1
        replayed = (Game.objects.filter(pk=replayed).values_list("replay_of_id", flat=True)
                    .first())
    return count


def finish(game: Game, record: GameRecord, logs: Sequence[str] = ("", "")) -> bool:
    """Keeps the game's record, result and its agents' `logs` (play/runner.Played's); a
    game lost to a busy worker (play/fairness.py) is set aside and played again (at most the
    arena's overloaded_replays times; then the staff sees it set aside), else a check game settles
    its version, or, lost by a fault on a remote worker's word alone, is queued again as a
    second opinion (the module's note). False (and nothing written) when the game is no
    longer this worker's: a stop queued it again."""
    final = record.final or [None, None]
    first, second = divercites(record)
    loser = {"1-0": game.p2, "0-1": game.p1}.get(record.result)
    overloaded = fairness.starved(record, settings.ARENA.min_core_share) or ""
    analysed = (game.purpose != Game.CHECK and loser is not None and not overloaded
                and loser.entry.kind == Entry.TEAM)
    with transaction.atomic():
        updated = Game.objects.filter(pk=game.pk, status=Game.PLAYING,
                                      worker=game.worker).update(
            status=Game.DONE, ended=timezone.now(), result=record.result,
            score1=final[0], score2=final[1], divercites1=first, divercites2=second,
            termination=record.termination or "", reason=record.reason or "",
            record=record.to_json(), analysis="pending" if analysed else "", live="",
            lease_until=None, set_aside=overloaded, log1=logs[0], log2=logs[1])
        if not updated:
            return False
        if overloaded:
            if replays_before(game) < settings.ARENA.overloaded_replays:
                Game.objects.create(p1_id=game.p1_id, p2_id=game.p2_id, purpose=game.purpose,
                                    challenge_id=game.challenge_id,
                                    tournament_id=game.tournament_id,
                                    second_opinion_of_id=game.second_opinion_of_id,
                                    replay_of_id=game.pk)
            return True
        if game.purpose != Game.CHECK:
            return True
        if (game.lease_until is not None and game.second_opinion_of_id is None
                and at_fault(record)):
            Game.objects.create(p1_id=game.p1_id, p2_id=game.p2_id, purpose=Game.CHECK,
                                second_opinion_of_id=game.pk)
        else:
            _settle(game.p1, record)
    return True


def fail(game: Game, why: str) -> None:
    """The runner could not play the game: queued again, or failed after ATTEMPTS (a check
    game's version is then rejected with the reason)."""
    with transaction.atomic():
        current = Game.objects.select_for_update().get(pk=game.pk)
        if current.status != Game.PLAYING or current.worker != game.worker:
            return
        if current.attempts < ATTEMPTS:
            Game.objects.filter(pk=game.pk).update(reason=why, queued=timezone.now(), **AGAIN)
            return
        Game.objects.filter(pk=game.pk).update(status=Game.FAILED, ended=timezone.now(),
                                               reason=why, live="", lease_until=None)
        if game.purpose == Game.CHECK:
            Version.objects.filter(pk=game.p1_id).update(
                status=Version.REJECTED,
                reason=f"the arena could not play its check game: {why}")
            transaction.on_commit(lambda: storage.remove_files(game.p1))


def at_fault(record: GameRecord) -> bool:
    """Whether a check game's version (the first player) lost it by a fault of its own."""
    return record.result == "0-1" and record.termination not in ("normal", "adjudication")


def _settle(version: Version, record: GameRecord) -> None:
    """A check game (the version first, against the course's random player): a version that
    lost it by a fault of its own (time, illegal move, crash, stall, a limit) is rejected
    with the runner's reason; any other ending makes it ready."""
    if at_fault(record):
        Version.objects.filter(pk=version.pk).update(
            status=Version.REJECTED, reason=reasons.in_words(record))
        # Its reason is kept: its files serve nothing more (its record stays).
        transaction.on_commit(lambda: storage.remove_files(version))
    else:
        Version.objects.filter(pk=version.pk).update(status=Version.READY, reason="")


def record_of(game: Game) -> dict:
    return json.loads(game.record) if game.record else {}
