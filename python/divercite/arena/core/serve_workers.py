"""The threads of `serve` that play the queued games, and those that analyse lost games.

Each game is one run of the match runner (runner.play_game: one game, the two versions'
players, teams through the course bridge in the sandbox); its record goes into the database
in one transaction (game_queue.finish). A killed arena leaves no game running (the runner dies
with its thread), and its games are queued again when it starts (game_queue.requeue_cut_games)."""

from __future__ import annotations

import logging
import random
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connection
from django.db.models import Q
from django.utils import timezone

from ... import match, programs
from ...records import GameRecord
from ..agent_files.shown_paths import ShownPaths
from ..play import house, matchmaking, runner, record_checks
from . import game_queue, standings, storage, tournament
from .models import Game, ServeWorker, Version

log = logging.getLogger("divercite.arena")
SCHEDULE = threading.Lock()  # one thread at a time chooses a matchmade pair
IDLE_SECONDS = 1.0
# divercite-analyze's settings for a lost game: the exact solver (the last 14 plies) and the
# proofs (from 24 plies) as by default, each proof's time halved, the earlier positions searched
# to depth 6: about 6 s a game on one core, where depth 8 takes 40.
ANALYSIS_FLAGS = ["--depth=6", "--prove-movetime=500"]
ANALYSIS_TIMEOUT = 1800
ANALYSING = "running"  # Game.analysis while an analyst holds it
# How long stop() waits for the workers: a game or an analysis ends within STOP_POLL_SECONDS
# of the stop, its output's readers within 10 s.
STOP_SECONDS = 60
# How often a game's worker reads whether the game is still its own.
CLAIM_POLL_SECONDS = 2.0
PRUNE_SECONDS = 3600
# How often an idle game worker says it is alive (models.ServeWorker: the staff's status).
SEEN_SECONDS = 30.0


def next_game(worker: str, rng: random.Random, leased: bool = False) -> Optional[Game]:
    """A queued game claimed, else a game matchmaking chose; None if none can be.
    `leased`: for a remote worker, whose hold on the game lasts as long as its heartbeats."""
    with SCHEDULE:
        game_queue.requeue_expired()
        # Checks up to their share of the workers, then the other queued games, then the
        # matchmaking's; a check past its share still goes before a worker idles.
        checks = game_queue.checks_allowed()
        game = game_queue.claim(worker, leased, checks=checks)
        if game is not None:
            return game
        game = matchmade_game(worker, rng, leased)
        if game is None and not checks:
            game = game_queue.claim(worker, leased)
        return game


def matchmade_game(worker: str, rng: random.Random, leased: bool) -> Optional[Game]:
    """A game between the pair matchmaking chooses, claimed; None if no pair can be."""
    current = standings.current_versions()
    ids = list(current)
    # The rated meetings: matchmaking's games and challenges, never a check or a tournament's.
    pairs = Game.objects.filter(p1_id__in=ids, p2_id__in=ids,
                                purpose__in=standings.RATED_PURPOSES)
    # A game set aside (lost to a busy worker, a record that fails the checks) is no meeting.
    done = list(pairs.filter(status=Game.DONE, set_aside="").values_list("p1_id", "p2_id"))
    playing = list(pairs.filter(status__in=(Game.PLAYING, Game.QUEUED))
                   .values_list("p1_id", "p2_id"))
    names = {line.team: line.elo for line in standings.table()}
    elo = {pk: names.get(name) for pk, (name, _, _) in current.items()}
    pair = matchmaking.choose(ids, elo, done, playing, settings.ARENA.placement_games, rng)
    if pair is None:
        return None
    p1, p2 = (Version.objects.select_related("entry").get(pk=pk) for pk in pair)
    return game_queue.start_matchmade_game(p1, p2, worker, leased)


def seats_of(game: Game):
    """The game's two seats (the first player's first), at the game's clock: its
    tournament's, else the arena's (a house engine keeps its own either way)."""
    tc = tournament.clock(game, settings.ARENA.tc)
    return [house.seat(version, version.entry.name, tc) for version in (game.p1, game.p2)]


def max_plies(game: Game) -> int:
    """Where the runner cuts the game: a check after its first moves, else nowhere (0)."""
    return runner.CHECK_PLIES if game.purpose == Game.CHECK else 0


def show_live(game: Game, lines: str) -> None:
    """The game's new -live lines kept for its page; called in the follower's own thread,
    whose connection is closed each time (the thread ends with the game)."""
    try:
        game_queue.append_live(game.pk, game.worker, lines)
    finally:
        connection.close()


def play(game: Game, stop: threading.Event) -> None:
    """Plays the game and keeps its record, or queues it again (game_queue.fail) with why not; once
    `stop` is set, ends it at once and leaves it playing (serve queues it again); once the game
    is no longer this worker's (a newer upload superseded the check), ends it at once."""
    arena = settings.ARENA
    seats = seats_of(game)
    agents = [version.folder / version.agent_file for version in (game.p1, game.p2)]
    game_stop = threading.Event()
    watching = threading.Thread(target=watch_claim, args=(game, stop, game_stop),
                                name=f"claim of game {game.pk}", daemon=True)
    watching.start()
    try:
        played = runner.play_game(seats, agents, arena.course, arena.scratch, game_stop,
                                  on_live=lambda lines: show_live(game, lines),
                                  max_plies=max_plies(game),
                                  shown=ShownPaths([version.folder for version in
                                                    (game.p1, game.p2)], arena.course))
    except match.MatchStopped:
        return
    except runner.GameNotPlayed as error:
        log.warning("game %s: %s", game.pk, error)
        game_queue.fail(game, str(error))
        return
    finally:
        game_stop.set()
        watching.join()
    record = played.record
    try:
        record_checks.check_record(record, [version.entry.name for version in (game.p1, game.p2)],
                                   [seat.clock_text() for seat in seats],
                                   max_plies(game))
    except record_checks.RecordRefused as refused:
        # The arena's own runner wrote it, yet it is not a game the arena can count: as if
        # the runner had failed (played again, or after ATTEMPTS failed with the reason).
        log.warning("game %s: the runner's record is refused: %s", game.pk, refused)
        game_queue.fail(game, f"the runner's record does not stand the arena's checks: {refused}")
        return
    if game_queue.finish(game, record, played.logs):
        log.info("game %s: %s %s %s (%s)", game.pk, game.p1.entry.name, record.result,
                 game.p2.entry.name, record.termination)


def watch_claim(game: Game, stop: threading.Event, game_stop: threading.Event) -> None:
    """Sets `game_stop` once `stop` is set or the game is no longer this worker's; returns
    when `game_stop` is set (the game over)."""
    try:
        while not game_stop.is_set():
            if stop.wait(CLAIM_POLL_SECONDS) or not game_queue.still_claimed(game.pk, game.worker):
                game_stop.set()
    except Exception:  # noqa: BLE001 - the database unreachable: the game goes on
        log.exception("watching game %s", game.pk)
        while not game_stop.is_set():
            if stop.wait(CLAIM_POLL_SECONDS):
                game_stop.set()
    finally:
        connection.close()


def note_seen(worker: str, last: Optional[float]) -> float:
    """The game worker's models.ServeWorker row seen now, if SEEN_SECONDS have passed since
    `last` (time.monotonic() of the last time, None for never); when it was last seen."""
    now = time.monotonic()
    if last is not None and now - last < SEEN_SECONDS:
        return last
    ServeWorker.objects.filter(name=worker).update(last_seen=timezone.now())
    return now


class Stopped(Exception):
    """A worker's task given up because the arena is stopping."""


def finished(process: subprocess.Popen, timeout: float, stop: threading.Event):
    """(stdout, stderr) of the process once it ends; TimeoutExpired past `timeout` seconds,
    Stopped once `stop` is set; the process killed if it does not end."""
    deadline = time.monotonic() + timeout
    try:
        while True:
            try:
                return process.communicate(timeout=match.STOP_POLL_SECONDS)
            except subprocess.TimeoutExpired:
                if stop.is_set():
                    raise Stopped from None
                if time.monotonic() >= deadline:
                    raise
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def analyse(game: Game, stop: threading.Event) -> None:
    """divercite-analyze of a lost game: its JSON kept in the game, its review page in the
    arena's analyses/ (served by the game's page); left pending if `stop` is set first."""
    arena = settings.ARENA
    page = arena.analyses / f"game-{game.pk}.html"
    try:
        with tempfile.TemporaryDirectory(prefix="analysis-", dir=arena.scratch) as folder:
            path = Path(folder) / "records.jsonl"
            # The record's "game" is the runner's (0, its one game): the arena's number
            # instead, which the review page's title and the JSON then give ("Game 57").
            record = GameRecord.from_json(game.record)
            record.game = game.pk
            path.write_text(record.to_json() + "\n", encoding="utf-8")
            process = subprocess.Popen(
                runner.launcher() + [
                    programs.find("divercite-analyze", "DIVERCITE_ANALYZE"),
                    f"--records={path}", f"--game={game.pk}", "--json", f"--html={page}",
                    *ANALYSIS_FLAGS],
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                text=True, errors="replace")
            out, err = finished(process, ANALYSIS_TIMEOUT, stop)
        if process.returncode != 0:
            raise RuntimeError(err.strip()[-2000:] or f"exit status {process.returncode}")
        Game.objects.filter(pk=game.pk).update(analysis="done", analysis_json=out.strip())
    except Stopped:
        Game.objects.filter(pk=game.pk, analysis=ANALYSING).update(analysis="pending")
        return
    except (OSError, RuntimeError, ValueError, subprocess.SubprocessError,
            programs.ProgramNotFoundError) as error:
        log.warning("analysis of game %s: %s", game.pk, error)
        Game.objects.filter(pk=game.pk).update(analysis="failed", analysis_json=str(error))


def claim_analysis() -> Optional[Game]:
    """The oldest lost game waiting for its analysis, now this analyst's; None if none."""
    while True:
        game = (Game.objects.filter(Q(analysis="pending") & Q(status=Game.DONE))
                .order_by("id").first())
        if game is None:
            return None
        if Game.objects.filter(pk=game.pk, analysis="pending").update(analysis=ANALYSING):
            return game


def requeue_cut_analyses() -> int:
    """The analyses a killed serve left under way waiting again (serve holds the folder: none
    of them goes on)."""
    return Game.objects.filter(analysis=ANALYSING).update(analysis="pending")


class Workers:
    """`count` game workers and the arena's analysts (arena.json's `analysts`, 1 by default),
    threads until stop(). Each game worker has its models.ServeWorker row while it runs,
    `last_seen` renewed every SEEN_SECONDS between games (the staff's status page)."""

    def __init__(self, count: int, name: str):
        self.stopping = threading.Event()
        self.name = name
        self.game_workers = [f"{name}/{i}" for i in range(count)]
        self.threads = [threading.Thread(target=self._games, args=(worker,),
                                         name=f"game worker {i}", daemon=True)
                        for i, worker in enumerate(self.game_workers)]
        self.threads += [threading.Thread(target=self._analyses, name=f"analyst {i}",
                                          daemon=True)
                         for i in range(settings.ARENA.analysts)]
        self.threads.append(threading.Thread(target=self._storage, name="storage",
                                             daemon=True))

    def start(self):
        requeue_cut_analyses()
        # One serve a folder (server.hold_folder): the rows of an earlier one are stale.
        now = timezone.now()
        ServeWorker.objects.all().delete()
        ServeWorker.objects.bulk_create([ServeWorker(name=worker, last_seen=now)
                                         for worker in self.game_workers])
        for thread in self.threads:
            thread.start()

    def stop(self) -> None:
        """Ends the games and the analysis being played (each game left playing, for serve to
        queue again) and waits for the threads: none is left touching the database or the
        package's engine while the interpreter exits."""
        self.stopping.set()
        deadline = time.monotonic() + STOP_SECONDS
        for thread in self.threads:
            thread.join(max(deadline - time.monotonic(), 0))
            if thread.is_alive():
                log.warning("%s did not stop within %s s", thread.name, STOP_SECONDS)
        try:
            ServeWorker.objects.filter(name__in=self.game_workers).delete()
        except DatabaseError:  # the database down: the next start clears them
            log.exception("the game workers' rows")

    def _games(self, worker: str):
        rng = random.Random()
        seen = None
        while not self.stopping.is_set():
            try:
                close_old_connections()
                seen = note_seen(worker, seen)
                game = next_game(worker, rng)
                if game is None:
                    self.stopping.wait(IDLE_SECONDS)
                    continue
                play(game, self.stopping)
            except Exception:  # noqa: BLE001 - a worker goes on; the game is played again
                log.exception("worker %s", worker)
                self.stopping.wait(IDLE_SECONDS)

    def _storage(self):
        """The folders no game needs removed (storage.prune), at the start and each hour."""
        while not self.stopping.is_set():
            try:
                close_old_connections()
                storage.prune()
            except Exception:  # noqa: BLE001 - tried again in an hour
                log.exception("storage")
            finally:
                connection.close()
            self.stopping.wait(PRUNE_SECONDS)

    def _analyses(self):
        while not self.stopping.is_set():
            try:
                close_old_connections()
                game = claim_analysis()
                if game is None:
                    self.stopping.wait(IDLE_SECONDS)
                    continue
                analyse(game, self.stopping)
            except Exception:  # noqa: BLE001
                log.exception("analyst")
                self.stopping.wait(IDLE_SECONDS)
