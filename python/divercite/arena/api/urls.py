"""The HTTP API's addresses (under /api/): the teams' and the public's (team_views), the
workers' (worker_views), the staff's (staff_views)."""

from django.urls import path

from . import staff_views, team_views, worker_views

urlpatterns = [
    path("agents", team_views.agents, name="agents"),
    path("agents/<int:pk>", team_views.agent, name="agent"),
    path("standings", team_views.standings_view, name="standings"),
    path("games", team_views.games, name="games"),
    path("games/<int:pk>/record", team_views.game_record, name="record"),
    path("games/<int:pk>/live", team_views.game_live, name="live"),
    path("challenges", team_views.challenges, name="challenges"),
    path("tournaments", team_views.tournaments, name="tournaments"),
    path("tournaments/<int:pk>", team_views.tournament_view, name="tournament"),
    path("tournaments/<int:pk>/csv", team_views.tournament_csv, name="tournament-csv"),
    path("status", staff_views.status, name="status"),
    path("worker/claim", worker_views.claim, name="worker-claim"),
    path("worker/versions/<int:pk>", worker_views.version_files, name="worker-version"),
    path("worker/games/<int:pk>/heartbeat", worker_views.heartbeat, name="worker-heartbeat"),
    path("worker/games/<int:pk>/result", worker_views.result, name="worker-result"),
    path("worker/games/<int:pk>/failed", worker_views.failed, name="worker-failed"),
    path("worker/games/<int:pk>/release", worker_views.release, name="worker-release"),
]
