"""Whether a game was lost to a busy worker rather than by its loser (issue 57): the arena
counts a game only where each agent had the core it wanted.

The runner measures each side's processor time and its threads' wait for a core while they
could run (-cputime; tools/common/process_cpu.h). A side that lost on time while it got less
than the arena's `min_core_share` of a core when it wanted one was starved by other work on
the worker: the game is "worker overloaded", counts nowhere and is played again
(game_queue.finish). A side that slept, or waited on its pipe or a lock, was not starved (its
wait is the run queue's, not its time asleep), and neither was one that could run for only a
small part of its clock: a hanging agent loses on time as before. A limit of the sandbox
(memory, processes, disk) is no loss to a busy worker: no load moves it, and the wait of an
agent that forks up to it is mostly for its own processes. No Django here: pure functions
over a record."""

from __future__ import annotations

from typing import Optional

from ...records import GameRecord
from ..wording import duration
from .reasons import clock_ms

OVERLOADED = "worker overloaded: "  # how the words of such a game start (Game.set_aside)
# The part of its clock a side must have wanted a core for, for its loss to be the worker's.
RUNNABLE_SHARE = 0.5


def starved(record: GameRecord, min_share: float) -> Optional[str]:
    """Why the game's loss is the worker's, in the words its page shows; None if the loser
    had its core (or the record has no measure: a worker without -cputime)."""
    if record.termination != "time" or record.result not in ("1-0", "0-1"):
        return None
    if not record.cpu or not record.wait:
        return None
    loser = 0 if record.result == "0-1" else 1
    cpu, wait = record.cpu[loser], record.wait[loser]
    if cpu + wait <= 0:
        return None
    share = cpu / (cpu + wait)
    if share >= min_share:
        return None
    wall = clock_ms((record.tc or ["", ""])[loser]) or 0
    if cpu + wait < RUNNABLE_SHARE * wall:
        return None  # it did not want a core most of that time: not starved
    name = record.p1 if loser == 0 else record.p2
    return (f"{OVERLOADED}{name} had {share:.0%} of a core while it could run "
            f"({duration(cpu)} on a core, {duration(wait)} waiting for one); the arena asks "
            f"for {min_share:.0%}, so this game counts nowhere and is played again")
