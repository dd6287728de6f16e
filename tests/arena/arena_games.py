"""What the Django tests make of the arena: an agent's file, ready versions, and finished
games made of the course code's reference games (real, legal, with their final scores)
rather than played: the queue's and the standings' tests need records, not a runner."""

from __future__ import annotations

import json
import os
import tempfile
import threading
from typing import Callable, List, Optional

from arena_support import REFERENCE
from django.db import connections

from divercite import match
from divercite.arena.core import game_queue
from divercite.arena.core.models import Game, Version
from divercite.records import GameRecord, MoveRecord

AGENT = (b"from player_divercite import PlayerDivercite\n\n"
         b"class MyPlayer(PlayerDivercite):\n    pass\n")


def ready(version: Version) -> Version:
    """The version marked ready, as its check game would (read back)."""
    Version.objects.filter(pk=version.pk).update(status=Version.READY)
    version.refresh_from_db()
    return version


REFERENCE_GAMES = [json.loads(line) for line in
                   (REFERENCE / "games.jsonl").read_text().splitlines()]
# A drawn reference game (equal final scores): the first 40 hold none.
DRAWN = next(index for index, game in enumerate(REFERENCE_GAMES)
             if game["final"][0] == game["final"][1])


def result_of(final) -> str:
    return "1-0" if final[0] > final[1] else "0-1" if final[0] < final[1] else "1/2-1/2"


def record_of(game: Game, index: int, termination: str = "normal", reason: str = "",
              plies: int = 40, result: str = "", cpu=None, wait=None) -> GameRecord:
    """The reference game `index` as the record of `game` (its players' names); cut after
    `plies` plies, lost by the side to move (or `result`), for an ending that is not normal;
    `cpu` and `wait`: the runner's -cputime figures for each side (ms)."""
    reference = REFERENCE_GAMES[index % len(REFERENCE_GAMES)]
    moves = reference["moves"][:plies]
    final = reference["scores"][plies - 1] if plies < 40 else reference["final"]
    result = result or (result_of(final) if plies == 40 else
                        ("0-1" if plies % 2 == 0 else "1-0"))
    return GameRecord(game=0, round=0, pair=-1, p1=game.p1.entry.name, p2=game.p2.entry.name,
                      result=result, termination=termination, reason=reason,
                      start="startpos", opening="", engines=[0, 1], tc=["tc=5", "tc=5"],
                      moves=[MoveRecord(move=move, ms=10 + ply) for ply, move in
                             enumerate(moves)],
                      final=list(final), cpu=cpu, wait=wait)


def play(p1, p2, index: int, purpose: str = Game.MATCHMADE, **ending) -> Game:
    """A game of the two versions, queued, claimed and finished with a reference game."""
    game = Game.objects.create(p1=p1, p2=p2, purpose=purpose)
    claimed = game_queue.claim("test")
    assert claimed.pk == game.pk, "another game was queued first"
    assert game_queue.finish(claimed, record_of(claimed, index, **ending))
    return Game.objects.get(pk=game.pk)


def runner_ratings(games) -> dict:
    """{name: standing} as `divercite-match -ratings` fits the records of `games` (the
    reference the arena's Elo is checked against)."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "records.jsonl")
        with open(path, "w") as file:
            file.writelines(game.record + "\n" for game in games)
        return {standing.name: standing for standing in match.ratings(path)}


def race(threads: int, take: Callable[[int], Optional[Game]]) -> List[List[int]]:
    """The games' ids each of `threads` threads took, each calling `take(its number)` with a
    database connection of its own until it returns None, all started at once; an exception
    in a thread is raised here."""
    start = threading.Barrier(threads)
    taken: List[List[int]] = [[] for _ in range(threads)]
    failures: List[BaseException] = []

    def work(k: int):
        try:
            start.wait()
            while (game := take(k)) is not None:
                taken[k].append(game.pk)
        except BaseException as error:  # raised in the test's thread
            failures.append(error)
        finally:
            connections.close_all()

    running = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join(120)
    if failures:
        raise failures[0]
    return taken
