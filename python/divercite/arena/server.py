"""`serve`: the pages, the API and the game workers in one process, until Ctrl-C or SIGTERM.

The pages are served by Django's threaded WSGI server (the one of `runserver`, without its
reloader), enough for a class on one machine; a deployment behind gunicorn is the next
step. A clean stop queues again the games its workers were playing; a killed one leaves them
marked playing, and the next start queues them again: a game is counted once, when its
record is in the database."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import sys

from django.conf import settings

from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

from .. import programs
from . import queue
from .config import ArenaError
from .worker import Workers


def default_workers() -> int:
    return max(1, (os.cpu_count() or 2) - 1)


def _stop(signum, frame):
    raise KeyboardInterrupt


def hold_folder(arena):
    """The arena folder's lock, held while this process serves it (released when it exits,
    killed or not); ArenaError if another serve holds it."""
    lock = open(arena.folder / "serve.lock", "a+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "another process"
        lock.close()
        raise ArenaError(f"{arena.folder} is being served already (by {holder}); one serve "
                         "a folder") from None
    lock.seek(0)
    lock.truncate()
    lock.write(f"pid {os.getpid()}\n")
    lock.flush()
    return lock


def check_programs(workers: int) -> None:
    """What the workers run, found before any game is claimed: a game that cannot be played
    for want of a program would otherwise fail, and a new version be rejected for it."""
    if workers == 0:
        return
    for name, variable in (("divercite-match", "DIVERCITE_MATCH"),
                           ("divercite", "DIVERCITE_ENGINE"),
                           ("divercite-analyze", "DIVERCITE_ANALYZE")):
        try:
            programs.find(name, variable)
        except programs.ProgramNotFoundError as error:
            raise ArenaError(str(error)) from None
    if shutil.which("bwrap") is None:
        raise ArenaError("the sandbox that runs the teams' agents needs bubblewrap (`bwrap`): "
                         "on Debian or Ubuntu, `sudo apt install bubblewrap`")


def serve(host: str, port: int, workers: int, out=sys.stdout) -> int:
    check_programs(workers)
    lock = hold_folder(settings.ARENA)  # noqa: F841 - held until the process ends
    scratch = settings.ARENA.scratch
    shutil.rmtree(scratch, ignore_errors=True)  # what a killed arena's games left
    scratch.mkdir(mode=0o700)
    cut = queue.requeue_cut_games()
    if cut:
        print(f"{cut} game(s) cut by the last stop: queued again", file=out, flush=True)
    server = ThreadedWSGIServer((host, port), WSGIRequestHandler, ipv6=":" in host)
    server.daemon_threads = True
    server.set_app(get_wsgi_application())
    name = f"serve-{os.getpid()}"
    pool = Workers(workers, name)
    pool.start()
    shown = f"[{host}]" if ":" in host else host
    print(f"The arena is at http://{shown}:{server.server_address[1]}/ ({workers} game "
          f"worker{'s' if workers != 1 else ''}); Ctrl-C stops it", file=out, flush=True)
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        pool.stop()
        cut = queue.requeue_cut_games(worker_prefix=name + "/")
        print(f"\nStopped; {cut} game(s) being played were queued again", file=out, flush=True)
    return 0
