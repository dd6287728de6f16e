"""gunicorn's settings and hooks under `serve --production` (production.py starts it with
`--config python:divercite.arena.project.gunicorn_config`, the socket and the process count on its
command line). gunicorn reads every module-level name that is one of its settings: helpers
here start with "_". An operator changes any of them with GUNICORN_CMD_ARGS, which gunicorn
puts above this file (e.g. GUNICORN_CMD_ARGS="--access-logfile - --threads 8")."""

import ctypes
import os
import signal

from divercite.arena.project.production import READY_FD, SERVE_PID

# Threads in each process: a slow request (a record, an upload) holds one thread, not a whole
# process of Django.
worker_class = "gthread"
threads = 4
# What a stop grants the requests under way (production.STOP_SECONDS waits a little more).
graceful_timeout = 20
# The proxy in front sets X-Forwarded-Proto; Django reads it (SECURE_PROXY_SSL_HEADER).
# gunicorn's own reading of it (for wsgi.url_scheme) trusts the proxy's address alone: its
# default, 127.0.0.1, a proxy on this machine.

_PR_SET_PDEATHSIG = 1


def _die_with_parent(parent: int, signum: int) -> None:
    """This process gets `signum` when its parent dies (Linux's PR_SET_PDEATHSIG); if the
    parent is gone already (it died before this ran), it stops now."""
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent:
        os.kill(os.getpid(), signum)


def on_starting(server):
    # gunicorn's master, in its main thread (the death signal follows the thread that forked
    # it: serve's main thread, which lives as long as serve). SIGTERM: its graceful stop,
    # which stops its workers too.
    _die_with_parent(int(os.environ[SERVE_PID]), signal.SIGTERM)


def post_fork(server, worker):
    # A worker dies at once if its master is killed (SIGKILL, out of memory): nothing then
    # would stop it.
    _die_with_parent(server.pid, signal.SIGKILL)


def post_worker_init(worker):
    # The arena loaded in a worker: serve prints its address once the first says so. serve
    # reads one byte and closes the pipe: the later workers' writes fail, as they may.
    ready = int(os.environ[READY_FD])
    try:
        os.write(ready, b".")
    except OSError:
        pass
    os.close(ready)
