"""The pages: standings, a team's page, a game's replay, the upload form, a challenge, the
final tournaments' standings and games, and the staff's page of the arena's state."""

from __future__ import annotations

import json
from typing import Optional

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.cache import never_cache
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from ... import _core
from ...records import GameRecord
from ..api import team_views
from ..play import house
from ..core import staff_status, standings, team_record, teams, tournament, waiting
from ..core.models import Entry, Game, Tournament
from ..agent_files.uploads import MAX_UPLOAD_BYTES, UploadError
from ..wording import counted
from . import elo_plot, tables


def own_team(request):
    if not request.user.is_authenticated:
        return None
    return Entry.objects.filter(user=request.user).first()


def reader_of(request) -> Optional[str]:
    """The name of the logged-in team reading the page (its line marked in the tables), or
    None."""
    team = own_team(request)
    return team.name if team is not None else None


@require_GET
def standings_page(request):
    # The table and the lists of games are the same for each reader until stamp() changes:
    # the templates keep them rendered under it and the reader's team, whose line is marked
    # ({% cache %}), and the querysets are then not run, nor the table written (a callable,
    # which the template calls only when its cache misses).
    stamp = standings.stamp()
    reader = reader_of(request)
    return render(request, "arena/standings.html", {
        "table": lambda: tables.standings_table(standings.table(stamp), reader),
        "reader": reader or "", "tc": settings.ARENA.tc,
        "recent": team_views.games_shown()[:20], "tournaments": Tournament.objects.all(),
        "stamp": stamp})


def games_listed(request, team_name=None):
    """A page of games (team_views.GamesPage, read only if its cached list is not); Http404 for a
    `before` that is not a game's id."""
    try:
        return team_views.GamesPage(request, team_name)
    except ValueError as bad:
        raise Http404(str(bad)) from None


@require_GET
def games_page(request):
    # Its list is rendered once a page and stamp ({% cache %}): the query runs then only.
    page = games_listed(request)
    return render(request, "arena/games.html", {"page": page, "stamp": standings.stamp(),
                                                "page_size": team_views.GAMES_A_PAGE})


def head_to_head_rows(lines) -> list:
    """The head-to-head table's rows: each opponent's line and the points the team took
    (1 a win, ½ a draw)."""
    return [{"line": line, "points": line.wins + line.draws / 2} for line in lines]


@require_GET
def team_page(request, name):
    entry = get_object_or_404(Entry, name=name, kind__in=(Entry.TEAM, Entry.HOUSE))
    viewer = own_team(request)
    own = viewer is not None and viewer.pk == entry.pk
    stamp = standings.stamp()
    table = standings.table(stamp)
    rank, line = next(((rank, line) for rank, line in enumerate(table, 1)
                       if line.team == entry.name), (None, None))
    field = team_record.field(stamp)
    versions = team_record.versions(entry, field)
    return render(request, "arena/team.html", {
        "entry": entry, "line": line, "own": own, "stamp": stamp,
        "line_table": tables.standings_table([line], first_rank=rank) if line else "",
        "show_reasons": own or request.user.is_staff,
        "versions": [(record.version, record.line, _core.ratio_text(
            record.line.wins, record.line.losses)) for record in versions],
        "elo_plot": elo_plot.elo_plot_svg(entry.name, [
            elo_plot.PlotVersion(number=record.version.number, created=record.version.created,
                                 status=record.version.status, games=record.line.games,
                                 elo=record.line.elo, elo_low=record.line.elo_low,
                                 elo_high=record.line.elo_high) for record in versions],
            now=timezone.now()),
        "head_to_head": head_to_head_rows(team_record.head_to_head(entry, field)),
        "page": games_listed(request, entry.name),
        "house": house.HOUSE.get(entry.name),
        "can_challenge": viewer is not None and not own and entry.current_version() is not None,
        "quota": viewer.challenge_quota if viewer else 0,
        "waiting": waiting.waiting(entry) if own else None})


def replay_of(game: Game) -> dict:
    """What the replay script needs: each ply's position string, move, clocks and score."""
    record = GameRecord.from_json(game.record)
    positions = record.positions()
    tc = [settings.ARENA.tc * 1000] * 2
    for side, text in enumerate(record.tc or []):
        try:
            tc[side] = float(text.split("=", 1)[1].split("+")[0]) * 1000  # "tc=900+0"
        except (IndexError, ValueError):
            pass
    opening = record.opening_moves()
    used = [0, 0]
    plies = [{"fen": positions[0].fen(), "move": None, "clocks": list(tc),
              "scores": list(positions[0].scores)}]
    for index, move in enumerate(opening + [m.move for m in record.moves or []]):
        side = index % 2
        if index >= len(opening):
            used[side] += record.moves[index - len(opening)].ms or 0
        plies.append({"fen": positions[index + 1].fen(), "move": move,
                      "clocks": [tc[0] - used[0], tc[1] - used[1]],
                      "scores": list(positions[index + 1].scores)})
    return {"plies": plies, "p1": record.p1, "p2": record.p2, "result": record.result,
            "final": record.final}


def analysis_of(game: Game):
    """The loser's side of divercite-analyze's JSON: the moves that gave the result away and
    its largest mistakes; None when there is none."""
    if game.analysis != "done":
        return None
    try:
        analysed = json.loads(game.analysis_json)
    except ValueError:
        return None
    loser = "p1" if game.result == "0-1" else "p2"
    summary = (analysed.get("summary") or {}).get(loser) or {}
    return {"side": loser, "name": summary.get("name"),
            "result_changing": summary.get("result_changing") or [],
            "mistakes": summary.get("mistakes") or [],
            "loss": summary.get("loss"), "proven_ply": analysed["summary"].get("proven_ply")}


def readable_logs(request, game: Game):
    """The sides (1, 2) whose agent's log the one asking may read: its own team's, all of
    them for the staff; only sides that wrote something."""
    if request.user.is_authenticated and request.user.is_staff:
        sides = (1, 2)
    else:
        team = team_views.requester(request)
        sides = [side for side, version in ((1, game.p1), (2, game.p2))
                 if team is not None and version.entry_id == team.pk]
    return [side for side in sides if game.log_of(side)]


@require_GET
def game_page(request, pk):
    game = get_object_or_404(Game.objects.select_related("p1__entry", "p2__entry"), pk=pk)
    involved = team_views.involved(request, game)
    context = {"game": game, "replay": None, "analysis": analysis_of(game),
               "explanation": team_views.explanation(game, involved),
               "logs": [(side, (game.p1, game.p2)[side - 1].entry.name)
                        for side in readable_logs(request, game)],
               "reason": team_views.shown_reason(game.reason, involved, game)
               if game.status == Game.DONE else
               # A failure's reason is the runner's last lines: the game's teams' alone.
               (game.reason if involved else "")}
    if game.status == Game.DONE:
        context["replay"] = replay_of(game)
        context["skeleton"] = _core.board_skeleton_svg()
    elif game.status == Game.PLAYING:
        # Drawn at once from this, then followed: the page's script polls team_views.game_live.
        context["live"] = team_views.live_json(game, team_views.involved(request, game))
        context["skeleton"] = _core.board_skeleton_svg()
    return render(request, "arena/game.html", context)


@require_GET
def agent_log_page(request, pk, side):
    """What one side's agent wrote during the game: its team's and the staff's to read; for
    anyone else, as for a game without one, there is no such page (404)."""
    game = get_object_or_404(Game.objects.select_related("p1__entry", "p2__entry"), pk=pk)
    if side not in readable_logs(request, game):
        raise Http404("no such log")
    return render(request, "arena/agent_log.html", {
        "game": game, "side": side, "name": (game.p1, game.p2)[side - 1].entry.name,
        "log": game.log_of(side)})


@require_GET
def analysis_page(request, pk):
    game = get_object_or_404(Game, pk=pk, analysis="done")
    page = settings.ARENA.analyses / f"game-{game.pk}.html"
    if not page.is_file():
        raise Http404("no review page for this game")
    return FileResponse(open(page, "rb"), content_type="text/html; charset=utf-8")


@login_required
def upload_page(request):
    team = own_team(request)
    if team is None:
        messages.error(request, "Only a team uploads agents: log in with your team's name "
                                "and token.")
        return redirect("arena:standings")
    if request.method == "POST":
        sent = request.FILES.get("file")
        if sent is None:
            messages.error(request, "Choose a file: my_player.py or a .zip of your agent's "
                                    "folder.")
        else:
            try:
                version = teams.upload(team, sent.name, sent,
                                       per_hour=settings.ARENA.upload_limit_per_hour)
            except UploadError as refused:
                messages.error(request, f"Refused: {refused}")
            else:
                messages.success(request, f"Version {version.number} received: it plays a "
                                          "game against the course's random player first.")
                return redirect("arena:team", name=team.name)
    return render(request, "arena/upload.html", {
        "team": team, "limit_mb": MAX_UPLOAD_BYTES >> 20,
        "per_hour": settings.ARENA.upload_limit_per_hour})


@login_required
@require_POST
def challenge_page(request):
    team = own_team(request)
    if team is None:
        raise Http404("only a team challenges")
    opponent = request.POST.get("opponent", "")
    try:
        games = int(request.POST.get("games", "2"))
        teams.challenge(team, opponent, games)
    except ValueError as refused:  # teams.RequestRefused, or a number that is not one
        messages.error(request, f"Challenge refused: {refused}")
    else:
        messages.success(request, f"{counted(games, 'game')} against {opponent} queued, "
                                  "ahead of the "
                                  "games matchmaking makes.")
    listed = Entry.objects.filter(name=opponent, kind__in=(Entry.TEAM, Entry.HOUSE)).exists()
    return redirect("arena:team", name=opponent if listed else team.name)


@require_GET
def tournaments_page(request):
    made = Tournament.objects.all()
    return render(request, "arena/tournaments.html", {
        "tournaments": made,
        "listed": [(one, tournament.progress(one), one.entries.count()) for one in made]})


@require_GET
def tournament_page(request, pk):
    made = get_object_or_404(Tournament, pk=pk)
    return render(request, "arena/tournament.html", {
        "tournament": made,
        "table": tables.tournament_table(tournament.table(made), reader_of(request)),
        "progress": tournament.progress(made), "tournaments": Tournament.objects.all()})


@require_GET
def tournament_games_page(request, pk):
    made = get_object_or_404(Tournament, pk=pk)
    games = made.games.select_related("p1__entry", "p2__entry").order_by("-id")
    return render(request, "arena/tournament_games.html", {
        "tournament": made, "games": games.filter(status__in=(Game.PLAYING, Game.DONE)),
        "failed": games.filter(status=Game.FAILED), "progress": tournament.progress(made),
        "tournaments": Tournament.objects.all()})


@require_GET
@never_cache
def staff_page(request):
    """The arena's state (staff_status.compute, which GET /api/status sends as JSON): the
    staff's only; anyone else is sent to log in, a team refused."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not request.user.is_staff:
        raise PermissionDenied("the staff's page")
    status = staff_status.compute()
    done = status["games"]["done_last_day"]
    return render(request, "arena/staff.html", {
        "status": status, "per_hour": done / 24, "tournaments": Tournament.objects.all()})
