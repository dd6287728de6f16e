"""The HTTP API: JSON in and out; `Authorization: Token TOKEN` where a team acts.

    POST /api/agents             multipart field `file`     201 {"version", "status"} | 400
                                 | 429 over the team's uploads an hour, with Retry-After
    GET  /api/agents/ID          the team's own version     {"version", "team", "status", "reason"}
    GET  /api/standings                                     {"standings": [...]}
    GET  /api/games[?team=NAME]  newest first, 100 a page   {"games": [...], "next": PATH|null}
                                 `next`: the next page's path (?before=ID, the filter
                                 kept), null on the last | 429 without a token or a login,
                                 past the address's requests a minute, with Retry-After
    GET  /api/games/ID/record    the runner's JSON line
    GET  /api/games/ID/live      a game being played       {"status", "plies", "clocks", ...}
    POST /api/challenges         {"opponent", "games"}      201 {"challenge", "games", "quota_left"}
    GET  /api/tournaments        the final tournaments      {"tournaments": [...]}
    GET  /api/tournaments/ID     its progress, standings    {"id", "name", ..., "standings"}
    GET  /api/tournaments/ID/csv the staff's only (403)     text/csv, for grading

The staff's (api/staff_views.py: GET /api/status) are read with a staff token (staff_tokens.py)
or a staff user's login; a staff token also reads here what a logged-in staff user reads
(every game's whole reason, any version's status).

Errors are JSON too: {"error": REASON} with 400 (a request refused), 401 (no valid token),
404, 405, 429 (too many uploads: `Retry-After` says in how many seconds the next is taken);
and before any view (request_limits.py) 411 for a body without Content-Length, 413 for a
body too large for its sender, 429 for an address past its requests a minute without a valid
token or a login."""

from __future__ import annotations

import hashlib
import json
from urllib.parse import urlencode

from django.conf import settings
from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.views.decorators.csrf import csrf_exempt

from ...records import GameRecord
from ..play import fairness, live, reasons
from ..core import staff_tokens, standings, teams, tournament, waiting
from ..core.models import Entry, Game, Tournament, Version
from ..agent_files.uploads import UploadError


def error(status: int, reason: str) -> JsonResponse:
    return JsonResponse({"error": reason}, status=status)


def token_of(request) -> str:
    header = request.headers.get("Authorization", "")
    kind, _, token = header.partition(" ")
    return token.strip() if kind == "Token" else ""


def staff_user(request):
    """The staff user asking: by a staff token (staff_tokens.py), else logged in on the pages
    as staff; None for anyone else."""
    token = token_of(request)
    if token:
        return staff_tokens.staff_of_token(token)
    if request.user.is_authenticated and request.user.is_staff:
        return request.user
    return None


def requester(request):
    """The team acting: by its token, else by its session on the pages (GET only: a session
    POST goes through the pages' forms, which CSRF protects)."""
    token = token_of(request)
    if token:
        return teams.team_of_token(token)
    if request.method == "GET" and request.user.is_authenticated:
        return Entry.objects.filter(user=request.user).first()
    return None


def only(*methods):
    def decorate(view):
        def checked(request, *args, **kwargs):
            if request.method not in methods:
                return error(405, f"{request.method} is not allowed here; "
                                  f"{' or '.join(methods)} is")
            return view(request, *args, **kwargs)
        checked.__name__ = view.__name__
        checked.__doc__ = view.__doc__
        return csrf_exempt(checked)  # a token, not a cookie, authenticates these
    return decorate


@only("GET", "POST")
def agents(request):
    """GET: the team's versions (newest first) and what it waits for (core/waiting.py);
    POST: a new version (the multipart field `file`)."""
    team = requester(request)
    if team is None:
        return error(401, "an `Authorization: Token TOKEN` header with your team's token")
    if request.method == "GET":
        return JsonResponse({"versions": [version_json(version) for version in
                                          team.versions.select_related("entry")
                                          .order_by("-number")],
                             "waiting": waiting.waiting(team)})
    sent = request.FILES.get("file")
    if sent is None:
        return error(400, "no file: send the agent as the multipart field `file`")
    try:
        version = teams.upload(team, sent.name, sent,
                               per_hour=settings.ARENA.upload_limit_per_hour)
    except teams.UploadLimited as limited:
        answer = error(429, str(limited))
        answer["Retry-After"] = str(limited.retry_after)
        return answer
    except UploadError as refused:
        return error(400, str(refused))
    return JsonResponse({"version": version.pk, "status": version.status}, status=201)


def version_json(version: Version) -> dict:
    return {"version": version.pk, "team": version.entry.name, "number": version.number,
            "status": version.status, "reason": version.reason,
            "uploaded": version.created.isoformat(), "file": version.upload_name}


@only("GET")
def agent(request, pk: int):
    team = requester(request)
    staff = staff_user(request) is not None
    if team is None and not staff:
        return error(401, "an `Authorization: Token TOKEN` header with your team's token")
    version = Version.objects.select_related("entry").filter(pk=pk).first()
    if version is None or (not staff and version.entry_id != team.pk):
        return error(404, f"your team has no version {pk}")
    return JsonResponse(version_json(version))


@only("GET")
def standings_view(request):
    return JsonResponse({"standings": [line.to_api() for line in standings.table()]})


# Where the runner's reason quotes what an agent wrote (its stderr's last lines: a traceback
# holds lines of its code), which only the game's two teams and the staff read.
AGENT_TEXT = (" (engine said: ", "; its stderr ended: ")


def involved(request, game: Game) -> bool:
    """Whether the one asking may read all of the game: a team of it, or the staff."""
    if staff_user(request) is not None:
        return True
    team = requester(request)
    return team is not None and team.pk in (game.p1.entry_id, game.p2.entry_id)


def shown_reason(reason: str, whole: bool, game: Game = None) -> str:
    """The reason, or for others than the game's teams its part before the agent's text (a
    crash the agent reported, `NAME: <its exception>`, is its own text after the name)."""
    cuts = [reason.find(mark) for mark in AGENT_TEXT if mark in reason]
    if game is not None and game.termination == "crash":
        cuts += [len(name) for name in (game.p1.entry.name, game.p2.entry.name)
                 if reason.startswith(f"{name}: ")]
    if whole or not cuts:
        return reason
    return reason[:min(cuts)] + " (what the agent wrote is for its team's eyes)"


def explanation(game: Game, whole: bool = False) -> str:
    """How a finished game ended in a student's words (play/reasons.py), the fault's details
    for the game's teams and the staff only; a game lost to a busy worker says so. "" for a
    game read without its record (the lists'; their games' pages have it)."""
    deferred = game.get_deferred_fields()
    if game.status != Game.DONE or "record" in deferred or not game.record:
        return ""
    if "set_aside" not in deferred and game.set_aside.startswith(fairness.OVERLOADED):
        return game.set_aside
    try:
        return reasons.in_words(GameRecord.from_json(game.record), details=whole)
    except ValueError:
        return shown_reason(game.reason, whole, game)


def game_json(game: Game, whole: bool = False) -> dict:
    return {"id": game.pk, "p1": game.p1.entry.name, "p2": game.p2.entry.name,
            "result": game.result if game.status == Game.DONE else None,
            "score1": game.score1, "score2": game.score2, "termination": game.termination,
            "reason": (shown_reason(game.reason, whole, game)
                       if game.status == Game.DONE else ""),
            "explanation": explanation(game, whole),
            # Why a finished game counts nowhere ("worker overloaded: ...", a record that
            # failed the checks); "" for one that counts.
            "set_aside": game.set_aside,
            "ended": game.ended.isoformat() if game.ended else None,
            "purpose": game.purpose, "status": game.status}


GAMES_A_PAGE = 100
GAMES_KEPT_SECONDS = 3600  # as the templates keep the pages' lists


def games_shown(team_name=None, before=None):
    """The games played or being played, newest first: a team's (either side) if named,
    those below game `before` if given."""
    # Without what no list shows (a record is kilobytes; its version's reason may be too).
    shown = (Game.objects.filter(status__in=(Game.PLAYING, Game.DONE))
             .select_related("p1__entry", "p2__entry").order_by("-id")
             .defer("record", "live", "analysis_json", "p1__reason",
                    "p2__reason"))
    if team_name is not None:
        shown = shown.filter(Q(p1__entry__name=team_name) | Q(p2__entry__name=team_name))
    if before is not None:
        shown = shown.filter(id__lt=before)
    return shown


class GamesPage:
    """A page of games_shown for a request (its `?before=ID`): at most GAMES_A_PAGE games,
    and `next_url`, the request's path with its `team` and `before` the page's last game
    (None on the last page). Read when first asked for, so that a page whose list is rendered
    from the cache runs no query. ValueError, in words, for a `before` that is not a game's
    id."""

    def __init__(self, request, team_name=None, size=GAMES_A_PAGE):
        given = request.GET.get("before")
        if given is not None and not (given.isascii() and given.isdigit()):
            raise ValueError(f"before={given!r}: the id of a game (a page's `next` gives it)")
        self.before = int(given) if given is not None else None
        self.team_name, self.size, self.request = team_name, size, request

    @cached_property
    def _read(self):
        return list(games_shown(self.team_name, self.before)[:self.size + 1])

    @property
    def games(self):
        return self._read[:self.size]

    @property
    def next_url(self):
        if len(self._read) <= self.size:
            return None
        # The filter the list was asked with, and nothing else the query held: the pages
        # keep this link rendered for everyone.
        query = {"team": self.team_name} if self.request.GET.get("team") == self.team_name \
            and self.team_name is not None else {}
        query["before"] = self._read[self.size - 1].pk
        return f"{self.request.path}?{urlencode(query)}"


@only("GET")
def games(request):
    team = request.GET.get("team")
    if team is not None and not Entry.objects.filter(name=team).exists():
        return error(404, f"no team named {team!r}")
    try:
        page = GamesPage(request, team)
    except ValueError as bad:
        return error(400, str(bad))
    # involved(request, game), with the one asking looked up once for the page, not a game.
    staff = staff_user(request) is not None
    asking = requester(request)

    def whole(game):
        return staff or (asking is not None and asking.pk in (game.p1.entry_id, game.p2.entry_id))

    def answer():
        return json.dumps({"games": [game_json(game, whole(game)) for game in page.games],
                           "next": page.next_url}, cls=DjangoJSONEncoder).encode()
    if staff or asking is not None:
        return HttpResponse(answer(), content_type="application/json")
    # What all others are shown is the same until a game changes: kept, as the pages' lists.
    key = "api-games:" + hashlib.sha256(repr((standings.stamp(), team, page.before))
                                        .encode()).hexdigest()
    return HttpResponse(cache.get_or_set(key, answer, GAMES_KEPT_SECONDS),
                        content_type="application/json")


@only("GET")
def game_record(request, pk: int):
    game = Game.objects.filter(pk=pk, status=Game.DONE).first()
    if game is None:
        return error(404, f"no finished game {pk}")
    record = game.record
    if not involved(request, game):
        fields = json.loads(record)
        fields["reason"] = shown_reason(fields.get("reason") or "", False)
        record = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return HttpResponse(record + "\n", content_type="application/json")


def live_json(game: Game, whole: bool = False) -> dict:
    """A game as its page follows it: while it is played, what its live lines tell
    (live.state: every ply with both clocks, the clocks as of the last line, who moves, that
    line's time and the server's); once it is not, its status and page ("ended": it is done
    or failed; the page reloads into the replay). `whole`: the end's reason unabridged."""
    answer = {"id": game.pk, "status": game.status, "p1": game.p1.entry.name,
              "p2": game.p2.entry.name, "page": reverse("arena:game", args=[game.pk]),
              "ended": game.status in (Game.DONE, Game.FAILED)}
    if game.status != Game.PLAYING:
        answer["result"] = game.result if game.status == Game.DONE else None
        return answer
    shown = live.state(game.live, timezone.now())
    if shown["end"] is not None:
        shown["end"]["reason"] = shown_reason(shown["end"].get("reason") or "", whole)
    answer.update((key, value) for key, value in shown.items() if key not in ("p1", "p2"))
    return answer


@only("GET")
def game_live(request, pk: int):
    game = Game.objects.select_related("p1__entry", "p2__entry").filter(pk=pk).first()
    if game is None:
        return error(404, f"no game {pk}")
    return JsonResponse(live_json(game, involved(request, game)))


@only("POST")
def challenges(request):
    team = requester(request)
    if team is None:
        return error(401, "an `Authorization: Token TOKEN` header with your team's token")
    try:
        asked = json.loads(request.body or b"{}")
    except ValueError as bad:
        return error(400, f"the body is not JSON: {bad}")
    if not isinstance(asked, dict) or not isinstance(asked.get("opponent"), str):
        return error(400, 'send {"opponent": NAME, "games": N}')
    try:
        made, queued = teams.challenge(team, asked["opponent"], asked.get("games", 2))
    except teams.RequestRefused as refused:
        return error(400, str(refused))
    team.refresh_from_db()
    return JsonResponse({"challenge": made.pk, "games": [game.pk for game in queued],
                         "quota_left": team.challenge_quota}, status=201)


@only("GET")
def tournaments(request):
    return JsonResponse({"tournaments": [tournament.summary(made) for made in
                                         Tournament.objects.all()]})


@only("GET")
def tournament_view(request, pk: int):
    made = Tournament.objects.filter(pk=pk).first()
    if made is None:
        return error(404, f"no tournament {pk}")
    return JsonResponse(tournament.to_api(made))


@only("GET")
def tournament_csv(request, pk: int):
    """The standings and grades: the staff's only (a staff token, or logged in on the pages),
    although the same numbers but the grades are public on the tournament's page and in its
    JSON."""
    if staff_user(request) is None:
        return error(403, "a tournament's CSV is the teaching staff's: log in as staff, or "
                          "send a staff token")
    made = Tournament.objects.filter(pk=pk).first()
    if made is None:
        return error(404, f"no tournament {pk}")
    answer = HttpResponse(tournament.csv_text(made), content_type="text/csv; charset=utf-8")
    answer["Content-Disposition"] = f'attachment; filename="{tournament.csv_name(made)}"'
    return answer
