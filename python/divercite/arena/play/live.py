"""Games as they are played: the runner's -live file followed while a game goes, and the
game's live lines turned into what its page shows (`GET /api/games/ID/live`). No Django here:
a worker machine (remote_worker.py) follows its games too.

The runner (`divercite-match -live FILE`, docs/matches.md) appends one JSON line per event:
"start" (the players, the start, both clocks, who moves), "move" (the move, its ms, both
clocks after it, who moves next) and "end" (the result). A worker follows the file while the
game is played and hands each batch of new complete lines on (to Game.live, or to its
heartbeats):

    from divercite.arena import live

    def on_lines(text):          # one or more complete lines, each ending in "\\n"
        ...                      # append them to the game's live text

    with live.following(path, on_lines, on_exit=connection.close):   # django.db's
        ...                      # play the game with `-live path`: every 0.5 s, the lines
                                 # written since are handed over; the last ones at the end

`on_lines` runs in the follower's thread, every call of it, the last one too (when the block
ends, before `following` returns); then `on_exit`, if given, in the same thread (a Django
worker closes the thread's database connection there: `django.db.connection.close`). A
half-written last line is left for the next read; lines that `on_lines` failed to take (it
raised) are handed over again at the next poll. The file need not exist yet when following
starts.

`state(text, now)` reads a game's live text (its complete lines, as followed) into the page's
JSON: every ply's position with both clocks and the points (the replay's shape:
pages.views.replay_of), the latest clocks, who moves, and when the last line was written."""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Union

from ...records import GameRecord

log = logging.getLogger("divercite.arena.play.live")
POLL_SECONDS = 0.5
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"  # the runner's "time", to the ms (strftime: to the µs)


class LiveFile:
    """A growing file read by offset: only its complete lines, each once."""

    def __init__(self, path: Union[str, Path]):
        self.path = Path(path)
        self.offset = 0  # bytes handed over

    def peek(self) -> bytes:
        """The complete lines written after the offset (bytes ending in b"\\n", or b"");
        the offset stays until `advance`. A file not written yet has none."""
        try:
            with open(self.path, "rb") as file:
                file.seek(self.offset)
                data = file.read()
        except FileNotFoundError:
            return b""
        return data[:data.rfind(b"\n") + 1]

    def advance(self, data: bytes) -> None:
        self.offset += len(data)

    def read(self) -> str:
        """The complete lines written since the last read, as text ("" if none)."""
        data = self.peek()
        self.advance(data)
        return data.decode("utf-8", errors="replace")


class Follower:
    """A thread that hands a LiveFile's new lines to `on_lines` every `every` seconds until
    stop(), then the last ones, then calls `on_exit`."""

    def __init__(self, path: Union[str, Path], on_lines: Callable[[str], None],
                 every: float = POLL_SECONDS, on_exit: Optional[Callable[[], None]] = None):
        self.file = LiveFile(path)
        self.on_lines = on_lines
        self.on_exit = on_exit
        self.every = every
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"live {self.file.path.name}",
                                       daemon=True)

    def start(self) -> "Follower":
        self.thread.start()
        return self

    def stop(self) -> None:
        """Stops following once the last lines are handed over (or failed to be)."""
        self.stopping.set()
        self.thread.join()

    def poll(self) -> bool:
        """Hands the new complete lines over, if any; False if on_lines raised (they are kept
        for the next poll)."""
        data = self.file.peek()
        if not data:
            return True
        try:
            self.on_lines(data.decode("utf-8", errors="replace"))
        except Exception:  # noqa: BLE001 - the game goes on; the lines are sent again
            log.warning("live lines of %s not taken; trying again", self.file.path,
                        exc_info=True)
            return False
        self.file.advance(data)
        return True

    def _run(self) -> None:
        try:
            while not self.stopping.wait(self.every):
                self.poll()
            self.poll()  # the lines written before the stop
        finally:
            if self.on_exit is not None:
                self.on_exit()


@contextlib.contextmanager
def following(path: Union[str, Path], on_lines: Callable[[str], None],
              every: float = POLL_SECONDS,
              on_exit: Optional[Callable[[], None]] = None) -> Iterator[Follower]:
    """Follows the -live file at `path` while the block runs (see the module's docstring)."""
    follower = Follower(path, on_lines, every, on_exit).start()
    try:
        yield follower
    finally:
        follower.stop()


def lines_of(text: str) -> List[dict]:
    """The events of a live text, in order; a line that is not a JSON object is skipped."""
    events = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and isinstance(event.get("event"), str):
            events.append(event)
    return events


def time_text(moment: datetime) -> str:
    """A time as the runner writes it: UTC, to the millisecond."""
    return moment.astimezone(timezone.utc).strftime(TIME_FORMAT)[:-4] + "Z"


def parse_time(text) -> Optional[datetime]:
    try:
        return datetime.strptime(text, TIME_FORMAT).replace(tzinfo=timezone.utc)
    except (TypeError, ValueError):
        return None


def _clocks(event: dict):
    clocks = event.get("clocks")
    if isinstance(clocks, list) and len(clocks) == 2:
        return [ms if isinstance(ms, (int, float)) else None for ms in clocks]
    return [None, None]


def state(text: str, now: Optional[datetime] = None) -> dict:
    """What a game's live text tells, for its page (the lines of its last "start" on):

        {"started": bool,            # a "start" line came: both engines are ready
         "p1", "p2",                 # the players, as the runner names them (None before)
         "plies": [{"fen", "move", "ms", "clocks", "scores"}, ...],
                                     # plies[0] the start, then the opening's and each move's
         "to_move": "p1" | "p2" | None,
         "clocks": [ms, ms],         # as of the last line (null for a side without a clock)
         "updated": TIME | None,     # when the runner wrote the last line
         "now": TIME, "elapsed_ms": N,   # with `now`: the time, and since "updated"
         "end": {"result", "termination", "reason", "final"} | None}

    The mover's clock has been running since "updated": a page shows clocks[mover] less the
    time since. A move line already read (sent twice) is skipped; a move that does not follow
    from the plies before it (a line lost) ends the plies there, the clocks and who moves
    still the last line's."""
    events = lines_of(text)
    starts = [index for index, event in enumerate(events) if event["event"] == "start"]
    if starts:
        game = events[starts[-1]].get("game")
        events = [event for event in events[starts[-1]:] if event.get("game") == game]
    answer = {"started": bool(starts), "p1": None, "p2": None, "plies": [], "to_move": None,
              "clocks": [None, None], "updated": None, "end": None}
    position = None
    for event in events:
        kind = event["event"]
        if kind == "move" and position is not None and isinstance(event.get("ply"), int) \
                and event["ply"] < len(answer["plies"]):
            continue  # a line sent twice (a worker's heartbeat whose answer was lost)
        answer["updated"] = event.get("time")
        if kind == "start":
            answer.update(p1=event.get("p1"), p2=event.get("p2"), clocks=_clocks(event),
                          to_move=event.get("to_move"))
            position = _start(event, answer)
        elif kind == "move":
            answer.update(clocks=_clocks(event), to_move=event.get("to_move"))
            if position is not None and event.get("ply") == len(answer["plies"]):
                position = _play(position, event, answer)
            else:
                position = None
        elif kind == "end":
            answer.update(to_move=None, end={key: event.get(key) for key in
                                             ("result", "termination", "reason", "final")})
    if now is not None:
        answer["now"] = time_text(now)
        updated = parse_time(answer["updated"])
        answer["elapsed_ms"] = (max(0, round((now - updated).total_seconds() * 1000))
                                if updated is not None else None)
    return answer


def _ply(position, move, ms, clocks) -> dict:
    return {"fen": position.fen(), "move": move, "ms": ms, "clocks": clocks,
            "scores": list(position.scores)}


def _start(event: dict, answer: dict):
    """The start's plies (the start position, then the opening's) into `answer`; the position
    after them, or None if they do not play."""
    record = GameRecord(game=0, start=event.get("start"), opening=event.get("opening") or "")
    clocks = _clocks(event)
    try:
        positions = record.positions()
    except (ValueError, TypeError):
        return None
    opening = record.opening_moves()
    answer["plies"] = [_ply(position, opening[index - 1] if index else None, None, clocks)
                       for index, position in enumerate(positions)]
    return positions[-1].copy()


def _play(position, event: dict, answer: dict):
    """The move's ply appended to `answer`; the position after it, or None if it does not
    play."""
    try:
        position.play(event.get("move"))
    except (ValueError, TypeError):
        return None
    answer["plies"].append(_ply(position, event.get("move"), event.get("ms"), _clocks(event)))
    return position
