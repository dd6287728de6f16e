"""Our Divercité engine as a player of the INF8175 course's own framework (seahorse).

The course's master runs it through the launcher ``tools/seahorse/divercite_player.py`` (an
installed copy's ``P/share/divercite/seahorse/divercite_player.py``), named on the course's
command line wherever a player file goes (the launcher's docstring shows the four modes).

Each ``MyPlayer`` starts one ``divercite`` engine process and speaks its UCI-style protocol
(``uci``, ``setoption``, ``isready``, ``position fen``, ``go``, ``stop``, ``quit``) through
the project's Python package, ``divercite.engine`` (pure Python, like this module and
``divercite.notation``: it works on any Python the course runs on, the compiled rules not
needed). Every move, the position string is built from
the course state's board and side to move (exact: the score is a function of the board), the
engine is asked ``go wtime <ms> btime <ms>`` with the clock the master gives us (the same for
the opponent's, which the course does not give), or ``go movetime <ms>``, and its
``bestmove`` is returned as the course's ``LightAction``.

Environment variables:

- ``DIVERCITE_ENGINE`` — the engine binary. Without it, the engine beside this package
  (``engine_places()``, ``divercite.programs``: a venv's or an installed prefix's
  ``bin/divercite``, a build tree's ``<build>/bin/divercite``, a checkout's
  ``<repo>/build/bin/divercite``), then ``divercite`` on PATH.
- ``DIVERCITE_OPTIONS`` — engine options, ``Name=Value`` separated by commas, e.g.
  ``Hash=256,Threads=2`` or ``Agent=skypiea_v5``. Each is checked against the ``option``
  lines the engine prints after ``uci`` (the name, a number in range, a choice it lists)
  before any is sent, then against its answers: one the engine does not take stops the
  player at its start, naming it and why. ``MoveOverhead`` defaults to
  ``DEFAULT_MOVE_OVERHEAD_MS``, ``Hash`` to ``DEFAULT_HASH_MB`` (below).
- ``DIVERCITE_PACE`` — ``auto`` (the default): against a human at the course's GUI
  (``-t human_vs_computer``, seen by ``human_opponent``) answer in ``HUMAN_PACE_MS``, saying
  on stderr that the engine is thinking, else use the clock; ``human``: always that pace;
  ``clock``: always the full clock, even against a human.
- ``DIVERCITE_MOVETIME=<ms>`` — ``go movetime <ms>`` instead of the clock or the pace, for
  fast games; the engine searches all of it, capped so that the rest of the game, with
  ``MoveOverhead`` a move for the framework, fits in the clock.
- ``DIVERCITE_PLAYER_LOG=1`` — one line per move on stderr: ply, side, move, the wall time
  inside ``compute_action`` (ms), the engine's search time (ms), the ``remaining_time``
  received, and the pace (``bench/course_overhead.py`` reads these lines).

Safety: replies are read with a timeout (a reader thread and a queue). If the engine has not
answered by a deadline well inside the clock it is sent ``stop``; if it still does not
answer, dies, or answers an illegal move, the player says so on stderr and plays a legal
fallback move (the best immediate score by the course's scoring); a failed engine is killed,
reaped and started again at the next move, within that move's deadlines. A missing engine,
or one that does not start, raises ``DiverciteEngineError`` saying what to do. The engine is
closed (``quit``, then killed if needed, then reaped) when the player is dropped and at exit.

The master serialises each player after every move with ``to_json``, which takes every
attribute whose name does not start with ``_``: the only public ones are ``name``, ``id``
and ``piece_type``.

Offers ``MyPlayer``, ``position_string(state)`` (the engine's position string of a course
state), ``human_opponent(state)``, ``find_engine()``, ``engine_places()``,
``parse_options(text)``,
``DiverciteEngineError``, ``DEFAULT_MOVE_OVERHEAD_MS``, ``DEFAULT_HASH_MB``,
``HUMAN_PACE_MS`` and ``STARTUP_TIMEOUT_S``.

The standard library, ``divercite.engine``, ``divercite.notation`` and the course's own code
(``player_divercite``, ``seahorse``), which must be importable: this module is imported by the
course's master, in the course's folder.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from player_divercite import PlayerDivercite

from .. import notation, programs
from ..engine import Engine, EngineError, EngineTerminatedError, EngineTimeoutError

__all__ = ["MyPlayer", "position_string", "human_opponent", "find_engine", "engine_places",
           "parse_options", "DiverciteEngineError", "DEFAULT_MOVE_OVERHEAD_MS",
           "DEFAULT_HASH_MB", "HUMAN_PACE_MS", "STARTUP_TIMEOUT_S"]


class DiverciteEngineError(RuntimeError):
    """The engine or the package is missing, the engine does not start, or it rejects an
    option."""


# How long the engine may take to start (answer `uci` and `isready`), in seconds.
STARTUP_TIMEOUT_S = 20.0


def engine_places() -> list[tuple[Path, str]]:
    """Where the engine is looked for without DIVERCITE_ENGINE, in order, with what each is:
    beside this package (divercite.programs: where pip, cmake --install or the build put
    it)."""
    return [(path, "beside the divercite package") for path in programs.places("divercite")]


def find_engine() -> str:
    """The engine binary: DIVERCITE_ENGINE, else the first of engine_places() that exists
    (programs.installed), else `divercite` on PATH; DiverciteEngineError naming the places
    tried if none does."""
    explicit = os.environ.get("DIVERCITE_ENGINE")
    if explicit:
        return explicit  # _start_engine says so if it is missing
    found = programs.installed("divercite") or shutil.which("divercite")
    if found:
        return found
    tried = "; ".join(f"{path} ({what})" for path, what in engine_places())
    raise DiverciteEngineError(
        f"divercite engine not found: tried {tried}; and divercite on PATH. Build it with "
        f"scripts/build.sh in the project's checkout, or set DIVERCITE_ENGINE to its path")


def parse_options(text: str) -> list[tuple[str, str]]:
    """DIVERCITE_OPTIONS's `Name=Value,...` as (name, value) pairs."""
    options = []
    for entry in text.split(","):
        if not entry.strip():
            continue
        name, sep, value = entry.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise DiverciteEngineError(
                f"DIVERCITE_OPTIONS entry {entry.strip()!r} is not Name=Value "
                f"(e.g. DIVERCITE_OPTIONS=Hash=256,Threads=2,Agent=skypiea_v5)")
        options.append((name.strip(), value.strip()))
    return options


def _start_engine(path: str, options: list[tuple[str, str, str]], timeout: float):
    """The engine at `path`, started and set up: `uci`, then each option (name, value, where
    it comes from) checked against the options the engine lists, all of them before any is
    sent (every problem in one error), then each sent and checked against its answer."""
    if not os.path.isfile(path) or not os.access(path, os.X_OK):
        raise DiverciteEngineError(
            f"divercite engine not found at {path} (DIVERCITE_ENGINE): build it with "
            f"scripts/build.sh in the project's checkout, or set DIVERCITE_ENGINE to its path")
    try:
        engine = Engine.popen(path, timeout=timeout, name=f"the divercite engine at {path}")
    except EngineError as error:
        raise DiverciteEngineError(
            f"{error}: check that {path} is the divercite engine (build it with "
            f"scripts/build.sh, or set DIVERCITE_ENGINE to its path)") from None
    problems = []
    for name, value, source in options:
        try:
            engine.check_option(name, value)
        except ValueError as why:
            problems.append(f"{name}={value} (from {source}): {why}")
    try:
        if problems:
            raise DiverciteEngineError(f"the divercite engine at {path} does not take these "
                                       f"options: " + "; ".join(problems))
        for name, value, source in options:
            try:
                engine.configure({name: value})
            except EngineError as error:
                raise DiverciteEngineError(f"{error} (from {source})") from None
    except BaseException:
        engine.close()
        raise
    return engine


# The framework's own latency per move, which the master charges to our clock: the engine
# keeps this much of every move for it. The worst mode is `-t connect`, where the master
# polls for the remote's action and decodes two states from JSON; 250 ms covers its worst
# move with room for a loaded machine or a real network, and keeps only a few seconds of the
# 900-s clock in reserve over a game (bench/course_overhead.py measures it: figures in
# search/NOTES.md, "The course bridge").
DEFAULT_MOVE_OVERHEAD_MS = 250

# The transposition table, in MiB, unless DIVERCITE_OPTIONS sets Hash: the course clock lets
# the engine solve 16-18 plies from the end, and those solves need more room than the
# engine's default (search/NOTES.md, "The course bridge").
DEFAULT_HASH_MB = 256

# A move's time, in ms, against a human (DIVERCITE_PACE): the course's master sends the
# board, the human's own last move included, only once we answer, so at the full clock a
# human waits the engine's whole think after each move. Two seconds still search the middle
# game deeply and solve the last plies exactly (bench/gui_human_pace.py; figures in
# search/NOTES.md, "The course bridge").
HUMAN_PACE_MS = 2000


def _log(message: str) -> None:
    print(f"divercite_player: {message}", file=sys.stderr, flush=True)


def position_string(state) -> str:
    """The engine's position string (``<rows> <side>``) of a course GameStateDivercite."""
    board = {}
    for cell, piece in state.get_rep().get_env().items():
        kind = piece.get_type()
        if len(kind) != 3 or kind[0] not in notation.COLOURS or kind[2] not in "WB":
            raise ValueError(f"unexpected piece type {kind!r} on {cell}")
        board[tuple(cell)] = (kind[0], "WB".index(kind[2]))
    rows = notation.position_string(board).split()[0]
    return f"{rows} {_side_to_move(state, len(board))}"


def _side_to_move(state, pieces_on_board: int) -> str:
    # In the remote modes next_player is a proxy whose attributes forward to the player.
    piece_type = getattr(getattr(state, "next_player", None), "piece_type", None)
    if piece_type in ("W", "B"):
        return piece_type.lower()
    return "w" if pieces_on_board % 2 == 0 else "b"


def human_opponent(state) -> bool:
    """Whether a player of `state` is a human at the course's GUI: in `-t human_vs_computer`
    the master's state lists seahorse's InteractivePlayerProxy, which marks the player it
    wraps with player_type = "interactive" (and forwards attribute reads to it)."""
    try:
        return any(getattr(player, "player_type", None) == "interactive"
                   for player in getattr(state, "players", None) or ())
    except Exception:  # the course code changed: play as against a program
        return False


class MyPlayer(PlayerDivercite):
    """The divercite engine as a course player (see the module's docstring)."""

    def __init__(self, piece_type: str, name: str = "divercite", *args, **kwargs) -> None:
        super().__init__(piece_type, name, *args, **kwargs)
        self._engine_path = find_engine()
        options = [(name, value, "DIVERCITE_OPTIONS")
                   for name, value in parse_options(os.environ.get("DIVERCITE_OPTIONS", ""))]
        for name, value in (("MoveOverhead", DEFAULT_MOVE_OVERHEAD_MS),
                            ("Hash", DEFAULT_HASH_MB)):
            if not any(given.lower() == name.lower() for given, _, _ in options):
                options.insert(0, (name, str(value), "the player's defaults"))
        self._options = options
        movetime = os.environ.get("DIVERCITE_MOVETIME", "").strip()
        if movetime and (not movetime.isdigit() or int(movetime) <= 0):
            raise DiverciteEngineError(
                f"DIVERCITE_MOVETIME={movetime!r}: give a number of milliseconds, e.g. 100")
        self._movetime_ms = int(movetime) if movetime else None
        self._pace = os.environ.get("DIVERCITE_PACE", "").strip().lower() or "auto"
        if self._pace not in ("auto", "human", "clock"):
            raise DiverciteEngineError(
                f"DIVERCITE_PACE={self._pace!r}: give human (answer in "
                f"{HUMAN_PACE_MS / 1000:g} s), clock (use the course's clock) or auto (human "
                f"against a human at the course's GUI, else clock; the default)")
        self._told_pace = False
        self._log_moves = os.environ.get("DIVERCITE_PLAYER_LOG", "") not in ("", "0")
        self._engine = _start_engine(self._engine_path, self._options, STARTUP_TIMEOUT_S)
        # Checked by the engine at its start: a whole number from 0 up.
        overhead = [value for name, value, _ in options if name.lower() == "moveoverhead"]
        self._move_overhead_s = max(0, int(overhead[-1])) / 1000.0

    # The pid of the current engine process (for tests and diagnostics); None if none.
    def _engine_pid(self):
        return self._engine.pid if self._engine is not None else None

    def close(self) -> None:
        """Closes the engine now (it is also closed when the player is dropped)."""
        if self._engine is not None:
            self._engine.close()
            self._engine = None

    def compute_action(self, current_state, remaining_time: float = 900.0, **kwargs):
        start = time.monotonic()
        remaining = max(0.0, float(remaining_time))
        position = position_string(current_state)
        legal = {}
        for action in current_state.generate_possible_light_actions():
            (row, column) = action.data["position"]
            legal[f"{action.data['piece']}{row}{column}"] = action
        step = getattr(current_state, "step", None)
        ply = step if isinstance(step, int) else sum(position.count(c) for c in "RGBYrgby")

        # Deadlines, measured from our entry. The engine stops itself by a third of the clock
        # (its hard limit); we send `stop` past that, and give up well before the clock ends.
        budget = max(remaining - self._move_overhead_s, 0.5 * remaining)
        remaining_ms = max(1, int(remaining * 1000))
        human = self._pace == "human" or (self._pace == "auto" and human_opponent(current_state))
        asked_ms = self._movetime_ms or (HUMAN_PACE_MS if human else None)
        if human and not self._told_pace:
            self._told_pace = True
            why = "DIVERCITE_PACE=human" if self._pace == "human" else \
                "a human opponent at the course's GUI"
            _log(f"{self.name}: {why}: answering in {asked_ms / 1000:g} s a move "
                 f"(DIVERCITE_PACE=clock for the full clock, DIVERCITE_MOVETIME=<ms> for "
                 f"another pace)")
        if asked_ms is not None:
            # Capped so that every move left, with its overhead, fits in the clock.
            moves_left = max(1, (notation.PLIES - ply + 1) // 2)
            cap = int((remaining_ms - self._move_overhead_s * 1000 * moves_left) / moves_left)
            movetime = max(1, min(asked_ms, cap))
            limits = {"movetime": movetime}
            expected = movetime / 1000.0
        else:
            limits = {"wtime": remaining_ms, "btime": remaining_ms}
            expected = remaining / 3.0
        stop_at = start + min(expected + 1.0, 0.6 * budget)
        give_up_at = start + min(expected + 3.0, 0.85 * budget)

        if human:  # the course's GUI shows nothing until we answer: say why it waits
            _log(f"{self.name} is thinking (up to {expected:.1f} s)...")
        move, engine_ms, depth, problem = None, None, None, None
        try:
            if self._engine is None or self._engine.returncode is not None:
                # Restarted within this move's deadlines, never beyond them.
                if self._engine is not None:
                    _log(f"the divercite engine at {self._engine_path} exited (code "
                         f"{self._engine.returncode}); starting it again")
                    self._drop_engine(kill=False)
                self._engine = _start_engine(self._engine_path, self._options,
                                             min(STARTUP_TIMEOUT_S, stop_at - time.monotonic()))
            result = self._engine.play(position, timeout=stop_at - time.monotonic(),
                                       grace=give_up_at - stop_at, **limits)
            move, engine_ms, depth = result.move, result.time_ms, result.depth
        except EngineTimeoutError:
            problem = (f"the divercite engine did not answer within "
                       f"{give_up_at - start:.2f} s, even after 'stop': killed it (it will "
                       f"be started again for the next move)")
            self._drop_engine(kill=True)
        except EngineTerminatedError as error:
            problem = f"{error} (it will be started again for the next move)"
            self._drop_engine(kill=False)
        except (EngineError, DiverciteEngineError) as error:
            problem = str(error)
            self._drop_engine(kill=True)
        if problem is None and move not in legal:
            problem = (f"the divercite engine answered 'bestmove {move}', not a legal move "
                       f"in {position}")
        if problem is not None:
            move = self._fallback_move(current_state, legal)
            _log(f"{self.name}: {problem}; playing the fallback move {move}")
        action = legal[move]

        spent_ms = (time.monotonic() - start) * 1000.0
        if human:
            _log(f"{self.name} plays {move} ({spent_ms / 1000:.1f} s)")
        if self._log_moves:
            _log(f"move name={self.name} ply={ply} side={position[-1]} move={move} "
                 f"compute_ms={spent_ms:.3f} engine_ms={engine_ms} depth={depth} "
                 f"remaining_time={remaining_time!r} fallback={int(problem is not None)} "
                 f"pace={'human' if human else 'clock' if asked_ms is None else 'movetime'}")
        return action

    def _drop_engine(self, kill: bool) -> None:
        if self._engine is not None:
            if kill:
                self._engine.kill()
            else:
                self._engine.close()
            self._engine = None

    def _fallback_move(self, state, legal: dict) -> str:
        """A legal move: the best immediate score margin by the course's own scoring."""
        best, best_margin = None, None
        me = state.next_player.get_id()
        for move, action in legal.items():
            try:
                scores = state.compute_scores(
                    (action.data["position"], action.data["piece"], me))
                margin = scores[me] - sum(v for k, v in scores.items() if k != me)
            except Exception:  # the course code changed: any legal move will do
                margin = 0
            if best_margin is None or margin > best_margin:
                best, best_margin = move, margin
        return best
