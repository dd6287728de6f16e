"""The arena's addresses."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import include, path, re_path

from . import api, pages, worker_api
from .request_limits import throttled_login

api_patterns = [
    path("agents", api.agents, name="agents"),
    path("agents/<int:pk>", api.agent, name="agent"),
    path("standings", api.standings_view, name="standings"),
    path("games", api.games, name="games"),
    path("games/<int:pk>/record", api.game_record, name="record"),
    path("games/<int:pk>/live", api.game_live, name="live"),
    path("challenges", api.challenges, name="challenges"),
    path("tournaments", api.tournaments, name="tournaments"),
    path("tournaments/<int:pk>", api.tournament_view, name="tournament"),
    path("tournaments/<int:pk>/csv", api.tournament_csv, name="tournament-csv"),
    path("worker/claim", worker_api.claim, name="worker-claim"),
    path("worker/versions/<int:pk>", worker_api.version_files, name="worker-version"),
    path("worker/games/<int:pk>/heartbeat", worker_api.heartbeat, name="worker-heartbeat"),
    path("worker/games/<int:pk>/result", worker_api.result, name="worker-result"),
    path("worker/games/<int:pk>/failed", worker_api.failed, name="worker-failed"),
    path("worker/games/<int:pk>/release", worker_api.release, name="worker-release"),
]
page_patterns = [
    path("", pages.standings_page, name="standings"),
    path("games/", pages.games_page, name="games"),
    path("games/<int:pk>/", pages.game_page, name="game"),
    path("games/<int:pk>/analysis", pages.analysis_page, name="analysis"),
    path("teams/<str:name>/", pages.team_page, name="team"),
    path("upload/", pages.upload_page, name="upload"),
    path("challenge/", pages.challenge_page, name="challenge"),
    path("tournaments/", pages.tournaments_page, name="tournaments"),
    path("tournaments/<int:pk>/", pages.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/games/", pages.tournament_games_page, name="tournament-games"),
    path("login/", throttled_login(auth_views.LoginView.as_view(
        template_name="arena/login.html")), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
urlpatterns = [
    path("api/", include((api_patterns, "api"))),
    # The admin's login page as the site's own (its name stays the admin's), throttled too.
    path("admin/login/", throttled_login(admin.site.login)),
    path("admin/", admin.site.urls),
    path("", include((page_patterns, "arena"))),
]
if not settings.PRODUCTION:
    # The package's own files (its style sheet, board.js, the admin's) from the built-in
    # server: no request leaves the site. In production WhiteNoise serves them, collected.
    urlpatterns.append(re_path(r"^static/(?P<path>.*)$", serve_static, {"insecure": True}))
