"""`divercite-arena worker URL --worker-token TOKEN [--workers N]`: plays an arena's games on
this machine, reached over HTTP (worker_api on the arena's side): pull a game, fetch the
versions' files it lacks, play the game in the sandbox, post its record. No Django here: a
worker machine needs the package, the programs, bubblewrap and the course.

Nothing is lost or counted twice whatever fails: a heartbeat renews the worker's lease on its
game while it plays (with the moves played since the last one, for the game's live page); a
post that gets no answer (the arena restarting, its database down) is sent again until it is
answered, and the arena keeps a result posted twice once; a worker that stops answering loses
its game after the lease, and its late result is refused (409). SIGTERM or Ctrl-C gives the
games being played back to the arena at once."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import signal
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Optional

from ... import match
from . import house, runner
from ..agent_files import uploads
from ..agent_files.shown_paths import ShownPaths
from ..arena_folder import ArenaError
from ..wording import counted

log = logging.getLogger("divercite.arena.remote_worker")
TOKEN_VARIABLE = "DIVERCITE_ARENA_WORKER_TOKEN"  # the token where the command line shows none
REQUEST_SECONDS = 60  # one request's own timeout
# Waits between tries of an unanswered request, and between claims that found no game.
BACKOFF_SECONDS = (1, 2, 4, 8, 15)
IDLE_SECONDS = 2.0
LIVE_SECONDS = 1.0  # a game's new moves reach its page within this (and the arena's poll)


class WorkerRefused(ArenaError):
    """The arena refused the worker (a bad or revoked token, a bad URL): no use trying again."""


class Unanswered(RuntimeError):
    """The arena did not answer (down, restarting, its database down): try again."""


class Answer:
    def __init__(self, status: int, data: bytes, headers):
        self.status, self.data, self.headers = status, data, headers

    def json(self) -> dict:
        return json.loads(self.data.decode("utf-8")) if self.data else {}

    def reason(self) -> str:
        try:
            return str(self.json().get("error") or self.status)
        except ValueError:
            return f"HTTP {self.status}"


class ArenaClient:
    """The arena's workers' API at `url` with a worker token."""

    def __init__(self, url: str, token: str, stop: threading.Event):
        if not url.startswith(("http://", "https://")):
            raise ArenaError(f"{url}: the arena's address, http://HOST:PORT/ or https://...")
        self.url = url.rstrip("/")
        self.token = token
        self.stop = stop

    def once(self, method: str, path: str, fields: Optional[dict] = None) -> Answer:
        """One request; Unanswered if it got no answer or a 5xx (the arena's trouble)."""
        data = json.dumps(fields).encode("utf-8") if fields is not None else None
        request = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Authorization": f"Token {self.token}",
                     "Content-Type": "application/json", "Accept": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:
                return Answer(response.status, response.read(), response.headers)
        except urllib.error.HTTPError as answered:
            answer = Answer(answered.code, answered.read(), answered.headers)
            if answer.status >= 500:
                raise Unanswered(f"{method} {path}: {answer.status} {answer.reason()}") from None
            return answer
        except (urllib.error.URLError, OSError, ValueError) as failure:
            raise Unanswered(f"{method} {path}: {failure}") from None

    def call(self, method: str, path: str, fields: Optional[dict] = None) -> Optional[Answer]:
        """The request's answer, tried again while unanswered (waits growing to 15 s); None
        once the worker is stopping. WorkerRefused on 401 and 403: the token is not (or no longer)
        a worker's."""
        tries = 0
        while True:
            try:
                answer = self.once(method, path, fields)
            except Unanswered as failure:
                wait = BACKOFF_SECONDS[min(tries, len(BACKOFF_SECONDS) - 1)]
                if tries == 0 or wait == BACKOFF_SECONDS[-1]:
                    log.warning("%s; trying again in %s s", failure, wait)
                tries += 1
                if self.stop.wait(wait):
                    return None
                continue
            if answer.status in (401, 403):
                raise WorkerRefused(f"{self.url}: {answer.reason()}")
            return answer


class VersionFiles:
    """The team versions' files this worker has fetched, kept in `folder` (one subfolder a
    version): a version is fetched once, by whichever worker on this machine needs it first.
    The workers of a machine (Slurm tasks on one node) share the folder: a version's subfolder
    appears whole, by a rename, or not at all, and one fetched twice at once is kept once."""

    def __init__(self, folder: Path, client: ArenaClient):
        self.folder = folder
        self.client = client
        self.lock = threading.Lock()

    def agent(self, version: int) -> Optional[Path]:
        """The version's my_player.py here, fetched if need be; None once stopping."""
        target = self.folder / str(version)
        agent = target / uploads.AGENT_FILE
        with self.lock:
            if agent.is_file():
                return agent
            answer = self.client.call("GET", f"/api/worker/versions/{version}")
            if answer is None:
                return None
            if answer.status != 200:
                raise runner.GameNotPlayed(f"version {version}'s files: {answer.reason()}")
            digest = answer.headers.get("X-Content-SHA256")
            if digest and hashlib.sha256(answer.data).hexdigest() != digest:
                raise runner.GameNotPlayed(f"version {version}'s files came damaged")
            try:
                files = uploads.read_upload(f"version-{version}.zip", answer.data)
            except uploads.UploadError as bad:
                raise runner.GameNotPlayed(f"version {version}'s files: {bad}") from None
            staging = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=self.folder))
            try:
                uploads.unpack(files, staging / "files")
                try:
                    os.rename(staging / "files", target)
                except OSError:
                    if not agent.is_file():  # not another worker's whole copy: a fault here
                        raise
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        return agent


class Heartbeat:
    """While a game is played: renews the lease every `every` seconds, and sends the game's
    new -live lines within a second of their writing (each send renews the lease too); sets
    `lost` when the arena says the game is no longer this worker's, and `game_stop` then or
    when the worker stops."""

    def __init__(self, client: ArenaClient, game: int, claim: str, every: float,
                 game_stop: threading.Event):
        self.client, self.game, self.claim, self.every = client, game, claim, every
        self.game_stop = game_stop
        self.lost = threading.Event()
        self.done = threading.Event()
        self.pending = []  # -live lines not sent yet
        self.pending_lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, name=f"heartbeat {game}", daemon=True)

    def add_live(self, lines: str) -> None:
        with self.pending_lock:
            self.pending.append(lines)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()

    def _run(self):
        last = time.monotonic()
        while not self.done.wait(min(LIVE_SECONDS, self.every)):
            if self.client.stop.is_set():
                self.game_stop.set()
                return
            with self.pending_lock:
                batch = list(self.pending)
            lines = "".join(batch)
            if not lines and time.monotonic() - last < self.every:
                continue
            try:
                answer = self.client.once("POST", f"/api/worker/games/{self.game}/heartbeat",
                                          {"claim": self.claim, "live": lines})
            except Unanswered as failure:
                log.warning("game %s: heartbeat unanswered (%s); playing on", self.game, failure)
                continue
            last = time.monotonic()
            if answer.status == 200:
                with self.pending_lock:
                    del self.pending[:len(batch)]
            if answer.status == 409 or answer.status in (401, 403, 404):
                log.warning("game %s: %s; given up", self.game, answer.reason())
                self.lost.set()
                self.game_stop.set()
                return


class Worker:
    """`count` threads that claim, play and post games until `stop` is set."""

    def __init__(self, client: ArenaClient, count: int, name: str, folder: Path, course: str):
        self.client = client
        self.count = count
        self.name = name
        self.versions = VersionFiles(folder / "versions", client)
        # The games' files: a folder of this process's own (the machine's other workers, and
        # other machines where the folder is on a shared filesystem, have theirs).
        self.host = socket.gethostname()
        self.scratch = folder / "tmp" / f"{self.host}-{os.getpid()}"
        self.course = course
        self.refused: Optional[WorkerRefused] = None
        self.played = 0

    def run(self) -> int:
        self.versions.folder.mkdir(parents=True, exist_ok=True)
        self._remove_dead_scratch()
        self.scratch.mkdir(mode=0o700, parents=True)
        try:
            threads = [threading.Thread(target=self._loop, args=(f"{self.name}/{i}",),
                                        name=f"worker {i}") for i in range(self.count)]
            for thread in threads:
                thread.start()
            for thread in threads:
                while thread.is_alive():
                    thread.join(0.5)
        finally:
            shutil.rmtree(self.scratch, ignore_errors=True)
        if self.refused is not None:
            raise self.refused
        return self.played

    def _remove_dead_scratch(self):
        """What killed workers of this machine left (their process gone)."""
        for left in self.scratch.parent.glob(f"{self.host}-*"):
            pid = left.name.rpartition("-")[2]
            if not pid.isdigit():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                shutil.rmtree(left, ignore_errors=True)
            except PermissionError:
                pass  # alive, another user's

    def _loop(self, name: str):
        stop = self.client.stop
        while not stop.is_set():
            try:
                answer = self.client.call("POST", "/api/worker/claim", {"worker": name})
                if answer is None:
                    return
                if answer.status == 204:
                    stop.wait(IDLE_SECONDS)
                    continue
                if answer.status != 200:
                    log.warning("%s: claim refused: %s", name, answer.reason())
                    stop.wait(BACKOFF_SECONDS[-1])
                    continue
                self._play(answer.json())
            except WorkerRefused as refused:
                self.refused = refused
                stop.set()
            except Exception:  # noqa: BLE001 - a worker goes on; the game is played again
                log.exception("%s", name)
                stop.wait(IDLE_SECONDS)

    def _agents(self, seats):
        """Each seat's agent file (None for our engine's); None if stopping first."""
        agents = []
        for seat in seats:
            agent = self.versions.agent(seat.version) if seat.kind == "team" else None
            if seat.kind == "team" and agent is None:
                return None  # stopping
            agents.append(agent)
        return agents

    def _play(self, claimed: dict):
        game, claim = int(claimed["game"]), str(claimed["claim"])
        try:
            self._play_claimed(game, claim, claimed)
        except (WorkerRefused, Unanswered):
            raise
        except Exception as failure:  # noqa: BLE001 - this worker's fault: told, not kept
            log.exception("game %s", game)
            self._post(f"/api/worker/games/{game}/failed",
                       {"claim": claim, "reason": f"the worker failed: {failure!r}"}, game)

    def _play_claimed(self, game: int, claim: str, claimed: dict):
        seats = [house.Seat.from_json(fields) for fields in claimed["seats"]]
        path = f"/api/worker/games/{game}"
        game_stop = threading.Event()
        with Heartbeat(self.client, game, claim, float(claimed["heartbeat_seconds"]),
                       game_stop) as beat:
            try:
                agents = self._agents(seats)
                if agents is None:
                    raise match.MatchStopped("stopping")
                shown = ShownPaths([self.versions.folder / str(seat.version) for seat in seats
                                    if seat.kind == "team"], self.course)
                played = runner.play_game(seats, agents, self.course, self.scratch, game_stop,
                                          on_live=beat.add_live,
                                          max_plies=int(claimed.get("max_plies") or 0),
                                          shown=shown)
            except (match.MatchStopped, runner.GameNotPlayed) as failure:
                # A stop may reach the runner first (Slurm's scancel signals every process of
                # the job): a game cut by the stop is given back, not failed.
                if beat.lost.is_set():
                    return
                if self.client.stop.is_set() or isinstance(failure, match.MatchStopped):
                    self._post_once(f"{path}/release", {"claim": claim})
                    log.info("game %s: given back (stopping)", game)
                    return
                log.warning("game %s: not played: %s", game, failure)
                self._post(f"{path}/failed", {"claim": claim, "reason": str(failure)}, game)
                return
        if beat.lost.is_set():
            return
        record = played.record
        if self._post(f"{path}/result", {"claim": claim, "record": record.to_json(),
                                         "logs": played.logs}, game):
            self.played += 1
            log.info("game %s: %s %s %s (%s), kept", game, record.p1, record.result,
                     record.p2, record.termination)

    def _post(self, path: str, fields: dict, game: int) -> bool:
        """Posts until answered; True if the arena took it."""
        answer = self.client.call("POST", path, fields)
        if answer is None:
            log.warning("game %s: stopped before %s was answered", game, path)
            return False
        if answer.status != 200:
            log.warning("game %s: %s: %s", game, path, answer.reason())
            return False
        return True

    def _post_once(self, path: str, fields: dict) -> None:
        """A post whose loss costs nothing (the lease ends it anyway): one try."""
        try:
            self.client.once("POST", path, fields)
        except Unanswered:
            pass


def default_folder(url: str) -> Path:
    """Where a worker keeps the versions of the arena at `url` (one folder an arena)."""
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "divercite-arena-worker" / hashlib.sha256(url.encode()).hexdigest()[:16]


def worker_name() -> str:
    """This machine's name, and the Slurm task's where there is one."""
    name = socket.gethostname().split(".")[0] or "worker"
    task = os.environ.get("SLURM_ARRAY_TASK_ID")
    job = os.environ.get("SLURM_ARRAY_JOB_ID") or os.environ.get("SLURM_JOB_ID")
    if job:
        name += f"-{job}" + (f"_{task}" if task else "")
    return name


def run(url: str, token: str, workers: int, folder: Optional[Path], course: str) -> int:
    """Runs the worker until SIGTERM or Ctrl-C; the number of games it played."""
    runner.check_programs(analyser=False)
    stop = threading.Event()
    client = ArenaClient(url, token, stop)
    worker = Worker(client, workers, worker_name(), folder or default_folder(url), course)
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    log.info("playing the games of %s, %s at once, as %s; Ctrl-C stops", url, workers,
             worker.name)
    started = time.monotonic()
    played = worker.run()
    log.info("stopped: %s played in %.0f s", counted(played, "game"), time.monotonic() - started)
    return played
