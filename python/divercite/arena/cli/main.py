"""The command line: `divercite-arena init | team add | team token | team list | upload | audit |
serve | backup | restore`. The administrator's actions here are recorded in the audit log
(audit.py)."""

from __future__ import annotations

import argparse
import os
import secrets
import shlex
import sys
from typing import List, Optional

from .. import arena_folder
from ..wording import counted, seconds
from ..project import production
from . import invocation, staff, tournaments, workers
from .arena_setup import setup


def init(arguments) -> int:
    folder = os.path.abspath(arguments.dir)
    arena = arena_folder.create(arena_folder.Path(folder), arguments.tc, arguments.database,
                                arguments.course)
    setup(folder)
    from django.contrib.auth.models import User
    password = secrets.token_urlsafe(12)
    User.objects.create_superuser("admin", email="", password=password)
    print(f"An arena in {arena.folder}: teams play at {seconds(arena.tc)} a game; the course "
          f"from {arena.course}")
    print(f"Administrator: admin {password}  (log in at /admin/; shown this once)")
    where = shlex.quote(folder)
    print("Next, from any shell: add the teams (each gets its token), then serve the arena:")
    print(f"  {arguments.program} team add {where} NAME...")
    print(f"  {arguments.program} serve {where}")
    return 0


def team_add(arguments) -> int:
    setup(arguments.dir)
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from ..core import audit
    from ..core.teams import add_team
    status = 0
    for name in arguments.names:
        try:
            with transaction.atomic():
                entry, token = add_team(name)
                audit.record(audit.COMMAND_LINE, "team add", entry.name)
        except ValidationError as error:
            reasons = "; ".join(f"{', '.join(messages)}" for messages in
                                error.message_dict.values())
            print(f"divercite-arena: team {name!r} not added: {reasons}", file=sys.stderr)
            status = 1
            continue
        print(f"{entry.name} {token}", flush=True)
    return status


def team_token(arguments) -> int:
    setup(arguments.dir)
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from ..core import audit
    from ..core.models import Entry
    from ..core.teams import reset_token
    team = Entry.objects.filter(name=arguments.name, kind=Entry.TEAM).first()
    if team is None:
        raise arena_folder.ArenaError(
            f"no team named {arguments.name!r} (divercite-arena team list {arguments.dir})")
    try:
        with transaction.atomic():
            token = reset_token(team)
            audit.record(audit.COMMAND_LINE, "team token reset", team.name)
    except ValidationError as refused:
        raise arena_folder.ArenaError(f"{team.name}: {' '.join(refused.messages)}") from None
    print(f"{team.name} {token}")
    print("(shown this once; the old token no longer works, as a key or a password)",
          file=sys.stderr)
    return 0


def team_list(arguments) -> int:
    quota = setup(arguments.dir).team_storage_mb
    from ..core.models import Entry
    from ..core.storage import used_bytes
    for entry in Entry.objects.filter(kind=Entry.TEAM):
        latest = entry.versions.order_by("-number").first()
        current = entry.current_version()
        print(f"{entry.name}  versions: {entry.versions.count()}"
              + (f", latest v{latest.number} {latest.status}" if latest else "")
              + (f", playing v{current.number}" if current else "")
              + f"; challenge games left: {entry.challenge_quota}"
              + f"; storage: {used_bytes(entry) / (1 << 20):.1f} of {quota} MB")
    return 0


def upload(arguments) -> int:
    setup(arguments.dir)
    from django.db import transaction
    from ..core import audit
    from ..core.models import Entry
    from ..core.teams import upload as upload_version
    from ..agent_files.uploads import UploadError
    team = Entry.objects.filter(name=arguments.team, kind=Entry.TEAM).first()
    if team is None:
        raise arena_folder.ArenaError(
            f"no team named {arguments.team!r} (the teams: {arguments.program} team list "
            f"{shlex.quote(os.path.abspath(arguments.dir))})")
    path = arena_folder.Path(arguments.file)
    try:
        with transaction.atomic():  # the administrator's: no limit an hour, but audited
            version = upload_version(team, path.name, path.read_bytes())
            audit.record(audit.COMMAND_LINE, "upload", team.name,
                         f"version {version.number} (id {version.pk}) from {path.name}")
    except UploadError as refused:
        print(f"divercite-arena: {path} refused: {refused}", file=sys.stderr)
        return 1
    print(f"{team.name} version {version.number} (id {version.pk}): checking")
    return 0


def audit_log(arguments) -> int:
    setup(arguments.dir)
    from ..core.audit import shown
    from ..core.models import AuditEntry
    entries = AuditEntry.objects.all()  # newest first
    for entry in entries[:arguments.limit] if arguments.limit else entries:
        print(shown(entry))
    return 0


def serve(arguments) -> int:
    hosts = production.configure(arguments)  # before Django reads the settings
    setup(arguments.dir)
    from ..project import server
    workers = server.default_workers() if arguments.workers is None else arguments.workers
    if hosts is not None:
        return production.serve(arguments.host, arguments.port, workers,
                                arguments.http_workers, hosts)
    return server.serve(arguments.host, arguments.port, workers)


def backup(arguments) -> int:
    arena = setup(arguments.dir)
    from django.db import connection
    from ..core.backup import create
    summary = create(arena, connection.settings_dict, arena_folder.Path(arguments.out))
    print(f"{arguments.out}: the arena in {arena.folder} as of {summary['taken']} "
          f"({summary['database']})")
    return 0


def restore(arguments) -> int:
    from ..core.backup import restore as restore_backup
    arena = restore_backup(arena_folder.Path(arguments.backup), arena_folder.Path(arguments.dir),
                           arguments.database)
    setup(str(arena.folder))
    from ..core.models import Entry, Game
    print(f"{arena.folder}: restored from {arguments.backup}: "
          f"{counted(Entry.objects.filter(kind=Entry.TEAM).count(), 'team')}, "
          f"{counted(Game.objects.filter(status=Game.DONE).count(), 'game')} played")
    return 0


def non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text}: 0 or more")
    return value


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(
        prog="divercite-arena",
        description="A class's Divercité competition as a web service: teams upload agents, "
                    "which play each other and the house opponents all the time.")
    commands = main_parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    created = commands.add_parser("init", help="create an arena in DIR")
    created.add_argument("dir", metavar="DIR")
    created.add_argument("--tc", type=float, default=900.0, metavar="SECONDS",
                         help="the teams' clock, seconds a game (default: the course's 900)")
    created.add_argument("--database", metavar="URL",
                         help="the database: postgresql://USER:PASSWORD@HOST:PORT/NAME "
                              "(default: SQLite in DIR)")
    created.add_argument("--course", metavar="DIR",
                         help="the course's framework (its root or its divercite folder; "
                              "default: DIVERCITE_COURSE_DIR, else the one beside this "
                              "repository)")
    created.set_defaults(run=init)
    team = commands.add_parser("team", help="add or list teams, or reset a team's token")
    team_commands = team.add_subparsers(dest="team_command", required=True,
                                        metavar="add|token|list")
    added = team_commands.add_parser("add", help="create teams; prints NAME TOKEN for each")
    added.add_argument("dir", metavar="DIR")
    added.add_argument("names", metavar="NAME", nargs="+")
    added.set_defaults(run=team_add)
    reset = team_commands.add_parser(
        "token", help="a new token for a team; prints NAME TOKEN",
        description="Gives the team a new token (its API key and its password on the pages), "
                    "printed once: the old one stops working at once, and the team's sessions "
                    "on the pages end.")
    reset.add_argument("dir", metavar="DIR")
    reset.add_argument("name", metavar="NAME")
    reset.set_defaults(run=team_token)
    listed = team_commands.add_parser("list", help="the teams and their versions")
    listed.add_argument("dir", metavar="DIR")
    listed.set_defaults(run=team_list)
    uploaded = commands.add_parser("upload", help="upload a version for a team (as its "
                                   "POST /api/agents does)")
    uploaded.add_argument("dir", metavar="DIR")
    uploaded.add_argument("team", metavar="TEAM")
    uploaded.add_argument("file", metavar="FILE", help="my_player.py or a .zip of its folder")
    uploaded.set_defaults(run=upload)
    audited = commands.add_parser("audit", help="the administrator's actions, newest first")
    audited.add_argument("dir", metavar="DIR")
    audited.add_argument("--limit", type=non_negative, default=50, metavar="N",
                         help="the newest N entries (default: 50; 0: all)")
    audited.set_defaults(run=audit_log)
    served = commands.add_parser("serve", help="the pages, the API and the game workers")
    served.add_argument("dir", metavar="DIR")
    served.add_argument("--host", default="127.0.0.1")
    served.add_argument("--port", type=int, default=8000)
    served.add_argument("--workers", type=non_negative, metavar="N",
                        help="games played at once (default: the cores less one)")
    production.add_arguments(served)
    served.set_defaults(run=serve)
    backed = commands.add_parser("backup", help="a copy of the arena, taken while it runs, "
                                 "as one .tar.gz")
    backed.add_argument("dir", metavar="DIR")
    backed.add_argument("out", metavar="OUT", help="the backup to write (a new file)")
    backed.set_defaults(run=backup)
    restored = commands.add_parser("restore", help="a new arena in DIR from a backup")
    restored.add_argument("backup", metavar="BACKUP")
    restored.add_argument("dir", metavar="DIR", help="a new (or empty) folder")
    restored.add_argument("--database", metavar="URL",
                          help="for a PostgreSQL backup: the empty database to load it into")
    restored.set_defaults(run=restore)
    workers.add_commands(commands)
    tournaments.add_commands(commands)
    staff.add_commands(commands)
    return main_parser


def main(argv: Optional[List[str]] = None, module_run: bool = False) -> int:
    """Runs the command line `argv` (default: this process's); `module_run`: started as
    `python -m divercite.arena`, which the commands it prints say again."""
    arguments = parser().parse_args(argv)
    arguments.program = invocation.program(module_run)
    try:
        return arguments.run(arguments)
    except arena_folder.ArenaError as error:
        print(f"divercite-arena: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"divercite-arena: {error}", file=sys.stderr)
        return 2
