"""Playing the pairs: each pair a match of the runner (divercite-match), each agent through
the course bridge, the games its records lack only; a pair that fails kept with why."""

from __future__ import annotations

import concurrent.futures
import json
import time
from typing import List, Optional, Sequence

from .. import match
from ..course.bridged import agent_player
from .settings import Settings, finished_games
from .teams import Team, pairs_of, plain, shard_of


def player(settings: Settings, team: Team) -> match.Player:
    """The team's agent as the runner's player, through the course bridge (sandboxed unless
    --no-sandbox, with the ladder's limits and --course)."""
    return agent_player(team.name, team.agent, settings.tc, sandbox=settings.sandbox,
                        flags=settings.bridge_options)


def play_pair(settings: Settings, a: Team, b: Team) -> Optional[str]:
    """Plays the games the pair's records lack; None, or why it failed (whatever failed:
    the runner, or an exception here), also kept in the pair's .failed file until a run
    plays its games."""
    failed = settings.pair_path(a.name, b.name, ".failed")
    try:
        why = _play_pair(settings, a, b)
    except match.MatchError as error:
        why = str(error)
    except Exception as error:  # noqa: BLE001 - one pair never stops the ladder
        why = f"{type(error).__name__}: {error}"
    if why is None:
        failed.unlink(missing_ok=True)
        return None
    why = plain(why)
    try:
        failed.write_text(why + "\n", encoding="utf-8")
    except OSError as error:
        why += f" (not kept in {failed}: {error.strerror})"
    return f"{a.name} against {b.name}: {why}"


def _play_pair(settings: Settings, a: Team, b: Team) -> Optional[str]:
    records = settings.pair_path(a.name, b.name, ".jsonl")
    before = finished_games(records, strict=True)
    if before >= settings.games:
        return None
    started = time.monotonic()
    match.run([player(settings, a), player(settings, b)], games=settings.games,
              repeat=settings.games % 2 == 0, openings=settings.openings(),
              seed=settings.seed, concurrency=1, records=records,
              extra=["-html", str(settings.pair_path(a.name, b.name)),
                     "-startuptimeout", f"{settings.startup_timeout:g}"])
    played = finished_games(records, strict=True) - before
    with open(settings.out / "timings.jsonl", "a") as timings:
        timings.write(json.dumps({"a": a.name, "b": b.name, "games": played, "tc": settings.tc,
                                  "seconds": round(time.monotonic() - started, 3)}) + "\n")
    if before + played < settings.games:
        return (f"the runner ended with {before + played} of {settings.games} games in "
                f"{records.name}")
    return None


def play(settings: Settings, teams: Sequence[Team], shard=None, progress=print) -> List[str]:
    """Plays every pair of this shard that lacks games; the failures' reasons."""
    (settings.out / "pairs").mkdir(parents=True, exist_ok=True)
    match.runner()  # a missing runner is said once, before any pair
    missing = [(a, b) for a, b in shard_of(pairs_of(teams), shard)
               if finished_games(settings.pair_path(a.name, b.name, ".jsonl")) < settings.games]
    progress(f"{len(teams)} teams, {len(pairs_of(teams))} pairs; {len(missing)} to play")
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=settings.concurrency) as pool:
        futures = {pool.submit(play_pair, settings, a, b): (a, b) for a, b in missing}
        for future in concurrent.futures.as_completed(futures):
            a, b = futures[future]
            try:
                why = future.result()
            except Exception as error:  # noqa: BLE001 - play_pair's own failure
                why = plain(f"{a.name} against {b.name}: {type(error).__name__}: {error}")
            progress(f"  {a.name} - {b.name}: " + ("done" if why is None else f"failed: {why}"))
            if why is not None:
                failures.append(why)
    return failures
