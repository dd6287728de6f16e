"""An arena's folder: its settings file (arena.json), its database, its agents and analyses.

DIR/arena.json holds what `init` chose (the secret key, the clock, the database); everything
the arena keeps lives under DIR, so that a copy of the folder is a copy of the arena."""

from __future__ import annotations

import dataclasses
import json
import os
import secrets
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qsl, unquote, urlsplit

SETTINGS_FILE = "arena.json"
ENVIRONMENT = "DIVERCITE_ARENA_DIR"  # how settings.py learns the folder


class ArenaError(RuntimeError):
    """An arena folder or a setting that cannot be used; the message says which."""


@dataclasses.dataclass
class Config:
    folder: Path
    secret_key: str
    tc: float = 900.0  # the teams' clock, seconds a game (the course's)
    database: Optional[str] = None  # a URL; None: SQLite in the folder
    challenge_quota: int = 20  # challenge games a team may ask for, unless the admin sets more
    placement_games: int = 8  # a new version's games before matchmaking treats it as placed
    # How long a remote worker holds its game without a heartbeat before the game goes to
    # another (it sends one every quarter of it).
    lease_seconds: float = 60.0
    # Lost games analysed at once by serve (divercite-analyze, a core each): at class scale,
    # games end faster than one analyst (6 s a game) keeps up with.
    analysts: int = 1
    course: str = ""  # the course's Divercité folder (game_state_divercite.py), for the bridge
    # Versions a team may upload in an hour (the API and the upload page; not the
    # administrator's `divercite-arena upload`); 0: no limit. An arena.json without it: 12.
    upload_limit_per_hour: int = 12
    # A version unpacked: at most this many MB and files (the zip's central directory counted
    # before anything is unpacked), each member at most this many times its compressed size.
    version_max_mb: int = 20
    version_max_files: int = 2000
    max_compression_ratio: int = 200
    # What a team's versions may hold on disk together; the oldest superseded versions'
    # folders are removed after retention_days (their games, records and analyses stay; a
    # final tournament's versions stay whole).
    team_storage_mb: int = 200
    retention_days: float = 7.0
    # The share of the workers that check games may hold at once (another game waiting): one
    # team's uploads cannot starve matchmaking.
    check_share: float = 0.5
    # A game lost on time or to a limit by a side that had less than this share of a core
    # while it could run (play/fairness.py) was lost to a busy worker: it counts nowhere and
    # is played again, at most `overloaded_replays` times (then the staff sees it).
    min_core_share: float = 0.7
    overloaded_replays: int = 2
    # Requests a minute one address may make without logging in (pages and API reads), and
    # failed logins an address or a name may make in 15 minutes before it waits (429).
    anonymous_requests_per_minute: int = 120
    failed_logins_allowed: int = 10

    @property
    def agents(self) -> Path:
        return self.folder / "agents"

    @property
    def analyses(self) -> Path:
        return self.folder / "analyses"

    @property
    def scratch(self) -> Path:
        """The games' and analyses' temporary files (emptied when the arena starts: a killed
        one leaves its own)."""
        return self.folder / "tmp"

    @property
    def sqlite(self) -> Path:
        return self.folder / "arena.sqlite3"

    def django_database(self) -> dict:
        """Django's DATABASES["default"]: SQLite in the folder, or the PostgreSQL of the URL
        (postgresql://USER:PASSWORD@HOST:PORT/NAME?sslmode=..., its query as libpq options)."""
        if not self.database or self.database.startswith("sqlite:"):
            return {
                # Django's, each transaction begun with BEGIN IMMEDIATE.
                "ENGINE": "divercite.arena.project.sqlite",
                "NAME": str(self.sqlite),
                # Worker threads and page requests write at once: wait for the lock, not fail.
                "OPTIONS": {"timeout": 60},
                # Django's tests on a file too: its default, memory shared between threads,
                # fails at once on a locked table where the arena's file waits.
                "TEST": {"NAME": str(self.folder / "test.sqlite3")},
            }
        url = urlsplit(self.database)
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": unquote(url.path.lstrip("/")),
            "USER": unquote(url.username or ""),
            "PASSWORD": unquote(url.password or ""),
            "HOST": url.hostname or "",
            "PORT": str(url.port or ""),
            "OPTIONS": dict(parse_qsl(url.query)),
            "CONN_MAX_AGE": 60,  # a worker's thread keeps its connection between games
        }

    def save(self) -> None:
        values = {k: v for k, v in dataclasses.asdict(self).items() if k != "folder"}
        path = self.folder / SETTINGS_FILE
        temporary = path.with_suffix(".tmp")
        with open(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as file:
            json.dump(values, file, indent=2)
            file.write("\n")
        os.replace(temporary, path)


def find_course(given: Optional[str]) -> str:
    """The course's Divercité folder: `given` (the course root or that folder), else
    DIVERCITE_COURSE_DIR, else the one beside this repository; ArenaError if none holds it."""
    from ..course.bridge.locations import NOT_A_COURSE, course_in, repository_course_dir
    for source, folder in (("--course", given),
                           ("DIVERCITE_COURSE_DIR", os.environ.get("DIVERCITE_COURSE_DIR"))):
        if folder:
            found = course_in(folder)
            if found is None:
                raise ArenaError(f"{source} {folder}: {NOT_A_COURSE}")
            return found
    found = course_in(repository_course_dir())
    if found is None:
        raise ArenaError("cannot find the course's Divercité folder (the course's random player "
                         "checks every upload, and the bridge runs the agents in it): give "
                         "--course DIR or set DIVERCITE_COURSE_DIR")
    return found


def create(folder: Path, tc: float, database: Optional[str],
           course: Optional[str] = None) -> Config:
    if (folder / SETTINGS_FILE).exists():
        raise ArenaError(f"{folder} already holds an arena ({SETTINGS_FILE}); "
                         "choose another folder")
    if database is not None and not database.startswith("sqlite:"):
        check_postgresql(database)
    if not tc > 0:
        raise ArenaError(f"--tc {tc}: the clock must be a positive number of seconds")
    course_dir = find_course(course)
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # the agents' code and the tokens' hashes are the teams' own
    config = Config(folder=folder.resolve(), secret_key=secrets.token_urlsafe(50), tc=tc,
                    database=database, course=course_dir)
    config.agents.mkdir(exist_ok=True)
    config.analyses.mkdir(exist_ok=True)
    config.save()
    return config


def check_postgresql(url: str) -> None:
    """ArenaError unless `url` names a PostgreSQL database this machine can reach (the
    server's own words when it refuses)."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres") or not parts.path.strip("/"):
        raise ArenaError(f"--database {url}: a URL postgresql://USER:PASSWORD@HOST:PORT/NAME "
                         "(or sqlite: for SQLite in the folder, the default)")
    try:
        import psycopg2
    except ImportError:
        raise ArenaError("--database postgresql://...: the PostgreSQL driver is missing: "
                         "install Debian's python3-psycopg2 (scripts/install-deps.sh arena), "
                         "or in a venv `pip install 'divercite[arena,postgresql]'`") from None
    try:
        psycopg2.connect(url, connect_timeout=10).close()
    except psycopg2.Error as error:
        where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"
        raise ArenaError(f"--database: cannot connect to {where}: "
                         f"{str(error).strip()}") from None


def load(folder) -> Config:
    folder = Path(folder).resolve()
    path = folder / SETTINGS_FILE
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ArenaError(f"{folder}: no arena here ({SETTINGS_FILE} is missing); "
                         "the command line's `init` makes one") from None
    except (OSError, ValueError) as error:
        raise ArenaError(f"{path}: cannot be read: {error}") from None
    fields = {field.name for field in dataclasses.fields(Config)} - {"folder"}
    unknown = set(values) - fields
    if unknown or "secret_key" not in values:
        raise ArenaError(f"{path}: not an arena's settings (unknown {sorted(unknown)} or no "
                         "secret_key)")
    for field in dataclasses.fields(Config):
        if field.name not in values or field.type not in ("int", "float"):
            continue
        value = values[field.name]
        kinds = (int,) if field.type == "int" else (int, float)
        if not isinstance(value, kinds) or isinstance(value, bool) or value < 0:
            raise ArenaError(f"{path}: {field.name} {value!r}: "
                             f"{'a whole' if field.type == 'int' else 'a'} number, 0 or more"
                             f"{' (0: no limit)' if field.name in NO_LIMIT else ''}")
    return Config(folder=folder, **values)


# The settings whose 0 means "no limit".
NO_LIMIT = ("upload_limit_per_hour", "anonymous_requests_per_minute", "failed_logins_allowed")
