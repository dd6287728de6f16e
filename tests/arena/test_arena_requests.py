"""An outsider against a real arena (issue 55): `divercite-arena serve` (Django's threaded
server) and `serve --production` (gunicorn, reached as its HTTPS proxy reaches it), each
serving 20 teams and 10,000 finished games.

Checked on each: a 3 GB anonymous POST to /login/ (a made-up CSRF cookie, a multipart file;
streamed, never held) is answered 413 within 5 s, while /tmp and the arena's folder grow by a
few MB at most (Django's spooled uploads, open or deleted, counted by the server's open
files), and the arena answers / afterwards; then 32 such requests at once; a flood of 50
failed logins is answered 429 with Retry-After from the 11th, the audit log holds two entries
of it, another address is not affected; and while 16 anonymous readers loop on /api/games
for 20 s (limited by their address: 429s), a logged-in team's page is answered with a p95
under 2 s (the figures printed); through all of it, the arena's processes (serve, gunicorn)
under 500 MB at their peak. The arena runs under an address-space cap inherited from this
test, so that a regression fails the test instead of taking the machine. Traffic to 127.0.0.1
only; every loop bounded in count and time.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_requests
"""

from __future__ import annotations

import http.client
import multiprocessing
import os
import re
import resource
import select
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from arena_process import Server, add_teams, arena_peak_mb, descendants, init
from arena_support import HERE, package_environment
from test_arena_hostile import ADDRESS_SPACE, PEAK_MB
from test_arena_production import HOST, ProductionServer

GAMES = 10000
HUGE = 3 << 30  # the body announced
CHUNK = 1 << 16
ANSWER_SECONDS = 5.0
GROWTH_BYTES = 8 << 20  # "a few MB"
READERS = 16
READ_SECONDS = 20.0
READS_EACH = 20000  # a reader's bound besides the time
PAGE_P95_SECONDS = 2.0
FLOOD = 50
TEMPFILE_NAME = re.compile(r"^tmp[a-z0-9_]{8}")  # Python's tempfile, which Django spools with


def spooled_bytes(pids: List[int], folder: Path) -> int:
    """What could hold a spooled body: Python's temporary files at the top of /tmp, and the
    regular files the server's processes hold open in /tmp or the arena's folder (deleted
    ones too), in allocated bytes."""
    total = 0
    seen = set()
    with os.scandir("/tmp") as entries:
        for entry in entries:
            if TEMPFILE_NAME.match(entry.name):
                try:
                    if entry.is_file(follow_symlinks=False):
                        status = entry.stat(follow_symlinks=False)
                        seen.add((status.st_dev, status.st_ino))
                        total += status.st_blocks * 512
                except OSError:
                    pass
    for pid in pids:
        try:
            descriptors = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for descriptor in descriptors:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{descriptor}")
                if not (target.startswith("/tmp/") or target.startswith(str(folder))):
                    continue
                status = os.stat(f"/proc/{pid}/fd/{descriptor}")
            except OSError:
                continue
            key = (status.st_dev, status.st_ino)
            if key not in seen and os.path.isfile(f"/proc/{pid}/fd/{descriptor}"):
                seen.add(key)
                total += status.st_blocks * 512
    return total


def folder_bytes(folder: Path) -> int:
    total = 0
    for path in folder.rglob("*"):
        try:
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_blocks * 512
        except OSError:
            pass
    return total


class Growth:
    """The largest growth of spooled_bytes while it runs, sampled every 20 ms."""

    def __init__(self, pids: List[int], folder: Path):
        self.pids, self.folder = pids, folder
        self.baseline = spooled_bytes(pids, folder)
        self.most = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.sample, daemon=True)

    def sample(self):
        while not self.done.wait(0.02):
            self.most = max(self.most, spooled_bytes(self.pids, self.folder) - self.baseline)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exception):
        self.done.set()
        self.thread.join(10)


def huge_post(port: int, path: str, headers: Dict[str, str]) -> Tuple[Optional[int], float, int]:
    """A POST announcing a HUGE multipart body, sent as long as the server reads it (at most
    ANSWER_SECONDS): (the answer's status or None, the seconds it took, the bytes sent)."""
    started = time.monotonic()
    head = "".join(f"{name}: {value}\r\n" for name, value in {
        "Host": HOST, "Content-Type": "multipart/form-data; boundary=outsider",
        "Content-Length": str(HUGE), "Cookie": "csrftoken=" + "m" * 32, **headers}.items())
    part = (b'--outsider\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n'
            b"Content-Type: application/octet-stream\r\n\r\n")
    filler = b"\0" * CHUNK
    sent, answer = 0, b""
    with socket.create_connection(("127.0.0.1", port), timeout=ANSWER_SECONDS) as connection:
        connection.sendall(f"POST {path} HTTP/1.1\r\n{head}\r\n".encode() + part)
        sent = len(part)
        connection.setblocking(False)
        writing = True
        while time.monotonic() - started < ANSWER_SECONDS:
            readable, writable, _ = select.select([connection], [connection] if writing else [],
                                                  [], 0.2)
            if readable:
                try:
                    read = connection.recv(CHUNK)
                except OSError:  # reset after its answer: what was read is kept
                    break
                if not read:
                    break
                answer += read
                if b"\r\n\r\n" in answer:
                    break
            elif writable and sent < HUGE:
                try:
                    sent += connection.send(filler[:min(CHUNK, HUGE - sent)])
                except (BlockingIOError, InterruptedError):
                    pass
                except OSError:  # the server closed: its answer may wait to be read
                    writing = False
    status = re.match(rb"HTTP/1\.[01] (\d{3}) ", answer)
    return (int(status.group(1)) if status else None), time.monotonic() - started, sent


class Client:
    """Requests to the arena as its proxy would pass them (the allowed Host, https), from
    `source` (a loopback address of this machine) or with an X-Forwarded-For."""

    def __init__(self, port: int, source: Optional[str] = None, forwarded: Optional[str] = None):
        self.port, self.source = port, source
        self.headers = {"Host": HOST, "X-Forwarded-Proto": "https"}
        if forwarded:
            self.headers["X-Forwarded-For"] = forwarded
        self.cookies: Dict[str, str] = {}

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[Dict[str, str]] = None):
        """(status, headers, body); the cookies it sets kept."""
        connection = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60,
            source_address=(self.source, 0) if self.source else None)
        sent = dict(self.headers, **(headers or {}))
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            answer = response.read()
        finally:
            connection.close()
        for line in response.headers.get_all("Set-Cookie") or []:
            name, _, value = line.split(";", 1)[0].partition("=")
            self.cookies[name.strip()] = value
        return response.status, response.headers, answer

    def login(self, name: str, password: str):
        """The login form posted as a browser does: (status, headers, body)."""
        status, headers, form = self.request("GET", "/login/")
        if status != 200:  # the page itself refused
            return status, headers, form
        hidden = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        fields = urllib.parse.urlencode({"csrfmiddlewaretoken": hidden.decode(),
                                         "username": name, "password": password})
        return self.request("POST", "/login/", fields.encode(), {
            "Content-Type": "application/x-www-form-urlencoded",
            "Referer": f"https://{HOST}/login/"})


def read_games(port: int, seconds: float, results) -> None:
    """READERS threads reading /api/games without a token or a login for `seconds` (at most
    READS_EACH requests each); {status or error: count} put on `results`."""
    stop = time.monotonic() + seconds
    counted: Dict[object, int] = {}
    lock = threading.Lock()

    def read():
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        done = 0
        while time.monotonic() < stop and done < READS_EACH:
            done += 1
            try:
                connection.request("GET", "/api/games", headers={
                    "Host": HOST, "X-Forwarded-Proto": "https"})
                response = connection.getresponse()
                response.read()
                outcome = response.status
                if response.will_close:
                    connection.close()
            except (OSError, http.client.HTTPException) as failure:
                outcome = type(failure).__name__
                connection.close()
            with lock:
                counted[outcome] = counted.get(outcome, 0) + 1
        connection.close()
    readers = [threading.Thread(target=read) for _ in range(READERS)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(seconds + 60)
    results.put(counted)


def percentile(values: List[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class ArenaRequestsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # The servers started here inherit the cap (a soft limit, given back at the end).
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        capped = ADDRESS_SPACE if hard == resource.RLIM_INFINITY else min(ADDRESS_SPACE, hard)
        resource.setrlimit(resource.RLIMIT_AS, (capped, hard))
        cls.addClassCleanup(resource.setrlimit, resource.RLIMIT_AS, (soft, hard))
        cls.temp = Path(tempfile.mkdtemp(prefix="divercite_arena_requests_"))
        cls.template = cls.temp / "template"
        init(cls.template, tc=5)
        cls.token = add_teams(cls.template, "alpha")["alpha"]
        filled = subprocess.run(
            [sys.executable, "-c", "import sys\nfrom pathlib import Path\nimport load\n"
             f"load.populate(Path(sys.argv[1]), 20, {GAMES}, None)", cls.template],
            cwd=HERE, capture_output=True, text=True, env=package_environment(), timeout=300)
        if filled.returncode != 0:
            raise RuntimeError(f"the games could not be made: {filled.stderr}")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.temp, ignore_errors=True)

    def setUp(self):
        self.folder = self.temp / self.id().rsplit(".", 1)[-1] / "arena"
        shutil.copytree(self.template, self.folder)
        self.addCleanup(shutil.rmtree, self.folder.parent, ignore_errors=True)

    def test_the_built_in_server(self):
        server = Server(self.folder, workers=0)
        self.addCleanup(lambda: server.process.poll() is None and server.kill())
        port = urllib.parse.urlsplit(server.address).port
        self.outsider(port, server.process.pid, Client(port), Client(port, source="127.0.0.2"),
                      server.output)
        self.assertEqual(server.stop(), 0, server.output())

    def test_gunicorn(self):
        server = ProductionServer(self.folder)
        self.addCleanup(lambda: server.process.poll() is None and server.kill())
        # Behind the proxy, an address is the one it appends to X-Forwarded-For.
        self.outsider(server.port, server.process.pid, Client(server.port, None, "203.0.113.7"),
                      Client(server.port, None, "203.0.113.8"), server.output)
        self.assertEqual(server.stop(), 0, server.output())

    def outsider(self, port: int, pid: int, flooder: Client, other: Client, output):
        """The checks of the module's docstring, on the arena serving at `port`."""
        pids = descendants(pid)
        team = Client(port)
        status, _, body = team.login("alpha", self.token)
        self.assertEqual(status, 302, body[:500])
        status, _, _ = team.request("GET", "/teams/team000/")
        self.assertEqual(status, 200, output())

        # One 3 GB POST, then 32 at once.
        before = folder_bytes(self.folder)
        with Growth(pids, self.folder) as growth:
            status, seconds, sent = huge_post(port, "/login/", {"X-Forwarded-Proto": "https"})
        print(f"\n{self.id()}: a 3 GB POST answered {status} in {seconds:.2f} s "
              f"({sent >> 20} MB sent); spooled {growth.most >> 10} KB at most", flush=True)
        self.assertEqual(status, 413, output())
        self.assertLess(seconds, ANSWER_SECONDS)
        self.assertLess(growth.most, GROWTH_BYTES)
        self.assertEqual(Client(port).request("GET", "/")[0], 200, output())

        answers: List[Tuple[Optional[int], float, int]] = []

        def post():
            answers.append(huge_post(port, "/login/", {"X-Forwarded-Proto": "https"}))
        threads = [threading.Thread(target=post) for _ in range(32)]
        with Growth(pids, self.folder) as growth:
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(ANSWER_SECONDS + 30)
        slowest = max(seconds for _, seconds, _ in answers)
        print(f"{self.id()}: 32 at once answered {sorted({a[0] or 0 for a in answers})}, the "
              f"slowest in {slowest:.2f} s, {sum(a[2] for a in answers) >> 20} MB sent; "
              f"spooled {growth.most >> 10} KB at most", flush=True)
        self.assertEqual([status for status, _, _ in answers], [413] * 32, output())
        self.assertLess(slowest, ANSWER_SECONDS)
        self.assertLess(growth.most, GROWTH_BYTES)
        grown = folder_bytes(self.folder) - before
        self.assertLess(grown, GROWTH_BYTES, f"the arena's folder grew by {grown} bytes")
        self.assertEqual(Client(port).request("GET", "/")[0], 200, output())

        # 50 failed logins with the administrator's name: the 11th on waits.
        statuses, retry = [], None
        for _ in range(FLOOD):
            status, headers, _ = flooder.login("admin", "a guess")
            statuses.append(status)
            retry = retry or headers.get("Retry-After")
        print(f"{self.id()}: {FLOOD} failed logins answered {statuses.count(200)} x 200 then "
              f"{statuses.count(429)} x 429 (Retry-After {retry} s)", flush=True)
        self.assertEqual(statuses, [200] * 10 + [429] * (FLOOD - 10), output())
        self.assertTrue(0 < int(retry) <= 900, retry)
        with sqlite3.connect(self.folder / "arena.sqlite3", timeout=30) as database:
            audited = database.execute("SELECT detail FROM arena_auditentry WHERE action = "
                                       "'login failed'").fetchall()
        self.assertEqual(len(audited), 2, audited)
        self.assertEqual(other.request("GET", "/login/")[0], 200)

        # 16 anonymous readers of /api/games for 20 s; a team's page read meanwhile. The
        # readers are another process's threads: in this one, they would hold Python's lock
        # and the page's times would be this process's waits for it.
        results = multiprocessing.get_context("spawn").Queue()
        process = multiprocessing.get_context("spawn").Process(
            target=read_games, args=(port, READ_SECONDS, results))
        process.start()
        stop = time.monotonic() + READ_SECONDS
        latencies, failures = [], []
        while time.monotonic() < stop and len(latencies) < 2000:
            started = time.monotonic()
            status, _, _ = team.request("GET", "/teams/team000/")
            latencies.append(time.monotonic() - started)
            if status != 200:
                failures.append(status)
            time.sleep(0.05)
        counted = results.get(timeout=READ_SECONDS + 60)
        process.join(30)
        p95 = percentile(latencies, 0.95)
        print(f"{self.id()}: a team's page under {READERS} anonymous readers of /api/games: "
              f"{len(latencies)} reads, p50 {percentile(latencies, 0.5) * 1000:.0f} ms, "
              f"p95 {p95 * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms; the readers' "
              f"answers {dict(sorted(counted.items(), key=str))}", flush=True)
        self.assertEqual(failures, [])
        self.assertLess(p95, PAGE_P95_SECONDS)
        self.assertGreater(counted.get(429, 0), 0, "the readers were never limited")
        self.assertEqual(set(counted) - {200, 429}, set(), counted)
        peak = arena_peak_mb(pid)
        print(f"{self.id()}: the arena's peak: {peak} MB", flush=True)
        self.assertLess(peak, PEAK_MB)


if __name__ == "__main__":
    unittest.main()
