"""The command line of workers on other machines: `divercite-arena worker-token add | revoke |
list` (the administrator's, on the arena's machine), `worker URL` (on a worker machine) and
`slurm URL` (a Slurm job array of workers)."""

from __future__ import annotations

import argparse
import logging
import os
import shlex
import sys
from pathlib import Path

from .. import arena_folder
from ..wording import counted

TOKEN_HELP = ("a worker token (divercite-arena worker-token add); default: the environment "
              "variable DIVERCITE_ARENA_WORKER_TOKEN, which keeps it off the process list")


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: 1 or more")
    return value


def token_given(arguments) -> str:
    from ..play.remote_worker import TOKEN_VARIABLE
    token = arguments.worker_token or os.environ.get(TOKEN_VARIABLE, "")
    if not token:
        raise arena_folder.ArenaError(
            f"no worker token: --worker-token TOKEN, or set {TOKEN_VARIABLE}"
            f" (the administrator makes one: {arguments.program} worker-token add "
            "DIR NAME)")
    return token


def token_add(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from ..core import audit, worker_tokens
    try:
        with transaction.atomic():
            machine, token = worker_tokens.add(arguments.name)
            audit.record(audit.COMMAND_LINE, "worker-token add", machine.name)
    except ValidationError as refused:
        raise arena_folder.ArenaError("; ".join(refused.message_dict["name"])) from None
    print(f"{machine.name} {token}")
    print(f"(shown this once; a worker uses it: {arguments.program} worker URL "
          "--worker-token TOKEN)", file=sys.stderr)
    return 0


def token_revoke(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from django.core.exceptions import ValidationError
    from django.db import transaction
    from ..core import audit, worker_tokens
    try:
        with transaction.atomic():
            worker_tokens.revoke(arguments.name)
            audit.record(audit.COMMAND_LINE, "worker-token revoke", arguments.name)
    except ValidationError as refused:
        raise arena_folder.ArenaError("; ".join(refused.message_dict["name"])) from None
    print(f"{arguments.name}: revoked; its workers' games go to others after their lease")
    return 0


def token_list(arguments) -> int:
    from .arena_setup import setup
    setup(arguments.dir)
    from ..core.models import WorkerToken
    for machine in WorkerToken.objects.all():
        seen = f"{machine.last_seen:%Y-%m-%d %H:%M:%S}" if machine.last_seen else "never"
        state = f"revoked {machine.revoked:%Y-%m-%d %H:%M}" if machine.revoked else "valid"
        print(f"{machine.name}  {state}; created {machine.created:%Y-%m-%d %H:%M}; last seen "
              f"{seen}")
    return 0


def worker(arguments) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        datefmt="%H:%M:%S")
    from ..play import remote_worker
    course = arena_folder.find_course(arguments.course)
    folder = Path(arguments.folder) if arguments.folder else None
    remote_worker.run(arguments.url, token_given(arguments), arguments.workers, folder, course)
    return 0


def slurm(arguments) -> int:
    from ... import slurm as cluster
    from ..play.remote_worker import TOKEN_VARIABLE
    token = token_given(arguments)
    cluster.require()
    course = arena_folder.find_course(arguments.course)
    output = Path(arguments.output).resolve()
    output.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "divercite.arena", "worker", arguments.url,
               "--workers", str(arguments.workers), "--course", course]
    if arguments.folder:
        command += ["--folder", str(Path(arguments.folder).resolve())]
    # The jobs run in this environment (sbatch exports it): the token travels there, not on
    # their command lines, which every user of the cluster can read.
    os.environ[TOKEN_VARIABLE] = token
    job = cluster.submit("exec " + shlex.join(command), name="divercite-arena-worker",
                         output=str(output / "worker-%A_%a.out"), array=arguments.tasks,
                         cpus=arguments.workers, extra=shlex.split(arguments.sbatch))
    print(f"job {job}: {counted(arguments.tasks, 'worker')} of "
          f"{counted(arguments.workers, 'game')} at once for "
          f"{arguments.url}; their output in {output}/worker-{job}_*.out; scancel {job} stops "
          "them (their games go back to the arena)")
    return 0


def add_commands(commands) -> None:
    tokens = commands.add_parser("worker-token", help="the workers' tokens (add, revoke, list)")
    token_commands = tokens.add_subparsers(dest="token_command", required=True,
                                           metavar="add|revoke|list")
    added = token_commands.add_parser("add", help="a new worker token; prints NAME TOKEN")
    added.add_argument("dir", metavar="DIR")
    added.add_argument("name", metavar="NAME", help="the machine or cluster it is for")
    added.set_defaults(run=token_add)
    revoked = token_commands.add_parser("revoke", help="revoke a worker token")
    revoked.add_argument("dir", metavar="DIR")
    revoked.add_argument("name", metavar="NAME")
    revoked.set_defaults(run=token_revoke)
    listed = token_commands.add_parser("list", help="the worker tokens")
    listed.add_argument("dir", metavar="DIR")
    listed.set_defaults(run=token_list)

    def worker_flags(parsed, games_help):
        parsed.add_argument("url", metavar="URL", help="the arena, http://HOST:PORT/")
        parsed.add_argument("--worker-token", metavar="TOKEN", help=TOKEN_HELP)
        parsed.add_argument("--workers", type=positive, default=1, metavar="N", help=games_help)
        parsed.add_argument("--course", metavar="DIR",
                            help="the course's framework on this machine (default: "
                                 "DIVERCITE_COURSE_DIR, else the one beside this repository)")
        parsed.add_argument("--folder", metavar="DIR",
                            help="where the versions' files are kept (default: "
                                 "~/.cache/divercite-arena-worker/)")

    played = commands.add_parser("worker", help="play an arena's games on this machine, over "
                                 "HTTP")
    worker_flags(played, "games played at once (default: 1)")
    played.set_defaults(run=worker)
    submitted = commands.add_parser("slurm", help="submit workers as a Slurm job array")
    worker_flags(submitted, "games each task plays at once, and its cores (default: 1)")
    submitted.add_argument("--tasks", type=positive, required=True, metavar="N",
                           help="the job array's tasks: N workers")
    submitted.add_argument("--sbatch", default="", metavar="ARGS",
                           help='more sbatch arguments (partition, time, account), as '
                                '--sbatch="-p short -t 12:00:00"')
    submitted.add_argument("--output", default=".", metavar="DIR",
                           help="the folder of the tasks' output files (default: here)")
    submitted.set_defaults(run=slurm)
