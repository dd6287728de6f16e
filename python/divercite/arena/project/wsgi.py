"""The arena as a WSGI application, for gunicorn (`serve --production`, production.py) or any
WSGI server: DIVERCITE_ARENA_DIR names the arena's folder, and the production settings are
those of DIVERCITE_ARENA_PRODUCTION=1 (docs/arena.md, "Deployment"). Nothing is migrated
here: `serve` has done it before starting the server."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "divercite.arena.project.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402 - after the settings' name

django_application = get_wsgi_application()

from .request_limits import close_after  # noqa: E402 - once Django is set up


def application(environ, start_response):
    """Django's, and for an answer that may have left a large body unread (a refused one:
    request_limits.close_after), gunicorn's connection closed after it: gunicorn would
    otherwise read the whole body (3 GB, say) before the connection's next request. Its
    start_response is a method of its Response, whose force_close() says so; another
    server's is left alone."""
    answer = django_application(environ, start_response)
    if close_after(environ):
        force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
        if force_close is not None:
            force_close()
    return answer
