"""Django's settings for an arena, read from its folder (config.ENVIRONMENT names it)."""

import os
from pathlib import Path

from . import config as _config

_arena = _config.load(os.environ[_config.ENVIRONMENT])
ARENA = _arena

BASE_DIR = Path(__file__).resolve().parent
SECRET_KEY = _arena.secret_key
DEBUG = os.environ.get("DIVERCITE_ARENA_DEBUG") == "1"
# The built-in server answers whatever name the arena is reached by (a laptop's address on a
# class's network); a deployment behind a proxy names its hosts (the next issue).
ALLOWED_HOSTS = ["*"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "divercite.arena.apps.ArenaConfig",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]
ROOT_URLCONF = "divercite.arena.urls"
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
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_PASSWORD_VALIDATORS = []
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True
STATIC_URL = "/static/"
LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# An upload is read whole by uploads.py, which sets its own limit; Django's own bound is above it.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 << 20
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
