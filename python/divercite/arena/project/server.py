"""`serve`: the pages, the API and the game workers in one process, until Ctrl-C or SIGTERM.

The pages are served by Django's threaded WSGI server (the one of `runserver`, without its
reloader), enough for a class on one machine; `serve --production` serves them by gunicorn
instead (production.py). A clean stop queues again the games its workers were playing; a
killed one leaves them marked playing, and the next start queues them again: a game is
counted once, when its record is in the database. Remote workers' games are theirs: they
play on through a restart (worker_api)."""

from __future__ import annotations

import fcntl
import os
import shutil
import signal
import sys
import threading
import time

from django.conf import settings

from django.core.servers.basehttp import ServerHandler, ThreadedWSGIServer, WSGIRequestHandler
from django.core.wsgi import get_wsgi_application

from ..play import runner
from ..core import game_queue
from ..arena_folder import ArenaError
from ..wording import counted
from .request_limits import close_after
from ..core.serve_workers import Workers


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


class ArenaServer(ThreadedWSGIServer):
    # socketserver's backlog is 5 connections: a class's uploads at a deadline (50 at once)
    # would find theirs refused or reset by the kernel before a thread could take them.
    request_queue_size = 1024
    # A thread a connection, but at most this many answered at once (each holds a database
    # connection: PostgreSQL takes 100), the others waiting their turn.
    answering = threading.BoundedSemaphore(32)

    def process_request_thread(self, request, client_address):
        with self.answering:
            super().process_request_thread(request, client_address)


# After an answer that left a body unread (request_limits.close_after), the connection is
# closed rather than the rest read; what the client goes on sending is read and dropped for a
# moment first: closed at once with bytes unread, the kernel would reset it, and the client
# could lose the answer it was sent.
LINGER_SECONDS = 1.0
LINGER_BYTES = 8 << 20


def _unread(body) -> int:
    """The bytes of a request's body (Django's LimitedStream) not read yet."""
    if hasattr(body, "remaining"):  # Django before 4.2
        return body.remaining
    return body.limit - body._pos


class ArenaServerHandler(ServerHandler):
    def close(self):
        # Django's reads the rest of the body, all of it at once into memory: 3 GB for a body
        # refused unread (request_limits.py). A chunked body, which this server does not
        # read, would be taken for the next request.
        body = self.get_stdin()
        if close_after(self.environ) and (_unread(body) or
                                          self.environ.get("HTTP_TRANSFER_ENCODING")):
            self.request_handler.close_connection = True
            self.request_handler.left_unread = True
        else:
            body.read()
        super(ServerHandler, self).close()


class ArenaRequestHandler(WSGIRequestHandler):
    left_unread = False

    def handle(self):
        super().handle()  # its answers, then the connection shut for writing
        if self.left_unread:
            deadline = time.monotonic() + LINGER_SECONDS
            dropped = 0
            try:
                while dropped < LINGER_BYTES and time.monotonic() < deadline:
                    self.connection.settimeout(max(0.01, deadline - time.monotonic()))
                    read = self.connection.recv(1 << 16)
                    if not read:
                        break
                    dropped += len(read)
            except OSError:
                pass

    def handle_one_request(self):
        # Django's, with the handler above.
        self.raw_requestline = self.rfile.readline(65537)
        if len(self.raw_requestline) > 65536:
            self.requestline = ""
            self.request_version = ""
            self.command = ""
            self.send_error(414)
            return
        if not self.parse_request():
            return
        handler = ArenaServerHandler(self.rfile, self.wfile, self.get_stderr(),
                                     self.get_environ())
        handler.request_handler = self
        handler.run(self.server.get_app())


def take_folder(workers: int, out):
    """What every serve does first: the programs its workers run found, the folder held (the
    lock returned, to keep until the process ends), what a killed arena's games left removed,
    the games it cut queued again."""
    if workers:
        runner.check_programs()
    lock = hold_folder(settings.ARENA)
    scratch = settings.ARENA.scratch
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(mode=0o700)
    cut = game_queue.requeue_cut_games()
    if cut:
        print(f"{counted(cut, 'game')} cut by the last stop: queued again", file=out,
              flush=True)
    return lock


def address_line(host: str, port: int, workers: int, served_by: str = "") -> str:
    shown = f"[{host}]" if ":" in host else host
    return (f"The arena is at http://{shown}:{port}/ ({workers} game "
            f"worker{'s' if workers != 1 else ''}{served_by}); Ctrl-C stops it")


def stop_workers(pool: Workers, out) -> None:
    """The games being played ended and queued again, the analyses left waiting."""
    pool.stop()
    cut = game_queue.requeue_cut_games(worker_prefix=pool.name + "/")
    print(f"\nStopped; {counted(cut, 'game')} being played "
          f"{'was' if cut == 1 else 'were'} queued again", file=out, flush=True)


def serve(host: str, port: int, workers: int, out=sys.stdout) -> int:
    lock = take_folder(workers, out)  # noqa: F841 - held until the process ends
    server = ArenaServer((host, port), ArenaRequestHandler, ipv6=":" in host)
    server.daemon_threads = True
    server.set_app(get_wsgi_application())
    pool = Workers(workers, f"serve-{os.getpid()}")
    pool.start()
    print(address_line(host, server.server_address[1], workers), file=out, flush=True)
    signal.signal(signal.SIGTERM, _stop)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        stop_workers(pool, out)
    return 0
