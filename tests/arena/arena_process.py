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


def environment() -> dict:
    programs = {variable: os.environ.get(variable) or str(REPO / "build" / "bin" / name)
                for variable, name in PROGRAMS.items()}
    # A crash of the arena (a signal in its C code) shows every thread's Python stack.
    return package_environment(PYTHONFAULTHANDLER="1", **programs)


def arena_command(*words) -> List[str]:
    return [sys.executable, "-m", "divercite.arena", *map(str, words)]


def init(folder: Path, tc: float = 5) -> str:
    """Creates the arena; the administrator's password."""
    result = subprocess.run(arena_command("init", folder, "--tc", tc, "--course", COURSE),
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


class Server:
    """`divercite-arena serve DIR --port 0`: started, its address read from what it prints;
    its output kept (the last lines, for a failure's message)."""

    def __init__(self, folder: Path, workers: int = 1):
        self.process = subprocess.Popen(
            arena_command("serve", folder, "--port", 0, "--workers", workers),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
            env=environment())
        self.lines: List[str] = []
        self.address: Optional[str] = None
        started = threading.Event()

        def read():
            for line in self.process.stdout:
                self.lines = self.lines[-400:] + [line.rstrip("\n")]
                found = re.search(r"The arena is at (http://\S+/)", line)
                if found:
                    self.address = found.group(1)
                    started.set()
            started.set()
        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not started.wait(120) or self.address is None:
            self.kill()
            raise RuntimeError("the arena did not start: " + "\n".join(self.lines[-20:]))

    def output(self) -> str:
        return "\n".join(self.lines[-40:])

    def stop(self, timeout: float = 30) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise RuntimeError("the arena did not stop within 30 s of SIGTERM: " +
                               self.output()) from None
        self._close()
        return code

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._close()

    def _close(self) -> None:
        self.reader.join(10)  # its output read to the end, then the pipe closed
        if not self.reader.is_alive():
            self.process.stdout.close()

    def request(self, path: str, token: Optional[str] = None, data: Optional[bytes] = None,
                content_type: Optional[str] = None):
        """(status, body bytes) of a request to the arena."""
        headers = {}
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


def poll(condition, seconds: float, what: str, interval: float = 0.5):
    """condition()'s first true value within `seconds`; AssertionError naming `what` else."""
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(interval)
