"""The course's master program (main_divercite.py) as our tests and benches run it: a free port
for it to listen on, that port and its verdict awaited, and its end as a student's Ctrl-C would
end it (its shutdown sometimes never ends after a game); a whole game played with it.

The one copy of these for tests/python, tests/seahorse, tests/browser and bench/ (each puts
this folder on sys.path).
"""

import contextlib
import dataclasses
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence


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


@dataclasses.dataclass
class MasterGame:
    """What a game of the course's master left, by role ("master"; "remote" for the player
    that connected to a `-t host_game` master): each process's output (stdout and stderr),
    its exit status (None for one that did not exit by itself and was interrupted)."""

    logs: Dict[str, str]
    codes: Dict[str, Optional[int]]

    @property
    def hung(self) -> List[str]:
        return [role for role, code in self.codes.items() if code is None]


def play_game(main: Path, players: Sequence[Path], folder: Path, env: dict,
              mode: str = "local", timeout: float = 120.0,
              python: str = sys.executable) -> MasterGame:
    """Plays one game with the course's master `main` (main_divercite.py), headless, in
    `folder`: `-t local` with both players, or (mode "remote") `-t host_game` with players[0]
    and `-t connect` with players[1]. The game is over at the master's VERDICT line; the
    processes then have 15 s to exit by themselves, and are interrupted after. RuntimeError,
    with the master's last output, if it does not listen or reach a verdict in `timeout` s."""
    port = free_port()
    command = [python, str(main), "-g", "-l", "INFO", "-p", str(port)]
    if mode == "local":
        runs = [("master", command + ["-t", "local", *map(str, players)])]
    else:
        runs = [("master", command + ["-t", "host_game", str(players[0])]),
                ("remote", command + ["-t", "connect", str(players[1])])]
    processes, logs = {}, {}
    try:
        for role, arguments in runs:
            logs[role] = folder / f"{role}.log"
            with open(logs[role], "w") as log:
                processes[role] = subprocess.Popen(arguments, cwd=folder, env=env, stdout=log,
                                                   stderr=subprocess.STDOUT)
            if role == "master" and mode != "local":
                try:
                    wait_for_port(port, processes[role])
                except RuntimeError as error:
                    raise RuntimeError(f"{error}:\n{logs[role].read_text()[-3000:]}") from None
        if not wait_for_verdict(logs["master"], processes["master"], timeout):
            raise RuntimeError(f"no verdict after {timeout} s:\n" +
                               logs["master"].read_text()[-3000:])
        grace = time.monotonic() + 15  # for all the processes to exit by themselves
        for process in processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=max(0.1, grace - time.monotonic()))
        codes = {role: process.poll() for role, process in processes.items()}
    finally:
        for process in processes.values():
            interrupt(process)
    return MasterGame({role: path.read_text() for role, path in logs.items()}, codes)
