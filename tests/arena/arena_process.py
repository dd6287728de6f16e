"""An arena run as its users run it: `python3 -m divercite.arena` in a process of its own,
reached over HTTP, stopped by SIGTERM or killed; shared by the process and browser tests."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
import zipfile
from pathlib import Path
from typing import Dict, List, Optional

from arena_support import COURSE, REPO, package_environment

PROGRAMS = {"DIVERCITE_MATCH": "divercite-match", "DIVERCITE_ENGINE": "divercite",
            "DIVERCITE_ANALYZE": "divercite-analyze"}


def environment(**more) -> dict:
    programs = {variable: os.environ.get(variable) or str(REPO / "build" / "bin" / name)
                for variable, name in PROGRAMS.items()}
    # A crash of the arena (a signal in its C code) shows every thread's Python stack.
    return package_environment(PYTHONFAULTHANDLER="1", **programs, **more)


def arena_command(*words) -> List[str]:
    return [sys.executable, "-m", "divercite.arena", *map(str, words)]


def init(folder: Path, tc: float = 5, database: Optional[str] = None) -> str:
    """Creates the arena (its database SQLite, or the PostgreSQL `database` URL); the
    administrator's password."""
    words = ["--database", database] if database else []
    result = subprocess.run(arena_command("init", folder, "--tc", tc, "--course", COURSE, *words),
                            capture_output=True, text=True, env=environment(), timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"divercite-arena init failed: {result.stderr}")
    return re.search(r"^Administrator: admin (\S+)", result.stdout, re.M).group(1)


def add_teams(folder: Path, *names) -> Dict[str, str]:
    """{name: token} of the new teams."""
    result = subprocess.run(arena_command("team", "add", folder, *names), capture_output=True,
                            text=True, env=environment(), timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"divercite-arena team add failed: {result.stderr}")
    return dict(line.split(" ", 1) for line in result.stdout.splitlines())


class OutputLines:
    """A child's output read as it comes, its last lines kept (for a failure's message); the
    first match of `started` is the address it prints once it is up."""

    def __init__(self, process: subprocess.Popen, what: str, started: re.Pattern):
        self.what = what
        self.lines: List[str] = []
        self.found: Optional[str] = None
        self.started = threading.Event()

        def read():
            for line in process.stdout:
                self.lines = self.lines[-400:] + [line.rstrip("\n")]
                match = started.search(line)
                if match and self.found is None:
                    self.found = match.group(1) if match.groups() else match.group(0)
                    self.started.set()
            self.started.set()
        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()

    def wait_for_start(self, seconds: float, kill) -> str:
        if not self.started.wait(seconds) or self.found is None:
            kill()
            raise RuntimeError(f"{self.what} did not start: " + "\n".join(self.lines[-20:]))
        return self.found

    def tail(self, count: int = 40) -> str:
        return "\n".join(self.lines[-count:])

    def __contains__(self, text: str) -> bool:
        return any(text in line for line in self.lines)


class Server:
    """`divercite-arena serve DIR --port 0`: started, its address read from what it prints;
    its output kept (the last lines, for a failure's message)."""

    START_SECONDS = 120
    # How long a stop waits for the end of the output (under --production, gunicorn's too,
    # which holds the pipe).
    OUTPUT_SECONDS = 10

    def __init__(self, folder: Path, workers: int = 1, port: int = 0, extra=(), prefix=()):
        """`extra`: more of serve's flags; `prefix`: a command that runs serve (prlimit)."""
        self.process = subprocess.Popen(
            [*prefix, *arena_command("serve", folder, "--port", port, "--workers", workers,
                                     *extra)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            env=environment())
        self.lines = OutputLines(self.process, "the arena",
                                 re.compile(r"The arena is at (http://\S+/)"))
        self.reader = self.lines.reader
        self.address = self.lines.wait_for_start(self.START_SECONDS, self.kill)

    def output(self) -> str:
        return self.lines.tail()

    def stop(self, timeout: float = 30) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise RuntimeError(f"the arena did not stop within {timeout:g} s of SIGTERM: " +
                               self.output()) from None
        self._close()
        return code

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._close()

    def _close(self) -> None:
        self.reader.join(self.OUTPUT_SECONDS)  # its output read to the end, then the pipe closed
        if not self.reader.is_alive():
            self.process.stdout.close()

    def request(self, path: str, token: Optional[str] = None, data: Optional[bytes] = None,
                content_type: Optional[str] = None):
        """(status, body bytes) of a request to the arena."""
        # serve --production redirects plain HTTP to https://: these come as through its
        # HTTPS proxy (the built-in server ignores the header).
        headers = {"X-Forwarded-Proto": "https"}
        if token:
            headers["Authorization"] = f"Token {token}"
        if content_type:
            headers["Content-Type"] = content_type
        request = urllib.request.Request(self.address + path.lstrip("/"), data=data,
                                         headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def json(self, path: str, token: Optional[str] = None):
        status, body = self.request(path, token)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:500]!r}")
        return json.loads(body)

    def upload(self, token: str, name: str, content: bytes):
        """POST /api/agents with the file: (status, JSON answer)."""
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        status, answer = self.request("/api/agents", token, body,
                                      f"multipart/form-data; boundary={boundary}")
        return status, json.loads(answer)


def zip_of(folder: Path) -> bytes:
    """A zip of the folder's files, inside one folder named as it (as a student's zip)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}/{path.relative_to(folder)}")
    return buffer.getvalue()


def poll(condition, seconds: float, what: str, interval: float = 0.5, detail=None):
    """condition()'s first true value within `seconds`; AssertionError naming `what` else,
    with what `detail()` then tells (the state that kept the condition false)."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            told = f"\n{detail()}" if detail is not None else ""
            raise AssertionError(f"not within {seconds} s: {what}{told}")
        time.sleep(interval)


def add_worker_token(folder: Path, name: str) -> str:
    """A new worker token's secret."""
    result = subprocess.run(arena_command("worker-token", "add", folder, name),
                            capture_output=True, text=True, env=environment(), timeout=120)
    if result.returncode != 0:
        raise RuntimeError(f"divercite-arena worker-token add failed: {result.stderr}")
    return result.stdout.split()[1]


class Worker:
    """`divercite-arena worker URL --workers N` on this machine, its output kept; its token in
    the environment (as the Slurm jobs pass it), its versions' files in `folder`."""

    def __init__(self, url: str, token: str, folder: Path, workers: int = 1):
        self.folder = folder
        self.process = subprocess.Popen(
            arena_command("worker", url, "--workers", workers, "--folder", folder,
                          "--course", COURSE),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            env=environment(DIVERCITE_ARENA_WORKER_TOKEN=token))
        self.lines = OutputLines(self.process, "the worker", re.compile(r"playing the games"))
        self.lines.wait_for_start(60, self.kill)

    def output(self) -> str:
        return self.lines.tail()

    def stop(self, timeout: float = 60) -> int:
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout)
        self.lines.reader.join(10)
        return code

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self.lines.reader.join(10)


def descendants(pid: int) -> List[int]:
    """`pid` and every live process under it (gunicorn's master and workers under serve)."""
    parents: Dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as file:
                    fields = file.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if fields[0] != "Z":
                parents[int(entry)] = int(fields[1])
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo.extend(child for child, parent in parents.items() if parent == current)
    return found


def command_line(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def peak_mb(pid: int) -> int:
    """The process's peak resident memory (VmHWM), in MB; 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) >> 10
    except OSError:
        pass
    return 0


def arena_peak_mb(serve_pid: int) -> int:
    """The largest peak of serve and its HTTP processes (gunicorn's), not of the games' or
    the upload checks' children, which have caps of their own."""
    return max(peak_mb(pid) for pid in descendants(serve_pid)
               if pid == serve_pid or "gunicorn" in command_line(pid))
