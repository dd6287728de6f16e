"""A team that fights the arena (issue 55), against a real `serve`, the built-in server and
`--production` (gunicorn): uploads made to take its memory, its C stack, its disk or its
seconds, and agents that sit on their clock to hold the workers.

And a leaked worker token: another team's code refused outside its claim, forged results
(a result of 2-0, other clocks, a normal end with no moves, the side not to move blamed)
refused with the game left claimed and every page still 200; a fault no record can show (an
illegal move before any) kept, but the version left checking for another worker's verdict.

Checked, for each attack: answered 4xx with a reason in words in under 5 s, the arena's
processes (serve, gunicorn) under 500 MB at their peak, the pages and the standings still 200,
and what was there before still there. The arena runs under an address-space cap (prlimit),
so that a regression fails this test instead of taking the machine.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_hostile
"""

from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import subprocess
import tempfile
import time
import unittest
import urllib.parse
import uuid
import zipfile
from pathlib import Path
from typing import Optional

from arena_process import (Server, add_teams, add_worker_token, arena_command, arena_peak_mb,
                           environment, init, poll)
from arena_support import AGENTS

HOST = "arena.test"
# The arena's whole address space: far above what it needs (threads reserve stacks and
# malloc arenas), far below what the attacks took before (23 GB).
ADDRESS_SPACE = 8 << 30
PEAK_MB = 500
ANSWER_SECONDS = 5
TC = 15.0  # the arena's clock: a sleeper's check lasts about this long
SIMPLE_MOVES = (AGENTS / "simple_moves.py").read_bytes()
QUICK = b"""from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        return first_legal_action(current_state)
"""
# Legal moves, each using half of what is left: the whole clock, without losing on time.
SLEEPER = b"""import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        time.sleep(remaining_time / 2)
        return first_legal_action(current_state)
"""


def zipped(entries, compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in entries:
            archive.writestr(name, content)
    return buffer.getvalue()


def agent_zip(player: bytes) -> bytes:
    return zipped([("my_player.py", player), ("simple_moves.py", SIMPLE_MOVES)])


class HostileServer(Server):
    """`divercite-arena serve` (with `--production` if asked) under the address-space cap,
    reached as its HTTPS proxy would reach it."""

    START_SECONDS = 180
    OUTPUT_SECONDS = 30

    def __init__(self, folder: Path, production: bool, workers: int = 1):
        words = ["--production", "--allowed-host", HOST, "--http-workers", 2] \
            if production else []
        cap = ["prlimit", f"--as={ADDRESS_SPACE}", "--"] if shutil.which("prlimit") else []
        super().__init__(folder, workers, extra=words, prefix=cap)
        self.port = urllib.parse.urlsplit(self.address).port

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[dict] = None):
        """(status, body) of one request."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            connection.request(method, path, body=body, headers={
                "Host": HOST, "X-Forwarded-Proto": "https", **(headers or {})})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def upload(self, token: str, name: str, content: bytes):
        """(status, JSON answer, seconds) of POST /api/agents."""
        boundary = uuid.uuid4().hex
        body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; "
                f"filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                ).encode() + content + f"\r\n--{boundary}--\r\n".encode()
        started = time.monotonic()
        status, answer = self.request("POST", "/api/agents", body, {
            "Authorization": f"Token {token}",
            "Content-Type": f"multipart/form-data; boundary={boundary}"})
        return status, json.loads(answer), time.monotonic() - started

    def post_json(self, path: str, token: str, fields: dict):
        """(status, JSON answer) of a POST of `fields`."""
        status, body = self.request("POST", path, json.dumps(fields).encode(), {
            "Authorization": f"Token {token}", "Content-Type": "application/json"})
        return status, json.loads(body) if body else None

    def json(self, path: str, token: Optional[str] = None):
        status, body = self.request("GET", path, headers={"Authorization": f"Token {token}"}
                                    if token else None)
        if status != 200:
            raise AssertionError(f"GET {path}: {status} {body[:300]!r}")
        return json.loads(body)

    def arena_peak_mb(self) -> int:
        return arena_peak_mb(self.process.pid)

    def stop(self, timeout: float = 60) -> int:
        return super().stop(timeout)


def version_of(server: HostileServer, token: str, version: int) -> dict:
    return server.json(f"/api/agents/{version}", token)


class HostileArena:
    """A new arena in a folder of its own, and its server (the subclass's), stopped and the
    folder removed at the end."""

    production = False

    @classmethod
    def setUpClass(cls):
        cls.root = Path(tempfile.mkdtemp(prefix="divercite_arena_hostile_"))
        cls.folder = cls.root / "arena"
        init(cls.folder, tc=TC)

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        shutil.rmtree(cls.root, ignore_errors=True)


class HostileUploads(HostileArena):
    """The attacks, against the server the subclass starts."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        settings_path = cls.folder / "arena.json"
        arena_json = json.loads(settings_path.read_text())
        arena_json["upload_limit_per_hour"] = 1000  # every attack from one team
        settings_path.write_text(json.dumps(arena_json))
        cls.tokens = add_teams(cls.folder, "mallory", "sleeper", "bystander", "honest")
        cls.server = HostileServer(cls.folder, cls.production)

    def assert_still_serving(self):
        for path in ("/", "/games/", "/api/standings", "/teams/honest/"):
            status, _ = self.server.request("GET", path)
            self.assertEqual(status, 200, f"GET {path} after the attacks\n{self.server.output()}")
        peak = self.server.arena_peak_mb()
        print(f"\n  the arena's peak: {peak} MB", flush=True)
        self.assertLess(peak, PEAK_MB)

    def test_upload_bombs_are_refused_in_seconds(self):
        # Something to lose: a team's version, taken before the attacks.
        status, taken, _ = self.server.upload(self.tokens["honest"], "honest.zip",
                                              agent_zip(QUICK))
        self.assertEqual(status, 201, taken)
        attacks = [
            ("the compile bomb, zipped", "bomb.zip",
             zipped([("my_player.py", b"a = 1\nx = [" + b"a, " * (33 << 20) + b"]\n")]),
             "times smaller: a zip bomb"),
            ("the compile bomb, sent whole", "my_player.py",
             b"a = 1\nx = [a" + b", a" * (6 << 20) + b"]\n",
             "needs more than 512 MB|more than 10 s"),
            ("a sum of 200,000 ones", "my_player.py", b"x = " + b"1+" * 200_000 + b"1\n",
             "nested too deeply|compiler crashed"),
            ("a path longer than PATH_MAX", "long.zip",
             zipped([("my_player.py", QUICK), ("/".join(["d" * 99] * 50) + "/x.py", b"")]),
             r"a path of \d+ characters; at most 200"),
            ("99 MB of zeros", "zeros.zip",
             zipped([("my_player.py", QUICK), ("zeros.bin", bytes(99 << 20))]),
             "times smaller: a zip bomb"),
            ("200,000 entries", "entries.zip",
             zipped([("my_player.py", QUICK)] + [(f"{i}", b"") for i in range(200_000)],
                    zipfile.ZIP_STORED),
             "200001 entries in the zip; a version holds at most 2000 files"),
        ]
        for what, name, content, phrase in attacks:
            with self.subTest(what):
                status, answer, seconds = self.server.upload(self.tokens["mallory"], name,
                                                             content)
                print(f"\n  {what} ({len(content) >> 10} KB): {status} in {seconds:.2f} s: "
                      f"{answer.get('error')}", flush=True)
                self.assertEqual(status, 400, answer)
                self.assertRegex(answer["error"], phrase)
                self.assertLess(seconds, ANSWER_SECONDS)
        self.assert_still_serving()
        kept = version_of(self.server, self.tokens["honest"], taken["version"])
        self.assertIn(kept["status"], ("checking", "ready"))
        mallory = subprocess.run(arena_command("team", "list", self.folder),
                                 capture_output=True, text=True, env=environment(),
                                 timeout=120).stdout
        self.assertRegex(mallory, r"mallory  versions: 0; .*storage: 0\.0 of 200 MB")

    def test_a_sleeper_s_uploads_delay_another_team_s_check_by_one_check_at_most(self):
        first = None
        for _ in range(4):
            status, answer, _ = self.server.upload(self.tokens["sleeper"], "sleeper.zip",
                                                   agent_zip(SLEEPER))
            self.assertEqual(status, 201, answer)
            first = first or answer["version"]
        last = answer["version"]
        status, bystander, _ = self.server.upload(self.tokens["bystander"], "quick.zip",
                                                  agent_zip(QUICK))
        self.assertEqual(status, 201, bystander)
        started = time.monotonic()
        poll(lambda: version_of(self.server, self.tokens["bystander"], bystander["version"])
             ["status"] != "checking", 4 * TC + 120, "the bystander's check",
             interval=0.25)
        waited = time.monotonic() - started
        print(f"\n  the bystander's verdict after {waited:.1f} s (a sleeper's check: "
              f"{TC:g} s of its clock)", flush=True)
        # Behind the sleeper's last check at most: its clock, the opponent's moves, the
        # programs' starts; never behind all four.
        self.assertLess(waited, 2 * TC + 20)
        for version in range(first, last):
            superseded = version_of(self.server, self.tokens["sleeper"], version)
            self.assertEqual(superseded["status"], "rejected")
            self.assertRegex(superseded["reason"], "^superseded by version \\d+ before its check")
        self.assert_still_serving()


def forged(record: dict, **changes) -> dict:
    return dict(record, **changes)


class HostileWorkerToken(HostileArena):
    """A leaked worker token: it claims a team's check game (serve plays none itself here),
    then tries to read other teams' code and to post results the game did not have."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.tokens = add_teams(cls.folder, "victim", "other")
        cls.worker = add_worker_token(cls.folder, "leaked")
        cls.server = HostileServer(cls.folder, cls.production, workers=0)

    def test_a_leaked_token_holds_only_its_claim(self):
        server = self.server
        status, other, _ = server.upload(self.tokens["other"], "quick.zip", agent_zip(QUICK))
        self.assertEqual(status, 201, other)
        status, victim, _ = server.upload(self.tokens["victim"], "quick.zip", agent_zip(QUICK))
        self.assertEqual(status, 201, victim)
        # Before any claim, no team's code.
        for version in (other["version"], victim["version"]):
            status, _ = server.request("GET", f"/api/worker/versions/{version}",
                                       headers={"Authorization": f"Token {self.worker}"})
            self.assertEqual(status, 403)
        status, claim = server.post_json("/api/worker/claim", self.worker, {"worker": "x"})
        self.assertEqual(status, 200, claim)
        self.assertEqual(claim["seats"][0]["name"], "other")  # the oldest check first
        status, _ = server.request("GET", f"/api/worker/versions/{other['version']}",
                                   headers={"Authorization": f"Token {self.worker}"})
        self.assertEqual(status, 200)
        status, _ = server.request("GET", f"/api/worker/versions/{victim['version']}",
                                   headers={"Authorization": f"Token {self.worker}"})
        self.assertEqual(status, 403)  # not in its claim
        seats = claim["seats"]
        honest_looking = {
            "game": 0, "round": 0, "pair": -1, "p1": seats[0]["name"], "p2": seats[1]["name"],
            "result": "1-0", "termination": "normal", "reason": "", "start": "startpos",
            "opening": "", "engines": [0, 1], "tc": [f"tc={TC:g}", f"tc={seats[1]['tc']:g}"],
            "moves": [], "final": [0, 0]}
        attempts = {
            "a result of 2-0": forged(honest_looking, result="2-0"),
            "other clocks": forged(honest_looking, tc=["tc=5", "tc=6"]),
            "a normal end with no moves": honest_looking,
            "the checked side blamed out of turn": forged(
                honest_looking, result="1-0", termination="illegal", reason="forged"),
            "a termination of its own": forged(honest_looking, termination="forfeit"),
        }
        path = f"/api/worker/games/{claim['game']}/result"
        for what, record in attempts.items():
            with self.subTest(what):
                started = time.monotonic()
                status, answer = server.post_json(path, self.worker,
                                                  {"claim": claim["claim"], "record": record})
                self.assertEqual(status, 400, answer)
                self.assertTrue(answer["error"].startswith("record: "), answer)
                self.assertLess(time.monotonic() - started, ANSWER_SECONDS)
        for page in ("/", "/api/standings", "/teams/other/", "/api/worker/claim"):
            if page.startswith("/api/worker"):
                status, _ = server.post_json(page, self.worker, {"worker": "y"})
                self.assertIn(status, (200, 204))
            else:
                status, _ = server.request("GET", page)
                self.assertEqual(status, 200, page)
        # The game is still the claim's, the version still checking.
        self.assertEqual(server.json(f"/api/agents/{other['version']}",
                                     self.tokens["other"])["status"], "checking")
        status, _ = server.post_json(f"/api/worker/games/{claim['game']}/release",
                                     self.worker, {"claim": claim["claim"]})
        self.assertEqual(status, 200)
        # A fault it says it saw, which no record shows: kept as the game's, but the version
        # waits for another worker's verdict, and this token is not given that game.
        status, claim = server.post_json("/api/worker/claim", self.worker, {"worker": "x"})
        self.assertEqual((status, claim["seats"][0]["name"]), (200, "other"), claim)
        blamed = forged(honest_looking, result="0-1", termination="illegal",
                        reason="forged: the version is rejected")
        status, answer = server.post_json(f"/api/worker/games/{claim['game']}/result",
                                          self.worker, {"claim": claim["claim"],
                                                        "record": blamed})
        self.assertEqual((status, answer), (200, {"kept": True}))
        agent = server.json(f"/api/agents/{other['version']}", self.tokens["other"])
        self.assertEqual((agent["status"], agent["reason"]), ("checking", ""))
        status, claim = server.post_json("/api/worker/claim", self.worker, {"worker": "x"})
        self.assertEqual((status, claim["seats"][0]["name"]), (200, "victim"), claim)
        # The second opinion on other's check waits for another worker (a matchmade game of
        # the house's may come instead).
        status, claim = server.post_json("/api/worker/claim", self.worker, {"worker": "y"})
        self.assertIn(status, (200, 204))
        if status == 200:
            self.assertNotIn("other", [seat["name"] for seat in claim["seats"]], claim)


class BuiltInServerHostileTest(HostileUploads, unittest.TestCase):
    production = False


class BuiltInServerTokenTest(HostileWorkerToken, unittest.TestCase):
    production = False


PRODUCTION = unittest.skipUnless(
    shutil.which("gunicorn") or os.path.exists("/usr/bin/gunicorn3"),
    "serve --production needs gunicorn (scripts/install-deps.sh arena)")


@PRODUCTION
class ProductionServerHostileTest(HostileUploads, unittest.TestCase):
    production = True


@PRODUCTION
class ProductionServerTokenTest(HostileWorkerToken, unittest.TestCase):
    production = True


if __name__ == "__main__":
    unittest.main()
