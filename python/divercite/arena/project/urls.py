"""The arena's addresses."""

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.views import serve as serve_static
from django.urls import include, path, re_path

from ..api import urls as api_urls
from ..pages import urls as page_urls
from .request_limits import throttled_login

# The pages and the site's own login and logout, throttled as the admin's, in one namespace.
pages = page_urls.urlpatterns + [
    path("login/", throttled_login(auth_views.LoginView.as_view(
        template_name="arena/login.html")), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]

urlpatterns = [
    path("api/", include((api_urls.urlpatterns, "api"))),
    # The admin's login page as the site's own (its name stays the admin's), throttled too.
    path("admin/login/", throttled_login(admin.site.login)),
    path("admin/", admin.site.urls),
    path("", include((pages, "arena"))),
]
if not settings.PRODUCTION:
    # The package's own files (its style sheet, board.js, the admin's) from the built-in
    # server: no request leaves the site. In production WhiteNoise serves them, collected.
    urlpatterns.append(re_path(r"^static/(?P<path>.*)$", serve_static, {"insecure": True}))
