"""Django set up for the arena in a folder: what every command that reads or writes an arena
does first (its settings read, its database migrated, the house opponents made)."""

from __future__ import annotations

import os
import sys

from .. import arena_folder

DJANGO_MISSING = ("Django is not installed for this Python ({python}): on Debian or Ubuntu, "
                  "`sudo apt install python3-django` (for /usr/bin/python3); in a venv, "
                  "`pip install 'divercite[arena]'`")


def setup(folder: str) -> arena_folder.Config:
    """Django set up for the arena in `folder`; its settings."""
    arena = arena_folder.load(folder)
    os.environ[arena_folder.ENVIRONMENT] = str(arena.folder)
    os.environ["DJANGO_SETTINGS_MODULE"] = "divercite.arena.project.settings"
    try:
        import django
    except ImportError:
        raise arena_folder.ArenaError(DJANGO_MISSING.format(python=sys.executable)) from None
    django.setup()
    from django.core.management import call_command
    call_command("migrate", verbosity=0, interactive=False)
    from ..core.teams import ensure_house
    ensure_house()
    return arena
