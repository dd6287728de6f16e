"""`serve --production`: the pages and the API served by gunicorn behind an HTTPS proxy, the
game workers in this process as with the built-in server (docs/arena.md, "Deployment").

This process binds the address itself (port 0 works, and a taken port is refused at once),
collects the static files into DIR/static (WhiteNoise serves them, hashed names cached for a
year), then starts gunicorn as a child on that socket (`python3 -m gunicorn
divercite.arena.project.wsgi`, gunicorn_config.py its settings and hooks). gunicorn dies with this
process, even killed (PR_SET_PDEATHSIG, set in its hooks), and is stopped first by Ctrl-C or
SIGTERM; the address line is printed once one of its workers has loaded the application.

Only the standard library is imported at the top: settings.py reads the names below."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import List, Optional

from ..arena_folder import ArenaError

# The environment of this process and its gunicorn (settings.py reads them).
PRODUCTION = "DIVERCITE_ARENA_PRODUCTION"  # "1": the production settings
ALLOWED_HOSTS = "DIVERCITE_ARENA_ALLOWED_HOSTS"  # the names the arena answers, comma-separated
SECRET_KEY = "DIVERCITE_ARENA_SECRET_KEY"  # overrides arena.json's secret_key when set
HSTS_SECONDS = "DIVERCITE_ARENA_HSTS_SECONDS"  # Strict-Transport-Security's max-age; 0: none
# What gunicorn_config.py's hooks read: the pid gunicorn must die with, the pipe it says
# "ready" on.
SERVE_PID = "DIVERCITE_ARENA_SERVE_PID"
READY_FD = "DIVERCITE_ARENA_READY_FD"

READY_SECONDS = 120  # gunicorn's start: its workers import Django and the arena
HTTP_WORKERS = 2  # gunicorn's processes by default (gunicorn_config.threads each)
STOP_SECONDS = 30  # gunicorn's graceful stop (gunicorn_config.graceful_timeout) and a margin
MISSING = ("serve --production needs {what}, which this Python ({python}) cannot import: on "
           "Debian or Ubuntu, `sudo apt install {debian}` (scripts/install-deps.sh arena); in "
           "a venv, `pip install 'divercite[arena]'`")


def _stop(signum, frame):
    raise KeyboardInterrupt


def allowed_hosts(given: List[str]) -> List[str]:
    """The names the arena answers to: --allowed-host, else DIVERCITE_ARENA_ALLOWED_HOSTS;
    ArenaError if none, or one that Django would never match."""
    hosts = given or [host.strip() for host in os.environ.get(ALLOWED_HOSTS, "").split(",")
                      if host.strip()]
    if not hosts:
        raise ArenaError(f"--production needs the name(s) the arena is reached by, as its "
                         f"users' browsers write it: --allowed-host arena.example.org "
                         f"(repeated for more; .example.org for every subdomain), or "
                         f"{ALLOWED_HOSTS}=arena.example.org,...")
    for host in hosts:
        if host == "*" or not host.strip(".") or any(c in host for c in "/:*, "):
            raise ArenaError(f"--allowed-host {host!r}: a host name (arena.example.org), "
                             "or .example.org for its subdomains: no scheme, port, path or "
                             "'*' (a request naming another host is refused)")
    return hosts


def add_arguments(served) -> None:
    """serve's flags for a deployment."""
    served.add_argument("--production", action="store_true",
                        help="serve the pages with gunicorn behind an HTTPS proxy (docs/arena.md, "
                             "Deployment)")
    served.add_argument("--allowed-host", action="append", default=[], metavar="NAME",
                        help=f"with --production: a name the arena is reached by (repeated for "
                             f"more; default: {ALLOWED_HOSTS}, comma-separated)")
    served.add_argument("--http-workers", type=int, metavar="N",
                        help="with --production: gunicorn's processes (default: 2), each of "
                             "4 threads")
    served.add_argument("--hsts", type=int, default=0, metavar="SECONDS",
                        help="with --production: Strict-Transport-Security's max-age "
                             "(default: 0, none)")


def configure(arguments) -> Optional[List[str]]:
    """For --production: checks what it needs and sets the environment its settings are read
    from (before Django is set up); the allowed hosts. None without --production."""
    if not arguments.production:
        given = [flag for flag, value in (("--allowed-host", arguments.allowed_host),
                                          ("--http-workers", arguments.http_workers),
                                          ("--hsts", arguments.hsts)) if value]
        if given:
            raise ArenaError(f"{', '.join(given)}: only with --production")
        return None
    if arguments.http_workers is not None and arguments.http_workers < 1:
        raise ArenaError("--http-workers: 1 or more")
    if arguments.hsts < 0:
        raise ArenaError("--hsts: 0 or more seconds")
    for module, what, debian in (("gunicorn", "gunicorn", "python3-gunicorn"),
                                 ("whitenoise", "WhiteNoise", "python3-whitenoise")):
        if importlib.util.find_spec(module) is None:
            raise ArenaError(MISSING.format(what=what, python=sys.executable, debian=debian))
    hosts = allowed_hosts(arguments.allowed_host)
    os.environ[PRODUCTION] = "1"
    os.environ[ALLOWED_HOSTS] = ",".join(hosts)
    os.environ[HSTS_SECONDS] = str(arguments.hsts)
    return hosts


def listen(host: str, port: int) -> socket.socket:
    """The socket gunicorn accepts on, bound here: a taken port fails now, and port 0's
    choice is known."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=2048)


def start_gunicorn(listener: socket.socket, http_workers: int, folder: Path):
    """gunicorn started on `listener`; (its process, the read end of its "ready" pipe)."""
    ready, ready_writer = os.pipe()
    package_root = str(Path(__file__).resolve().parents[3])  # where `divercite` is imported from
    paths = [package_root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(paths),
                       **{SERVE_PID: str(os.getpid()), READY_FD: str(ready_writer)})
    command = [sys.executable, "-m", "gunicorn", "divercite.arena.project.wsgi:application",
               "--config", "python:divercite.arena.project.gunicorn_config",
               "--bind", f"fd://{listener.fileno()}", "--workers", str(http_workers),
               "--name", f"divercite-arena {folder}"]
    try:
        # Its own session: a Ctrl-C in the terminal reaches this process alone, which stops
        # gunicorn gracefully, and the game workers after it.
        process = subprocess.Popen(command, env=environment, start_new_session=True,
                                   pass_fds=(listener.fileno(), ready_writer))
    finally:
        os.close(ready_writer)  # gunicorn's copies are the pipe's last writers: EOF if it dies
    return process, ready


def wait_ready(process: subprocess.Popen, ready: int) -> None:
    """Until a gunicorn worker has loaded the arena (a byte on the pipe); ArenaError if
    gunicorn exits first or takes longer than READY_SECONDS."""
    deadline = time.monotonic() + READY_SECONDS
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise ArenaError(f"gunicorn did not start within {READY_SECONDS} s")
            if select.select([ready], [], [], min(left, 1.0))[0]:
                if os.read(ready, 1):
                    return
                # End of file: every copy of the pipe is closed, gunicorn gone or going.
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(10)
                raise ArenaError(f"gunicorn stopped before serving (status "
                                 f"{process.poll()}; its messages above)")
            if process.poll() is not None:
                raise ArenaError(f"gunicorn exited with status {process.returncode} "
                                 "before serving (its messages above)")
    finally:
        os.close(ready)


def stop_gunicorn(process: subprocess.Popen) -> None:
    """gunicorn's graceful stop (SIGTERM: the requests under way finish), killed with its
    workers if it has not stopped within STOP_SECONDS."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
    try:
        process.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # its session's group: the arbiter's own
        process.wait()


def collect_static() -> None:
    from django.core.management import call_command
    call_command("collectstatic", interactive=False, verbosity=0)


def serve(host: str, port: int, workers: int, http_workers: Optional[int], hosts: List[str],
          out=sys.stdout) -> int:
    http_workers = http_workers or HTTP_WORKERS
    from django.conf import settings

    from .server import address_line, stop_workers, take_folder
    from ..core.serve_workers import Workers
    lock = take_folder(workers, out)  # noqa: F841 - held until the process ends
    signal.signal(signal.SIGTERM, _stop)  # from here on, SIGTERM is Ctrl-C: a clean stop
    gunicorn: Optional[subprocess.Popen] = None
    pool = None
    status = 0
    try:
        collect_static()
        with listen(host, port) as listener:
            gunicorn, ready = start_gunicorn(listener, http_workers, settings.ARENA.folder)
            bound = listener.getsockname()[1]
        wait_ready(gunicorn, ready)
        pool = Workers(workers, f"serve-{os.getpid()}")
        pool.start()
        processes = f"{http_workers} process{'es' if http_workers != 1 else ''}"
        print(address_line(host, bound, workers, f"; gunicorn, {processes}, for "
                                                 f"https://{hosts[0]}/ behind a proxy"),
              file=out, flush=True)
        gunicorn.wait()
        print(f"divercite-arena: gunicorn exited (status {gunicorn.returncode}): stopping",
              file=sys.stderr, flush=True)
        status = 1
    except KeyboardInterrupt:
        pass
    finally:
        if gunicorn is not None:
            stop_gunicorn(gunicorn)
        if pool is not None:
            stop_workers(pool, out)
    return status
