"""Workers on other machines (issue 46): a real `divercite-arena serve` with no workers of its
own, and `divercite-arena worker` processes reaching it over HTTP, through the faults a class
meets: a worker killed with SIGKILL in the middle of a game (the game played again after the
lease), `serve` killed and started again (the worker's result kept once it is back), a
result whose answer is lost on the way (posted again, kept once), workers racing for the
queue, and on PostgreSQL the database killed and started again (the workers wait and go on).

Each time: every game finished is in the database once, its record replays legally, and no
process of a killed worker plays on.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_workers
"""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import tempfile
import threading
import time
import unittest
from pathlib import Path

from arena_process import Server, Worker, add_teams, add_worker_token, init, poll, zip_of
from arena_support import AGENTS, COURSE
from postgres_server import PostgresServer, free_port
from test_arena_process import STEADY, processes_holding

from divercite.records import GameRecord

# A check game is cut after its first 4 moves each (runner.CHECK_PLIES): at 1.5 s a move (6 s
# of its 20 s clock) the steady team's lasts long enough to be cut by a kill.
SLOW_STEADY = STEADY.replace("time.sleep(0.15)", "time.sleep(1.5)")
CLOCK = 20

LEASE_SECONDS = 4  # the tests' lease: a killed worker's game is free again within it
RANDOM = (COURSE / "divercite" / "random_player_divercite.py").read_bytes()


class LosingProxy:
    """A proxy between workers and the arena that forwards every request and answer, but
    loses the answer to the first result posted (the arena keeps it; the worker hears
    nothing): a post that fails half-way."""

    def __init__(self, upstream_port: int):
        self.upstream = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.results_posted = {}  # the result's path: how many times posted
        self.lost_path = None
        threading.Thread(target=self._accept, daemon=True).start()

    def close(self):
        self.listener.close()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._forward, args=(client,), daemon=True).start()

    @staticmethod
    def _request(client: socket.socket) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = client.recv(65536)
            if not chunk:
                return data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(body) < length:
            chunk = client.recv(65536)
            if not chunk:
                break
            body += chunk
        return head + b"\r\n\r\n" + body

    def _forward(self, client: socket.socket):
        with client:
            request = self._request(client)
            if not request:
                return
            answer = b""
            with socket.create_connection(("127.0.0.1", self.upstream)) as upstream:
                # The worker's requests say Connection: close: the answer ends with the stream.
                upstream.sendall(request)
                while True:
                    chunk = upstream.recv(65536)
                    if not chunk:
                        break
                    answer += chunk
            method, path = request.split(b" ", 2)[:2]
            if method == b"POST" and path.endswith(b"/result"):
                self.results_posted[path.decode()] = self.results_posted.get(path.decode(), 0) + 1
                if self.lost_path is None:
                    self.lost_path = path.decode()
                    return  # the arena has the record; the worker hears nothing
            client.sendall(answer)


class WorkersCase(unittest.TestCase):
    database = None  # SQLite in the arena's folder

    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_arena_workers_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)
        self.folder = self.temp / "arena"
        init(self.folder, tc=CLOCK, database=self.database_url())
        settings = json.loads((self.folder / "arena.json").read_text())
        settings["lease_seconds"] = LEASE_SECONDS
        (self.folder / "arena.json").write_text(json.dumps(settings))
        self.tokens = add_teams(self.folder, "steady", "rand", "rand2", "rand3")
        self.worker_token = add_worker_token(self.folder, "lab")
        self.port = free_port()
        self.workers = []
        self.server = None
        self.start_server()
        self.addCleanup(self.clean_up)

    def database_url(self):
        return None

    def start_server(self):
        self.server = Server(self.folder, workers=0, port=self.port)

    def clean_up(self):
        for worker in self.workers:
            if worker.process.poll() is None:
                worker.kill()
        if self.server is not None and self.server.process.poll() is None:
            self.server.kill()

    def worker(self, name: str, threads: int = 1, url=None) -> Worker:
        started = Worker(url or self.server.address, self.worker_token, self.temp / name,
                         threads)
        self.workers.append(started)
        return started

    def upload_steady(self) -> int:
        folder = self.temp / "uploads" / "steady"
        folder.mkdir(parents=True)
        (folder / "my_player.py").write_text(SLOW_STEADY)
        shutil.copy(AGENTS / "simple_moves.py", folder)
        status, answer = self.server.upload(self.tokens["steady"], "steady.zip", zip_of(folder))
        self.assertEqual(status, 201, answer)
        return answer["version"]

    def rows(self, sql: str, *parameters):
        """The arena database's rows for `sql` (%s parameters)."""
        if self.database_url() is None:
            with sqlite3.connect(self.folder / "arena.sqlite3", timeout=30) as connection:
                return connection.execute(sql.replace("%s", "?"), parameters).fetchall()
        import psycopg2
        connection = psycopg2.connect(self.database_url())
        try:
            with connection, connection.cursor() as cursor:
                cursor.execute(sql, parameters)
                return cursor.fetchall()
        finally:
            connection.close()

    def check_game(self, version: int):
        """(id, status, attempts, worker) of the version's check game, the only one."""
        games = self.rows("SELECT id, status, attempts, worker FROM arena_game "
                          "WHERE p1_id = %s AND purpose = 'check'", version)
        self.assertEqual(len(games), 1, games)
        return games[0]

    def playing_for(self, version: int):
        """The version's check game once its first moves have reached the arena (the worker's
        -live lines, for the game's page), still being played."""
        poll(lambda: self.check_game(version)[1] == "playing", 120,
             "the check game claimed by a worker")
        pk = self.check_game(version)[0]

        def moved():
            status, live = self.rows("SELECT status, live FROM arena_game WHERE id = %s",
                                     pk)[0]
            return status != "playing" or '"event":"move"' in live.replace(" ", "")
        poll(moved, 60, "the game's first moves sent by the worker", interval=0.2)
        self.assertEqual(self.check_game(version)[1], "playing", "the game ended too soon")
        return self.check_game(version)

    def done(self, version: int, seconds: float = 120):
        poll(lambda: self.check_game(version)[1] == "done", seconds,
             "the check game played and kept" + self.outputs())
        return self.check_game(version)

    def outputs(self) -> str:
        return "".join(f"\n--- worker {i}:\n{worker.output()}"
                       for i, worker in enumerate(self.workers)) + \
            f"\n--- serve:\n{self.server.output()}"

    def assert_records_replay(self):
        """Every finished game's record plays legally and agrees with its row."""
        rows = self.rows("SELECT id, result, record FROM arena_game WHERE status = 'done'")
        self.assertTrue(rows)
        for pk, result, text in rows:
            record = GameRecord.from_json(text)
            record.positions()
            self.assertEqual(record.result, result, pk)


class WorkersTest(WorkersCase):
    def test_a_killed_worker_s_game_is_played_again_after_its_lease(self):
        first = self.worker("first")
        version = self.upload_steady()
        pk, _, attempts, claim = self.playing_for(version)
        self.assertEqual(attempts, 1)
        self.assertTrue(claim.startswith("lab/"), claim)
        first.kill()
        poll(lambda: not processes_holding(str(self.temp / "first")), 15,
             "the killed worker's runner and engines gone")
        killed_at = time.monotonic()
        self.worker("second")
        _, status, attempts, again = self.done(version)
        self.assertGreaterEqual(time.monotonic() - killed_at, LEASE_SECONDS - 1)
        self.assertEqual(attempts, 2, "played again once, after the lease")
        self.assertNotEqual(again, claim)
        self.assertEqual(self.server.json(f"/api/agents/{version}",
                                          self.tokens["steady"])["status"], "ready")
        self.assert_records_replay()

    def test_a_killed_serve_started_again_keeps_the_worker_s_game(self):
        self.worker("first")
        version = self.upload_steady()
        self.playing_for(version)
        self.server.kill()
        time.sleep(2)
        self.start_server()
        _, _, attempts, _ = self.done(version)
        self.assertEqual(attempts, 1, "the worker's game went on through the restart")
        self.assert_records_replay()

    def test_a_result_whose_answer_is_lost_is_kept_once(self):
        proxy = LosingProxy(self.port)
        self.addCleanup(proxy.close)
        self.worker("first", url=f"http://127.0.0.1:{proxy.port}/")
        poll(lambda: proxy.results_posted.get(proxy.lost_path, 0) >= 2, 120,
             "the lost result posted again" + self.outputs())
        pk = int(proxy.lost_path.split("/")[-2])
        games = self.rows("SELECT status, attempts FROM arena_game WHERE id = %s", pk)
        self.assertEqual(games, [("done", 1)])
        self.assertEqual(proxy.results_posted[proxy.lost_path], 2, self.outputs())
        self.assert_records_replay()

    def test_racing_workers_take_each_game_once(self):
        racers = [self.worker("a", threads=2), self.worker("b", threads=2)]
        versions = []
        for team in ("rand", "rand2", "rand3"):
            status, answer = self.server.upload(self.tokens[team], "my_player.py", RANDOM)
            self.assertEqual(status, 201, answer)
            versions.append(answer["version"])
        poll(lambda: len(self.rows("SELECT id FROM arena_game WHERE status = 'done'")) >= 12,
             240, "12 games played by the two workers" + self.outputs())
        for racer in racers:
            self.assertEqual(racer.stop(), 0, racer.output())
        self.assertEqual(self.rows("SELECT id, worker FROM arena_game WHERE status = 'playing'"),
                         [], "a stopped worker's game given back at once")
        for version in versions:
            _, status, attempts, _ = self.check_game(version)
            self.assertEqual((status, attempts), ("done", 1))
        claims = self.rows("SELECT worker FROM arena_game WHERE status = 'done'")
        self.assertEqual(len(claims), len(set(claims)), "one claim played two games")
        self.assertEqual({claim[0].split("/")[0] for claim in claims}, {"lab"})
        self.assert_records_replay()


class WorkersOnPostgresqlTest(WorkersCase):
    def setUp(self):
        self.postgresql = PostgresServer()
        self.addCleanup(self.postgresql.close)
        super().setUp()

    def database_url(self):
        return self.postgresql.url

    def test_postgresql_killed_and_started_again(self):
        self.worker("first")
        version = self.upload_steady()
        self.playing_for(version)
        self.postgresql.stop("immediate")
        time.sleep(2)
        self.postgresql.start()
        _, _, attempts, _ = self.done(version)
        self.assertEqual(attempts, 1, "the worker's game went on while the database was down")
        self.assert_records_replay()


if __name__ == "__main__":
    unittest.main()
