"""What the arena's tests share: where the package, the programs and the course are, and an
arena set up for Django's tests (a temporary folder; Django's test database beside it)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# The package as the build tree holds it (compiled rules, pages, board.js): cmake's test
# sets DIVERCITE_PYTHON_PACKAGE; by hand, <repo>/build/python.
PACKAGE = Path(os.environ.get("DIVERCITE_PYTHON_PACKAGE") or REPO / "build" / "python")
COURSE = Path(os.environ.get("DIVERCITE_COURSE_DIR") or REPO.parent / "shared" / "course")
REFERENCE = Path(os.environ.get("DIVERCITE_REFERENCE_DIR") or REPO.parent / "shared" / "reference")
AGENTS = REPO / "tests" / "seahorse" / "agents"
if str(PACKAGE) not in sys.path:
    sys.path.insert(0, str(PACKAGE))


def package_environment(**more) -> dict:
    """The environment for a child that imports the package (an arena, a bridge)."""
    paths = [str(PACKAGE)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(paths), PYTHONDONTWRITEBYTECODE="1",
                **more)


def setup_django(tc: float = 5.0, database: Optional[str] = None) -> Path:
    """Django set up for a new arena in a temporary folder (kept until the process ends), its
    database SQLite in the folder or the PostgreSQL URL `database`."""
    from divercite.arena import arena_folder
    folder = Path(tempfile.mkdtemp(prefix="divercite_arena_test_")) / "arena"
    arena_folder.create(folder, tc, database, str(COURSE))
    os.environ[arena_folder.ENVIRONMENT] = str(folder)
    os.environ["DJANGO_SETTINGS_MODULE"] = "divercite.arena.project.settings"
    import django
    django.setup()
    return folder
