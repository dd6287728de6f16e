"""The pages' addresses (under /; the project adds its login and logout pages)."""

from django.urls import path

from . import views

urlpatterns = [
    path("", views.standings_page, name="standings"),
    path("games/", views.games_page, name="games"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/<int:pk>/analysis", views.analysis_page, name="analysis"),
    path("games/<int:pk>/log/<int:side>/", views.agent_log_page, name="agent-log"),
    path("teams/<str:name>/", views.team_page, name="team"),
    path("upload/", views.upload_page, name="upload"),
    path("challenge/", views.challenge_page, name="challenge"),
    path("tournaments/", views.tournaments_page, name="tournaments"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/games/", views.tournament_games_page, name="tournament-games"),
    path("staff/", views.staff_page, name="staff"),
]
