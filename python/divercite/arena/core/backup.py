"""An arena's backup, taken while it runs, and its restore into a new folder.

A backup is one .tar.gz: backup.json (what it holds), arena.json (the settings), the database
(SQLite's online backup, `database.sqlite3`, or PostgreSQL's pg_dump, `database.pgdump`:
each one consistent snapshot) and the folders `agents/` and `analyses/`. The database is
copied first: a version's folder is written before its row commits, and an analysis's file
before its row says so, so every row of the snapshot finds its files (a folder of a later
upload may come too; no row names it).

    divercite-arena backup DIR OUT.tar.gz
    divercite-arena restore OUT.tar.gz NEWDIR [--database postgresql://...]
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Optional

from .. import arena_folder

FORMAT = 1  # backup.json's "format": what restore reads
DATABASE_FILES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}  # by kind
FOLDERS = ("agents", "analyses")


def create(arena: arena_folder.Config, database: dict, out: Path) -> dict:
    """Writes the backup of `arena` (its database as Django's `database` settings reach it) to
    `out`, a new file; returns what backup.json says."""
    out = Path(out)
    if out.exists():
        raise arena_folder.ArenaError(f"{out} exists: a backup is written to a new file")
    with tempfile.TemporaryDirectory(prefix="divercite_backup_", dir=out.parent) as work:
        work = Path(work)
        began = time.time()
        kind = "postgresql" if database["ENGINE"].endswith("postgresql") else "sqlite"
        name = DATABASE_FILES[kind]
        if kind == "postgresql":
            _pg_dump(database, work / name)
        else:
            _sqlite_backup(Path(database["NAME"]), work / name)
        summary = {"format": FORMAT, "database": kind, "file": name,
                   "taken": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(began))}
        (work / "backup.json").write_text(json.dumps(summary, indent=2) + "\n")
        shutil.copy(arena.folder / arena_folder.SETTINGS_FILE, work / arena_folder.SETTINGS_FILE)
        partial = out.with_name(out.name + ".partial")
        with tarfile.open(partial, "w:gz") as archive:
            for entry in ("backup.json", arena_folder.SETTINGS_FILE, name):
                archive.add(work / entry, arcname=entry)
            for folder in FOLDERS:
                if (arena.folder / folder).is_dir():
                    archive.add(arena.folder / folder, arcname=folder)
        os.replace(partial, out)  # a backup cut half-way is never taken for one
    return summary


def restore(archive_path: Path, folder: Path, database: Optional[str]) -> arena_folder.Config:
    """A new arena in `folder` from a backup: SQLite in the folder, or the backup's
    PostgreSQL dump loaded into `database` (an empty database; required for a PostgreSQL
    backup, so that a restore never writes over the arena it was taken from)."""
    folder = Path(folder)
    if folder.exists() and any(folder.iterdir()):
        raise arena_folder.ArenaError(
            f"{folder} is not empty: a backup is restored into a new folder")
    try:
        archive = tarfile.open(archive_path, "r:gz")
    except (OSError, tarfile.TarError) as error:
        raise arena_folder.ArenaError(f"{archive_path}: not a backup ({error})") from None
    with archive, tempfile.TemporaryDirectory(prefix="divercite_restore_") as work:
        work = Path(work)
        for member in archive.getmembers():
            path = Path(member.name)
            if path.is_absolute() or ".." in path.parts or not (member.isfile() or member.isdir()):
                raise arena_folder.ArenaError(
                    f"{archive_path}: not a backup (its entry "
                    f"{member.name!r})")
        archive.extractall(work)
        try:
            summary = json.loads((work / "backup.json").read_text())
            settings = json.loads((work / arena_folder.SETTINGS_FILE).read_text())
        except (OSError, ValueError) as error:
            raise arena_folder.ArenaError(f"{archive_path}: not a backup ({error})") from None
        if summary.get("format") != FORMAT:
            raise arena_folder.ArenaError(
                f"{archive_path}: a backup of format "
                f"{summary.get('format')}, this arena reads {FORMAT}")
        if summary.get("database") not in DATABASE_FILES:
            raise arena_folder.ArenaError(
                f"{archive_path}: not a backup (its database "
                f"{summary.get('database')!r})")
        dump = work / DATABASE_FILES[summary["database"]]  # its name from its kind alone
        if summary["database"] == "postgresql":
            if not database:
                raise arena_folder.ArenaError(
                    "the backup holds a PostgreSQL database: give the "
                    "empty database to load it into, --database "
                    "postgresql://...")
            arena_folder.check_postgresql(database)
            _check_empty(database)
        elif database:
            raise arena_folder.ArenaError(
                "the backup holds an SQLite database, restored in the "
                "folder: --database is for a PostgreSQL backup")
        created = not folder.exists()
        try:
            folder.mkdir(parents=True, exist_ok=True)
            os.chmod(folder, 0o700)
            for name in FOLDERS:
                source = work / name
                if source.is_dir():
                    shutil.copytree(source, folder / name, symlinks=False)
                else:
                    (folder / name).mkdir()
            settings["database"] = database
            arena = arena_folder.Config(folder=folder.resolve(), **settings)
            if summary["database"] == "postgresql":
                _pg_restore(database, dump)
            else:
                shutil.copy(dump, arena.sqlite)
            arena.save()  # last: a folder without arena.json is no arena
        except BaseException:
            # Nothing half-restored is left: the folder as it was (absent, or empty).
            if created:
                shutil.rmtree(folder, ignore_errors=True)
            else:
                for entry in folder.iterdir():
                    if entry.is_dir():
                        shutil.rmtree(entry)
                    else:
                        entry.unlink()
            raise
    return arena


def _sqlite_backup(source: Path, target: Path) -> None:
    """SQLite's online backup: one consistent copy while others write (they wait briefly)."""
    reading = sqlite3.connect(source, timeout=60)
    writing = sqlite3.connect(target)
    try:
        reading.backup(writing)
    finally:
        writing.close()
        reading.close()


def _postgres_environment(database: dict) -> dict:
    environment = dict(os.environ)
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER"),
                          ("PASSWORD", "PGPASSWORD"), ("NAME", "PGDATABASE")):
        if database.get(key):
            environment[variable] = str(database[key])
    if database.get("OPTIONS", {}).get("sslmode"):
        environment["PGSSLMODE"] = database["OPTIONS"]["sslmode"]
    return environment


def _postgres_program(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise arena_folder.ArenaError(f"{name} is missing: install Debian's postgresql-client")
    return found


def _pg_dump(database: dict, target: Path) -> None:
    """pg_dump's custom format: one snapshot of the database (others go on writing)."""
    done = subprocess.run([_postgres_program("pg_dump"), "--format=custom", "--no-owner",
                           "--no-privileges", f"--file={target}"],
                          env=_postgres_environment(database), capture_output=True, text=True)
    if done.returncode != 0:
        raise arena_folder.ArenaError(f"pg_dump failed: {done.stderr.strip()}")


def _check_empty(url: str) -> None:
    """ArenaError unless the database of `url` holds no table (no arena is written over)."""
    import psycopg2
    connection = psycopg2.connect(url)
    try:
        with connection.cursor() as cursor:
            cursor.execute("select count(*) from information_schema.tables "
                           "where table_schema = 'public'")
            tables = cursor.fetchone()[0]
    finally:
        connection.close()
    if tables:
        raise arena_folder.ArenaError(
            "--database: that database holds tables already; restore "
            "into an empty one")


def _pg_restore(url: str, dump: Path) -> None:
    """The dump loaded into the (empty) database of `url`, in one transaction."""
    done = subprocess.run([_postgres_program("pg_restore"), "--no-owner", "--no-privileges",
                           "--exit-on-error", "--single-transaction", f"--dbname={url}",
                           str(dump)], capture_output=True, text=True)
    if done.returncode != 0:
        raise arena_folder.ArenaError(f"pg_restore failed: {done.stderr.strip()}")
