"""The workers' API: machines holding a worker token pull games, play them and post their
records (`divercite-arena worker`, play/remote_worker.py), as aiarena's arena
clients do. JSON in and out; `Authorization: Token WORKER_TOKEN`; a team's token is refused.

    POST /api/worker/claim                {"worker": NAME}   200 a game | 204 none queued
    GET  /api/worker/versions/ID          a team version's files, as a zip | 403 | 404
    POST /api/worker/games/ID/heartbeat   {"claim", "live"}  200 {"lease_until"} | 409
    POST /api/worker/games/ID/result      {"claim", "record"} 200 {"kept"} | 409 | 400
    POST /api/worker/games/ID/failed      {"claim", "reason"} 200 {"queued_again"} | 409
    POST /api/worker/games/ID/release     {"claim"}           200 | 409

A claimed game is the worker's for a lease (the arena's lease_seconds) that each heartbeat
renews; past it the game is queued again for another worker, and the first one's posts get
409. A result posted twice (its answer lost on the way) is kept once and answered 200 both
times.

A token is a machine's, and a leaked one anybody's: it is trusted no further than its games.
A version's files are sent only while the token holds a live claim (its lease running) on a
game that version plays; else 403 with why (404: no team version of that id). A record is
checked whole before it is kept (record_checks.check_record): nothing but what the runner
writes; the game's players and clocks; every move legal by the rules; a `normal` end only
with the board full, its final scores the rules' and its result theirs; any other end a loss
for the side the runner was waiting for, with a reason. A record that fails is answered 400
with the reason ("record: ..."), written to the audit log (actor "worker NAME", action
"result refused"), and the game stays the worker's, playing: it may post again, or post
`failed`.

What a record cannot show, a fault (a loss on time, an illegal move, a crash), is still the
worker's word alone: on a check game, where it would reject a team's version, it is played
again by another worker before it counts, and so is a check a token failed to play
(game_queue.finish, game_queue.claim)."""

from __future__ import annotations

import hashlib
import io
import json
import random
import secrets
import zipfile
from typing import List

from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.utils import timezone

from ...records import GameRecord
from ..core import audit, game_queue, teams, serve_workers, worker_tokens
from ...course.bridge.agent_log import KEEP_BYTES
from ..play import record_checks
from .team_views import error, only, token_of
from ..core.models import Game, Version

MATCHMAKING = random.Random()
# An agent's log as a worker posts it: its last KEEP_BYTES decoded, a character each at most.
LOG_CHARS = KEEP_BYTES


def authorised(view):
    """The view for a valid worker token only (401 without one, 403 for a team's)."""
    def checked(request, *args, **kwargs):
        token = token_of(request)
        machine = worker_tokens.worker_of_token(token)
        if machine is None:
            if teams.team_of_token(token) is not None:
                return error(403, "a team's token cannot claim games: workers use a worker "
                                  "token (divercite-arena worker-token add)")
            return error(401, "an `Authorization: Token TOKEN` header with a valid worker "
                              "token")
        machine.last_seen = timezone.now()
        machine.save(update_fields=["last_seen"])
        return view(request, machine, *args, **kwargs)
    checked.__name__ = view.__name__
    checked.__doc__ = view.__doc__
    return checked


def body(request) -> dict:
    """The request's JSON object; ValueError (its reason) if it is none."""
    try:
        fields = json.loads(request.body or b"{}")
    except ValueError as bad:
        raise ValueError(f"the body is not JSON: {bad}") from None
    if not isinstance(fields, dict):
        raise ValueError("the body is not a JSON object")
    return fields


def about_claimed_game(view):
    """The view of a post about a claimed game, called with the game, the claim and the body's
    fields: 400 for a body without a claim, 404 for no such game."""
    def checked(request, machine, pk: int):
        try:
            fields = body(request)
        except ValueError as bad:
            return error(400, str(bad))
        claim = fields.get("claim")
        if not isinstance(claim, str) or not claim:
            return error(400, "no claim: send the claim the game was given with")
        game = Game.objects.select_related("p1__entry", "p2__entry").filter(pk=pk).first()
        if game is None:
            return error(404, f"no game {pk}")
        return view(request, machine, game, claim, fields)
    checked.__name__ = view.__name__
    checked.__doc__ = view.__doc__
    return checked


def lost(game: Game) -> JsonResponse:
    return error(409, f"game {game.pk} is no longer this worker's: its lease ran out (or it "
                      "was given back) and it was queued again")


@only("POST")
@authorised
def claim(request, machine):
    try:
        fields = body(request)
    except ValueError as bad:
        return error(400, str(bad))
    name = fields.get("worker", "")
    if not isinstance(name, str):
        return error(400, "worker: a name (the machine's and the worker's number)")
    # Unique to this claim: a game queued again and claimed by the same worker is a new claim.
    claim_id = f"{machine.name}/{name[:40]}#{secrets.token_hex(6)}"
    game = serve_workers.next_game(claim_id, MATCHMAKING, leased=True)
    if game is None:
        return HttpResponse(status=204)
    seats = serve_workers.seats_of(game)
    return JsonResponse({
        # A heartbeat every quarter of the lease: three may be lost.
        "game": game.pk, "claim": claim_id, "lease_seconds": game_queue.lease_seconds(),
        "heartbeat_seconds": game_queue.lease_seconds() / 4,
        "seats": [seat.to_json() for seat in seats],
        "max_plies": serve_workers.max_plies(game)})


@only("GET")
@authorised
def version_files(request, machine, pk: int):
    version = Version.objects.select_related("entry").filter(pk=pk, entry__kind="team").first()
    if version is None:
        return error(404, f"no team version {pk}")
    if not plays_for(machine, version):
        return error(403, f"worker token {machine.name} holds no live claim on a game of "
                          f"version {pk}: a worker gets a version's files only while it plays "
                          "one of its games (claim the game first; a claim whose lease ran out "
                          "no longer counts)")
    data = zip_of_folder(version)
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="version-{pk}.zip"'
    response["X-Content-SHA256"] = hashlib.sha256(data).hexdigest()
    return response


def plays_for(machine, version: Version) -> bool:
    """Whether the token's machine holds a live claim on a game `version` plays."""
    claims = (Game.objects.filter(Q(p1=version) | Q(p2=version), status=Game.PLAYING,
                                  lease_until__gte=timezone.now(),
                                  worker__startswith=f"{machine.name}/")
              .values_list("worker", flat=True))
    # Compared here as well: SQLite's LIKE, behind startswith, ignores case.
    return any(claim.startswith(f"{machine.name}/") for claim in claims)


def zip_of_folder(version: Version) -> bytes:
    """The version's folder as the arena unpacked it (regular files only: uploads hold no
    links), names relative to it, in a stable order."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(version.folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                archive.write(path, path.relative_to(version.folder).as_posix())
    return out.getvalue()


@only("POST")
@authorised
@about_claimed_game
def heartbeat(request, machine, game: Game, claim_id: str, fields: dict):
    live = fields.get("live", "")
    if not isinstance(live, str):
        return error(400, "live: the new lines of the runner's -live file, as one string")
    until = game_queue.renew_lease(game.pk, claim_id, live)
    if until is None:
        return lost(game)
    return JsonResponse({"lease_until": until.isoformat()})


@only("POST")
@authorised
@about_claimed_game
def result(request, machine, game: Game, claim_id: str, fields: dict):
    if game.worker != claim_id or game.status not in (Game.PLAYING, Game.DONE):
        return lost(game)
    try:
        record = GameRecord.from_json(fields.get("record"))
        record_checks.check_record(record, [game.p1.entry.name, game.p2.entry.name],
                                   [seat.clock_text() for seat in serve_workers.seats_of(game)],
                                   serve_workers.max_plies(game))
        logs = agent_logs(fields.get("logs"))
    except (ValueError, TypeError, KeyError) as bad:  # RecordRefused is a ValueError
        reason = f"record: {bad}"
        audit.record(actor=f"worker {machine.name}", action="result refused",
                     target=f"game {game.pk}", detail=reason)
        return error(400, reason)
    game.worker = claim_id  # finish() keeps it only if the game is still this claim's
    if game_queue.finish(game, record, logs):
        return JsonResponse({"kept": True})
    if Game.objects.filter(pk=game.pk, status=Game.DONE, worker=claim_id).exists():
        return JsonResponse({"kept": True, "already": True})  # a post sent again
    return lost(game)


def agent_logs(logs) -> List[str]:
    """A result's `logs`: what each side's agent wrote, two texts of at most LOG_CHARS (the
    worker keeps the last 64 KB of each); none (a worker before them): two empty ones."""
    if logs is None:
        return ["", ""]
    if (not isinstance(logs, list) or len(logs) != 2
            or not all(isinstance(log, str) and len(log) <= LOG_CHARS for log in logs)):
        raise ValueError(f"logs: two texts of at most {LOG_CHARS} characters, the agents' "
                         "logs")
    return logs


@only("POST")
@authorised
@about_claimed_game
def failed(request, machine, game: Game, claim_id: str, fields: dict):
    reason = fields.get("reason")
    if not isinstance(reason, str) or not reason:
        return error(400, "reason: why the game could not be played")
    if game.status != Game.PLAYING or game.worker != claim_id:
        return lost(game)
    game_queue.fail(game, f"{machine.name}: {reason}"[-4000:])
    return JsonResponse({"queued_again": Game.objects.filter(
        pk=game.pk, status=Game.QUEUED).exists()})


@only("POST")
@authorised
@about_claimed_game
def release(request, machine, game: Game, claim_id: str, fields: dict):
    if game_queue.release(game.pk, claim_id):
        return JsonResponse({"queued_again": True})
    return lost(game)
