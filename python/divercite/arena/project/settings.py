"""Django's settings for an arena, read from its folder (config.ENVIRONMENT names it)."""

import os
from pathlib import Path

from .. import arena_folder as _config
from . import production as _production

_arena = _config.load(os.environ[_config.ENVIRONMENT])
ARENA = _arena
# `serve --production` (production.py) sets this for itself and its gunicorn: the settings of
# a deployment behind an HTTPS proxy, at the end of this file.
PRODUCTION = os.environ.get(_production.PRODUCTION) == "1"

BASE_DIR = Path(__file__).resolve().parent
# arena.json's, unless the environment gives one (a secret kept out of the folder's copies).
SECRET_KEY = os.environ.get(_production.SECRET_KEY) or _arena.secret_key
DEBUG = not PRODUCTION and os.environ.get("DIVERCITE_ARENA_DEBUG") == "1"
# The built-in server answers whatever name the arena is reached by (a laptop's address on a
# class's network); a deployment names its hosts (below).
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "divercite.arena.core.apps.ArenaConfig",
    "divercite.arena.pages.apps.PagesConfig",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After the authentication (a body's cap and the anonymous requests' limit depend on who
    # asks), before anything reads a body: every middleware's __call__ runs before
    # CsrfViewMiddleware reads a form (its process_view) or a view does (request_limits.py).
    "divercite.arena.project.request_limits.RequestBodies",
    "divercite.arena.project.request_limits.AnonymousRequests",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "divercite.arena.project.urls"
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
DATABASES = {"default": _arena.django_database()}
if not PRODUCTION:
    # The built-in server answers each request in a thread of its own, which ends with it: a
    # connection kept for the next request would be left open by every thread, until
    # PostgreSQL refuses more (its 100). gunicorn's threads live on and keep theirs.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The pages' parts the same for everyone (the standings, the lists of games), kept rendered by
# each process under standings.stamp() ({% cache %} in the templates).
# The anonymous requests' counts a minute, an address each (request_limits.py), apart: an
# outsider's many addresses cannot push the rendered pages out.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                      "OPTIONS": {"MAX_ENTRIES": 2000}},
          "request_limits": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                             "LOCATION": "request_limits", "OPTIONS": {"MAX_ENTRIES": 20000}}}
AUTH_PASSWORD_VALIDATORS = []
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "/static/"
STATIC_ROOT = str(_arena.folder / "static")  # collectstatic's, for --production
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# A body is capped before it is read (request_limits.py); the largest one not a file, a
# worker's record (request_limits.WORKER_BODY_BYTES), is Django's bound for the rest.
DATA_UPLOAD_MAX_MEMORY_SIZE = 8 << 20
FILE_UPLOAD_MAX_MEMORY_SIZE = 4 << 20
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Strict"
SESSION_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"divercite.arena": {"handlers": ["console"], "level": "INFO"},
                "django.request": {"handlers": ["console"], "level": "ERROR"}},
}

if PRODUCTION:
    # docs/arena.md, "Deployment": behind a proxy that terminates HTTPS and sets
    # X-Forwarded-Proto (overwriting any the client sent), on the names given to serve.
    import django as _django
    ALLOWED_HOSTS = [h for h in os.environ.get(_production.ALLOWED_HOSTS, "").split(",") if h]
    # Django 3.2 checks an HTTPS POST's Referer against the request's host and these (a name,
    # ".example.org" for its subdomains); Django 4 wants the scheme, and "*." for subdomains.
    CSRF_TRUSTED_ORIGINS = ALLOWED_HOSTS if _django.VERSION < (4,) else [
        "https://" + ("*" + h if h.startswith(".") else h) for h in ALLOWED_HOSTS]
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True  # a request that reached the proxy in clear text: to https://
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get(_production.HSTS_SECONDS) or 0)
    # The collected files, served by WhiteNoise in gunicorn: hashed names (cached a year,
    # immutable) and their gzip copies; the pages link the hashed names.
    MIDDLEWARE.insert(1, "whitenoise.middleware.WhiteNoiseMiddleware")
    _STATIC_STORAGE = "divercite.arena.project.static_storage.ArenaStaticStorage"
    if _django.VERSION < (4, 2):
        STATICFILES_STORAGE = _STATIC_STORAGE
    else:  # STATICFILES_STORAGE's successor (the old name is gone from Django 5.1)
        STORAGES = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
                    "staticfiles": {"BACKEND": _STATIC_STORAGE}}
