"""The arena's addresses."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import include, path, re_path

from . import api, pages

api_patterns = [
    path("agents", api.agents, name="agents"),
    path("agents/<int:pk>", api.agent, name="agent"),
    path("standings", api.standings_view, name="standings"),
    path("games", api.games, name="games"),
    path("games/<int:pk>/record", api.game_record, name="record"),
    path("challenges", api.challenges, name="challenges"),
]
page_patterns = [
    path("", pages.standings_page, name="standings"),
    path("games/", pages.games_page, name="games"),
    path("games/<int:pk>/", pages.game_page, name="game"),
    path("games/<int:pk>/analysis", pages.analysis_page, name="analysis"),
    path("teams/<str:name>/", pages.team_page, name="team"),
    path("upload/", pages.upload_page, name="upload"),
    path("challenge/", pages.challenge_page, name="challenge"),
    path("login/", auth_views.LoginView.as_view(template_name="arena/login.html"),
         name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
urlpatterns = [
    path("api/", include((api_patterns, "api"))),
    path("admin/", admin.site.urls),
    path("", include((page_patterns, "arena"))),
    # The package's own files (its style sheet, board.js, the admin's): no request leaves the
    # site. A deployment behind a web server serves them itself (the next issue).
    re_path(r"^static/(?P<path>.*)$", serve_static, {"insecure": True}),
]
