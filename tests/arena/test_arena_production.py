"""`divercite-arena serve DIR --production` as an operator runs it (issue 46): a real serve with
its real gunicorn (Debian's) on a free port, reached as the HTTPS proxy in front of it would
reach it (the Host it was given, X-Forwarded-Proto).

Checked: the standings page and the API answer; the pages link the static files by hashed
names, which WhiteNoise serves compressed with a year's immutable cache; the CSRF and session
cookies are Secure, and a team logs in over "https" (Referer checked); a Host not allowed is
refused (400), a request that came in clear text is sent to https://, a POST without Referer
is refused; an upload through the API (gunicorn's process) is checked by serve's game worker;
SIGTERM stops serve and every gunicorn process; after `kill -9` of serve its gunicorn
processes are gone (by their pids), and the arena serves again. And the refusals:
--production without an allowed host, or without gunicorn.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_production
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
import urllib.parse
import uuid
from pathlib import Path
from typing import Dict, List, Optional

from arena_process import Server, add_teams, arena_command, command_line, environment, init, poll
from arena_support import COURSE

HOST = "arena.test"
HTTPS = {"X-Forwarded-Proto": "https"}


def children(pid: int) -> List[int]:
    """The live (not zombie) processes whose parent is `pid`."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            state = process_state(int(entry))
            if state and state[1] == pid and state[0] != "Z":
                found.append(int(entry))
    return found


def process_state(pid: int):
    """(state letter, parent pid) of a process, None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as file:
            fields = file.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return fields[0], int(fields[1])


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie has ended: in a container, nobody may reap it)."""
    state = process_state(pid)
    return state is not None and state[0] != "Z"


class ProductionServer(Server):
    """`divercite-arena serve DIR --production --port 0`, its address read from what it
    prints; its output kept for a failure's message."""

    START_SECONDS = 180
    OUTPUT_SECONDS = 30

    def __init__(self, folder: Path, workers: int = 0, http_workers: int = 2):
        self.http_workers = http_workers
        super().__init__(folder, workers, extra=("--production", "--allowed-host", HOST,
                                                 "--http-workers", http_workers))
        self.port = urllib.parse.urlsplit(self.address).port

    def gunicorn(self) -> Dict[str, object]:
        """{"master": pid, "workers": [pids]} of serve's gunicorn, once all its workers run."""
        def found():
            masters = [pid for pid in children(self.process.pid)
                       if "gunicorn" in command_line(pid)]
            if len(masters) != 1:
                return None
            workers = children(masters[0])
            return ({"master": masters[0], "workers": workers}
                    if len(workers) == self.http_workers else None)
        return poll(found, 60, "serve's gunicorn and its workers", interval=0.1)

    def request(self, method: str, path: str, host: str = HOST,
                headers: Optional[dict] = None, body: Optional[bytes] = None):
        """(status, headers as a list of pairs, body) of one request, as the proxy makes it;
        redirects not followed."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        try:
            connection.request(method, path, body=body, headers={"Host": host, **(headers or {})})
            response = connection.getresponse()
            return response.status, response.getheaders(), response.read()
        finally:
            connection.close()

    def stop(self, timeout: float = 60) -> int:
        return super().stop(timeout)


def header(headers, name: str) -> List[str]:
    return [value for key, value in headers if key.lower() == name.lower()]


def cookie(headers, name: str) -> str:
    """The Set-Cookie line of cookie `name`; AssertionError if none."""
    lines = [line for line in header(headers, "Set-Cookie") if line.startswith(name + "=")]
    assert len(lines) == 1, f"Set-Cookie {name}: {header(headers, 'Set-Cookie')}"
    return lines[0]


class ArenaProductionTest(unittest.TestCase):
    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_arena_production_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)
        self.folder = self.temp / "arena"
        self.servers: List[ProductionServer] = []
        self.addCleanup(self.kill_servers)

    def kill_servers(self):
        for server in self.servers:
            if server.process.poll() is None:
                server.kill()

    def serve(self, **flags) -> ProductionServer:
        server = ProductionServer(self.folder, **flags)
        self.servers.append(server)
        return server

    def test_behind_a_proxy_then_stopped(self):
        init(self.folder, tc=5)
        token = add_teams(self.folder, "alpha")["alpha"]
        server = self.serve(workers=1)
        processes = server.gunicorn()

        # The standings page and the API, as the proxy passes them on.
        status, headers, page = server.request("GET", "/", headers=HTTPS)
        self.assertEqual(status, 200, page[:500])
        self.assertIn(b"Divercit", page)
        status, _, body = server.request("GET", "/api/standings", headers=HTTPS)
        self.assertEqual(status, 200, body[:500])
        teams = {line["team"] for line in json.loads(body)["standings"]}
        self.assertTrue({"random", "greedy", "engine-250k"} <= teams, teams)

        # The style sheet by its hashed name: compressed, cached a year, immutable.
        sheet = re.search(rb'href="(/static/arena/arena\.[0-9a-f]{12}\.css)"', page)
        self.assertIsNotNone(sheet, page[:800])
        status, headers, body = server.request("GET", sheet.group(1).decode(),
                                               headers={**HTTPS, "Accept-Encoding": "gzip"})
        self.assertEqual(status, 200)
        cache = header(headers, "Cache-Control")[0]
        self.assertIn("max-age=315360000", cache)
        self.assertIn("immutable", cache)
        self.assertEqual(header(headers, "Content-Encoding"), ["gzip"])
        status, _, _ = server.request("GET", "/static/arena/nothing.css", headers=HTTPS)
        self.assertEqual(status, 404)

        # Another Host is refused; clear text is sent to https://, the API's too.
        status, _, _ = server.request("GET", "/", host="evil.test", headers=HTTPS)
        self.assertEqual(status, 400)
        status, _, _ = server.request("GET", "/api/standings", host="evil.test", headers=HTTPS)
        self.assertEqual(status, 400)
        for path in ("/", "/api/standings"):
            status, headers, _ = server.request("GET", path)
            self.assertEqual(status, 301, path)
            self.assertEqual(header(headers, "Location"), [f"https://{HOST}{path}"])

        # A team logs in over "https": both cookies Secure, the Referer checked.
        status, headers, form = server.request("GET", "/login/", headers=HTTPS)
        self.assertEqual(status, 200)
        csrf = cookie(headers, "csrftoken")
        self.assertIn("; Secure", csrf)
        csrf_value = csrf.split(";", 1)[0].split("=", 1)[1]
        hidden = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
        fields = urllib.parse.urlencode({"csrfmiddlewaretoken": hidden.decode(),
                                         "username": "alpha", "password": token,
                                         "next": "/upload/"}).encode()
        post = {**HTTPS, "Cookie": f"csrftoken={csrf_value}",
                "Content-Type": "application/x-www-form-urlencoded"}
        status, _, body = server.request("POST", "/login/", headers=post, body=fields)
        self.assertEqual(status, 403, "a POST over https without Referer is refused")
        status, headers, body = server.request(
            "POST", "/login/", headers={**post, "Referer": f"https://{HOST}/login/"},
            body=fields)
        self.assertEqual(status, 302, body[:500])
        self.assertEqual(header(headers, "Location"), ["/upload/"])
        session = cookie(headers, "sessionid")
        self.assertIn("; Secure", session)
        self.assertIn("; HttpOnly", session)
        status, _, body = server.request(
            "GET", "/upload/", headers={**HTTPS, "Cookie": session.split(";", 1)[0]})
        self.assertEqual(status, 200, body[:500])
        self.assertIn(b"alpha", body)

        # An upload through the API (gunicorn's process), checked by serve's game worker.
        boundary = uuid.uuid4().hex
        player = (COURSE / "divercite" / "random_player_divercite.py").read_bytes()
        upload = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                  f"filename=\"my_player.py\"\r\nContent-Type: text/x-python\r\n\r\n"
                  ).encode() + player + f"\r\n--{boundary}--\r\n".encode()
        status, _, body = server.request(
            "POST", "/api/agents", body=upload,
            headers={**HTTPS, "Authorization": f"Token {token}",
                     "Content-Type": f"multipart/form-data; boundary={boundary}"})
        self.assertEqual(status, 201, body[:500])
        version = json.loads(body)["version"]

        def checked():
            status, _, body = server.request("GET", f"/api/agents/{version}",
                                             headers={**HTTPS, "Authorization": f"Token {token}"})
            answer = json.loads(body)
            return answer if status == 200 and answer["status"] != "checking" else None
        self.assertEqual(poll(checked, 180, "the upload checked")["status"], "ready")

        # SIGTERM: serve and all of its gunicorn stop.
        self.assertEqual(server.stop(), 0, server.output())
        self.assertIn("Stopped;", server.output())
        for pid in [processes["master"], *processes["workers"]]:
            self.assertFalse(alive(pid), f"gunicorn process {pid} left after SIGTERM: "
                                         f"{command_line(pid)}")

    def test_killed_leaves_no_gunicorn(self):
        init(self.folder, tc=5)
        server = self.serve()
        processes = server.gunicorn()
        pids = [processes["master"], *processes["workers"]]
        server.kill()  # SIGKILL: nothing of serve's runs any more
        poll(lambda: not any(alive(pid) for pid in pids), 40,
             f"gunicorn's processes {pids} gone after serve was killed")
        # The folder is free again (its lock died with serve), the port a new one.
        server = self.serve()
        status, _, _ = server.request("GET", "/api/standings", headers=HTTPS)
        self.assertEqual(status, 200)
        self.assertEqual(server.stop(), 0, server.output())

    def test_refusals(self):
        init(self.folder, tc=5)
        run = subprocess.run(arena_command("serve", self.folder, "--production"),
                             capture_output=True, text=True, env=environment(), timeout=120)
        self.assertEqual(run.returncode, 2)
        self.assertIn("--allowed-host", run.stderr)
        # gunicorn missing: a Python that cannot import it (sys.modules holds None).
        hidden = self.temp / "hidden"
        hidden.mkdir()
        (hidden / "sitecustomize.py").write_text("import sys\nsys.modules['gunicorn'] = None\n")
        hide = environment()
        hide["PYTHONPATH"] = os.pathsep.join([str(hidden), hide["PYTHONPATH"]])
        run = subprocess.run(arena_command("serve", self.folder, "--production",
                                           "--allowed-host", HOST),
                             capture_output=True, text=True, env=hide, timeout=120)
        self.assertEqual(run.returncode, 2)
        self.assertIn("python3-gunicorn", run.stderr)
        self.assertFalse((self.folder / "static").exists(), "refused before anything began")


if __name__ == "__main__":
    unittest.main()
