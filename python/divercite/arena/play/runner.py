"""One game played by the match runner, on the arena's own machine (serve's workers) or on a
worker's (`divercite-arena worker`): no Django here, so that a worker machine needs only the
package, the programs and the course.

The runner is started under `setpriv --pdeathsig KILL` where the host has it, so that a killed
worker leaves no game running: the runner dies with the thread that started it, its engines
with their runner."""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Callable, List, Optional, Sequence

from ... import match, programs
from ...course.bridge.agent_log import read_tail
from ...records import GameRecord, read_records
from . import house, live
from ..agent_files.shown_paths import ShownPaths
from ..arena_folder import ArenaError

# How long a game may take beyond both clocks: the engines' starts (60 s each), the runner's
# own waits; past it the runner has hung.
GAME_MARGIN_SECONDS = 20 + 2 * 60 + 120
# A new version's check is a smoke test: the version told the whole clock, the game cut after
# its first moves (four each), so that a typical agent's verdict comes in about a minute; its
# first whole game is its first rated one.
CHECK_PLIES = 8


@dataclasses.dataclass
class Played:
    """A game as a worker played it: the runner's record, and what each side's agent wrote
    (its log: the last 64 KB, "" for our engine's seats)."""
    record: GameRecord
    logs: List[str]


class GameNotPlayed(RuntimeError):
    """The runner could not play the game (a program missing, a crash of the runner, a
    record missing): the message says why; the game is to be played again."""


def launcher():
    setpriv = shutil.which("setpriv")
    return [setpriv, "--pdeathsig", "KILL"] if setpriv else []


def check_programs(analyser: bool = True) -> None:
    """What a worker runs, found before any game is claimed: a game that cannot be played for
    want of a program would otherwise fail, and a new version be rejected for it."""
    wanted = [("divercite-match", "DIVERCITE_MATCH"), ("divercite", "DIVERCITE_ENGINE")]
    if analyser:
        wanted.append(("divercite-analyze", "DIVERCITE_ANALYZE"))
    for name, variable in wanted:
        try:
            programs.find(name, variable)
        except programs.ProgramNotFoundError as error:
            raise ArenaError(str(error)) from None
    if shutil.which("bwrap") is None:
        raise ArenaError("the sandbox that runs the teams' agents needs bubblewrap (`bwrap`): "
                         "on Debian or Ubuntu, `sudo apt install bubblewrap`")


def play_game(seats: Sequence[house.Seat], agents: Sequence[Optional[Path]], course: str,
              scratch: Path, stop: threading.Event,
              on_live: Optional[Callable[[str], None]] = None, max_plies: int = 0,
              shown: ShownPaths = ShownPaths()) -> Played:
    """One game between `seats` (the first moves first; a team's seat plays its agent file
    in `agents`), each move's processor time measured (-cputime), cut after `max_plies`
    moves if not 0 (a check: CHECK_PLIES); GameNotPlayed if the runner could not play it,
    match.MatchStopped once `stop` is set (the runner killed at once). `on_live` is handed
    the runner's -live lines as the game goes (live.following), for the game's page. The
    record's reason, the agents' logs and GameNotPlayed's reason, which the game's teams
    read, name no folder of `shown`'s (the agents' files are named as in their uploads)."""
    timeout = sum(seat.tc for seat in seats) + GAME_MARGIN_SECONDS
    try:
        with tempfile.TemporaryDirectory(prefix="game-", dir=scratch) as folder:
            path = Path(folder) / "records.jsonl"
            live_path = Path(folder) / "live.jsonl"
            logs = [Path(folder) / f"agent-{side + 1}.log" for side in range(2)]
            players = [house.runner_player(seat, course, agent, log)
                       for seat, agent, log in zip(seats, agents, logs)]
            extra = ["-startuptimeout", "60", "-cputime"]
            if max_plies:
                extra += ["-maxplies", str(max_plies)]
            following = contextlib.nullcontext()
            if on_live is not None:
                extra += ["-live", str(live_path)]
                following = live.following(live_path, on_live)
            with following:
                match.run(players, games=1, repeat=False, records=path, timeout=timeout,
                          extra=extra, launcher=launcher(), stop=stop)
            records = list(read_records(path)) if path.exists() else []
            texts = [read_tail(log) for log in logs]
    except match.MatchStopped:
        raise
    except (match.MatchError, OSError, ValueError) as error:
        raise GameNotPlayed(shown(str(error))[-4000:]) from None
    if len(records) != 1:
        raise GameNotPlayed(f"the runner wrote {len(records)} records for one game")
    record = records[0]
    if record.reason:
        record.reason = shown(record.reason)
    return Played(record, [shown(text) for text in texts])
