"""The course's master program (main_divercite.py) as our tests and benches run it: a free port
for it to listen on, that port and its verdict awaited, and its end as a student's Ctrl-C would
end it (its shutdown sometimes never ends after a game).

The one copy of these for tests/python, tests/seahorse, tests/browser and bench/ (each puts
this folder on sys.path).
"""

import signal
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    """A port free now. Another process can take it before the master binds it: callers start
    the game again on another port when the master's log says "address already in use"."""
    with socket.socket() as probe:
        probe.bind(("localhost", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    """Whether something on this machine accepts connections on `port` now."""
    try:
        socket.create_connection(("localhost", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 30.0) -> None:
    """Waits until something listens on `port` (the master of a `-t host_game` game, before its
    remote player connects); RuntimeError if the master exits first or `timeout` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the master exited (code {process.returncode}) before listening "
                               f"on port {port}")
        if listening(port):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {timeout} s")


def wait_for_verdict(log: Path, process: subprocess.Popen, timeout: float) -> bool:
    """Waits until the master's log (its standard output and error) holds its VERDICT line or
    the master has exited; False if neither happened within `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while "VERDICT" not in log.read_text(errors="replace") and process.poll() is None:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def interrupt(process: subprocess.Popen, grace: float = 10.0) -> None:
    """Ends a master still running as a student's Ctrl-C would (SIGINT: seahorse then cancels
    its tasks and exits), and kills it if that has not ended it within `grace` seconds."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
