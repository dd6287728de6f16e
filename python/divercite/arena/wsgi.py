"""The arena as a WSGI application, for gunicorn (`serve --production`, production.py) or any
WSGI server: DIVERCITE_ARENA_DIR names the arena's folder, and the production settings are
those of DIVERCITE_ARENA_PRODUCTION=1 (docs/arena.md, "Deployment"). Nothing is migrated
here: `serve` has done it before starting the server."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "divercite.arena.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402 - after the settings' name

application = get_wsgi_application()
