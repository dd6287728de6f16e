"""The command loop: the protocol's position, the games and the agents' processes.

Only this module reads commands and formats protocol lines. A game starts with `ucinewgame`,
with a `position` that does not continue the game of the last `go` (another start, or moves
that are not a continuation of it), and with the first `go`; each side of each game gets a
fresh agent process (agent_process.py), asked for its moves on a worker thread so that
`isready`, `stop` and `quit` are answered at once.
"""

import queue
import sys
import threading
import time
import traceback

from ... import notation
from ...sandbox.watch import WATCH_INTERVAL_SECONDS
from .actions import AgentCrash, AgentError, LimitHit
from .rules import PIECE_TYPES, PositionError

# The course's clock (15 minutes), given to the agent when a `go` carries no clock of its own.
COURSE_CLOCK_SECONDS = 900.0
# An agent still thinking this long after its clock ran out is killed (the course's master
# would have disqualified it): the next move or game gets a fresh process.
OVERTIME_SECONDS = 1.0
SEED_MAX = 2147483647
CLOCK_KEYS = {"wtime": 0, "p1time": 0, "btime": 1, "p2time": 1}
IGNORED_KEYS = {"winc", "binc", "p1inc", "p2inc", "movestogo", "movetime", "depth", "nodes"}
# How long a reply that says its process hit a limit waits for the sandbox's own look: what the
# agent ran into is still there to be seen (the processes a fork bomb left, paused), and its
# word alone is not taken. The watchdog reads the processes every WATCH_INTERVAL_SECONDS, but
# a look took 0.5 s on a loaded machine, over 1 s once. Only a move that is lost anyway waits,
# and never past the move's clock (less LIMIT_LOOK_MARGIN_SECONDS for the answer's way): it is
# lost by the agent's error, not on time.
LIMIT_LOOK_SECONDS = 3.0
LIMIT_LOOK_MARGIN_SECONDS = 0.2


class Session:
    """The protocol's state: the position, the current game's agent processes per side, and
    the worker thread of the move being thought."""

    def __init__(self, output, course, launcher, stem, author, log=None):
        self.output = output
        self.log = log  # agent_log.AgentLog, where the bridge's warnings go; None: stderr
        self.course = course
        self.launcher = launcher
        self.stem = stem
        self.author = author
        self.seed = None
        self.lock = threading.Lock()
        self.thinking = None  # the side whose move is being thought, or None
        self.stopping = False
        # A `go infinite` answers only once stopped: its move waits for this event, and a
        # `stop` that finds the move already chosen sets it without ending the agent.
        self.stopped = threading.Event()
        self.move_chosen = False
        self.worker = None
        self.plain_players = course.plain_players()
        self.agents = [None, None]
        self.game_position = None  # (start string, moves) of the game's last go
        self.set_start_position()

    # -- helpers

    def send(self, line):
        self.output.send(line)

    def error(self, reason):
        self.send(f"info string error: {reason}")

    def warn(self, reason):
        """A warning about the agent, for its author: in its log where there is one (not on
        stderr, whose last lines a client reads as the reason of a lost game), else on
        stderr; and on the protocol."""
        if self.log is not None:
            self.log.note(f"warning: {reason}")
        else:
            sys.stderr.write(f"course_engine.py: warning: {reason}\n")
        self.send(f"info string warning: {reason}")

    def is_thinking(self):
        with self.lock:
            return self.thinking is not None

    def refuse_while_thinking(self, command):
        if not self.is_thinking():
            return False
        self.error(f"{command}: the agent is thinking; wait for its bestmove, or send stop "
                   "(which ends its process)")
        return True

    def set_start_position(self):
        self.start, self.moves = {}, []
        self.state = self.course.initial_state(self.plain_players)

    def end_game(self):
        """The game's agent processes end with it; the next game gets fresh ones."""
        for side in (0, 1):
            if self.agents[side] is not None:
                self.agents[side].kill()
                self.agents[side] = None
        self.game_position = None

    def close(self):
        self.end_game()
        self.launcher.close()

    # -- commands

    def handle(self, line):
        """Handles one command line; returns False on quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            return False
        if command in ("uci", "ugi"):
            self.identify(command)
        elif command == "isready":
            self.send("readyok")
        elif command == "stop":
            self.stop()
        elif command in ("ucinewgame", "uginewgame"):
            if not self.refuse_while_thinking(command):
                self.end_game()
                self.set_start_position()
        elif command == "setoption":
            if not self.refuse_while_thinking(command):
                self.set_option(args)
        elif command == "position":
            if not self.refuse_while_thinking(command):
                self.set_position(args)
        elif command == "go":
            if not self.refuse_while_thinking(command):
                self.go(args)
        elif command == "query":
            self.query(args)
        elif command == "d":
            self.display()
        else:
            self.error(f"unknown command '{command}'")
        return True

    def identify(self, dialect):
        self.send(f"id name {self.stem}")
        self.send(f"id author {self.author or 'a course agent, run by course_engine.py'}")
        self.send(f"option name Seed type spin default 0 min 0 max {SEED_MAX}")
        self.send(f"{dialect}ok")

    def set_option(self, args):
        if len(args) != 4 or args[0] != "name" or args[2] != "value":
            return self.error("setoption: expected 'setoption name <name> value <value>'")
        if args[1].lower() != "seed":
            return self.error(f"setoption: no option named '{args[1]}'")
        try:
            value = int(args[3])
        except ValueError:
            value = -1
        if not 0 <= value <= SEED_MAX:
            return self.error(f"setoption: Seed must be an integer from 0 to {SEED_MAX}, not "
                              f"'{args[3]}'")
        self.seed = value

    def set_position(self, args):
        try:
            start, moves = parse_position_command(args)
            if start == self.start and moves[:len(self.moves)] == self.moves:
                # The usual case, the game going on: only the new moves are checked.
                state = self.course.play(self.state, moves[len(self.moves):],
                                         len(self.moves) + 1, len(moves))
            else:
                state = self.course.state(start, moves, self.plain_players)
        except (ValueError, PositionError) as reason:
            return self.error(str(reason))
        if self.game_position is not None:
            start_text, game_moves = self.game_position
            if (notation.position_string(start) != start_text or
                    moves[:len(game_moves)] != game_moves):
                self.end_game()  # not a continuation of the game: a new one
        self.start, self.moves, self.state = start, moves, state

    def go(self, args):
        clocks = [None, None]
        infinite = False
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
                infinite = True
                i += 1
                continue
            if key == "perft":
                return self.error("go perft: not supported by course_engine.py")
            if key not in CLOCK_KEYS and key not in IGNORED_KEYS:
                return self.error(f"go: unknown limit '{key}'")
            try:
                value = int(args[i + 1])
            except (IndexError, ValueError):
                return self.error(f"go: '{key}' needs an integer value")
            if key in CLOCK_KEYS:
                clocks[CLOCK_KEYS[key]] = max(value, 0)
            i += 2
        if self.state.is_done():
            self.send("info string the game is over")
            self.send("bestmove (none)")
            return
        side = self.course.side(self.state)
        remaining = COURSE_CLOCK_SECONDS if clocks[side] is None else clocks[side] / 1000.0
        if self.worker is not None:
            self.worker.join()  # it has sent its bestmove already
        start_text = notation.position_string(self.start)
        self.game_position = (start_text, list(self.moves))
        with self.lock:
            self.thinking = side
            self.stopping = False
            self.stopped = threading.Event()
            self.move_chosen = False
        job = (side, start_text, list(self.moves), remaining, self.seed, infinite)
        self.worker = threading.Thread(target=self.think, args=job, daemon=True)
        self.worker.start()

    def stop(self):
        """Ends the thinking agent's process: a course agent cannot be interrupted otherwise.
        Its bestmove is (none); the side's next move gets a fresh process. A `go infinite`
        whose move is already chosen answers it, and its agent plays on."""
        with self.lock:
            if self.thinking is None or self.stopping:
                return
            self.stopping = True
            self.stopped.set()
            process = None if self.move_chosen else self.agents[self.thinking]
        if process is not None:
            process.kill()

    def query(self, args):
        if len(args) != 1:
            return self.error("query: expected one of gameover, p1turn, result")
        if args[0] == "gameover":
            self.send(f"response {'true' if self.state.is_done() else 'false'}")
        elif args[0] == "p1turn":
            self.send(f"response {'true' if self.course.side(self.state) == 0 else 'false'}")
        elif args[0] == "result":
            self.send(f"response {self.course.result(self.state) or 'none'}")
        else:
            self.error(f"query: unknown query '{args[0]}', expected gameover, p1turn or result")

    def display(self):
        self.send(f"fen {notation.position_string(self.course.board(self.state))}")
        self.send("scores {} {}".format(*self.course.scores(self.state)))
        result = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}.get(
            self.course.result(self.state), "*")
        self.send(f"result {result}")

    # -- the worker thread

    def think(self, side, start_text, moves, remaining, seed, infinite):
        """Asks the side's agent for its move and answers bestmove, whatever the agent does;
        after `go infinite`, only once stopped (as UCI asks)."""
        started = time.monotonic()
        try:
            move = self.agent_move(side, start_text, moves, remaining, seed)
        except LimitHit as reason:
            self.send(f"info string limit: {reason}")
            move = "(none)"
        except AgentCrash as reason:
            self.send(f"info string crash: {reason}")
            move = "(none)"
        except AgentError as reason:
            self.error(str(reason))
            move = "(none)"
        except BaseException as exception:  # a bug here must still answer the go
            traceback.print_exc()
            self.error(f"course_engine.py failed: {type(exception).__name__}: {exception}")
            move = "(none)"
        elapsed_ms = int((time.monotonic() - started) * 1000)
        with self.lock:
            self.move_chosen = True
        if infinite:
            self.stopped.wait()
        if move != "(none)":
            self.send(f"info time {elapsed_ms}")
        elif self.log is not None:
            self.log.drain()  # its traceback in its log before the game may be cut
        # Cleared before the bestmove: the client may send its next command at once.
        with self.lock:
            self.thinking = None
        self.send(f"bestmove {move}")
        # The next game's process, which imports only while this side's agent thinks.
        self.launcher.prepare(frozen=True)

    def agent_move(self, side, start_text, moves, remaining, seed):
        with self.launcher.thinking():
            return self.ask_move(side, start_text, moves, remaining, seed)

    def ask_move(self, side, start_text, moves, remaining, seed):
        process = self.agent_for(side)
        clock_ends = time.monotonic() + remaining
        try:
            reply = process.ask(timeout=remaining + OVERTIME_SECONDS, cmd="move",
                                start=start_text, moves=moves, remaining=remaining, seed=seed)
        except queue.Empty:
            self.forget(side, process)
            raise AgentError(f"MyPlayer.compute_action had not returned {OVERTIME_SECONDS:g} s "
                             f"after its remaining_time ({remaining:g} s) ran out: its process "
                             "was killed")
        if reply is None:
            self.forget(side, process)
            if self.stopping:
                raise AgentError("stopped: MyPlayer.compute_action cannot be interrupted, so "
                                 "its process was killed")
            limit = process.limit_reason()
            if limit is not None:
                raise LimitHit(limit)
            raise AgentError(f"the agent's process ended during its move "
                             f"({process.exit_status()})")
        if "error" in reply:
            raise self.reply_error(process, reply, clock_ends)
        return reply["move"]

    @staticmethod
    def reply_error(process, reply, clock_ends):
        """The exception for an agent's error reply. Its `limit` flag is the agent process's
        word only (the agent's own code may write that line on the pipe), whereas a limit in
        a record says that the sandbox stopped the agent, the sandbox's reason first. So the
        flag is believed only when this process sees the limit itself (limit_reason(): the
        sandbox's watchdog, or the kernel's count for its control group) within a few of the
        watchdog's looks, before `clock_ends` (the time.monotonic() at which the move's clock
        runs out); the reason seen then comes first, the agent's text after it. Else the
        text is the agent's own error, its move lost as for any exception it raised (a
        crash). That takes in a true MemoryError under the sandbox's address-space limit
        (RLIMIT_AS), which nothing outside the process sees (its memory is freed by the time
        it replies): it counts as the agent's crash, a cost accepted for never taking an
        agent's word for a limit."""
        text = str(reply["error"])
        if reply.get("limit") and process.sandboxed is not None:
            deadline = min(time.monotonic() + LIMIT_LOOK_SECONDS,
                           clock_ends - LIMIT_LOOK_MARGIN_SECONDS)
            observed = process.limit_reason()
            while observed is None and time.monotonic() < deadline:
                time.sleep(WATCH_INTERVAL_SECONDS / 2)
                observed = process.limit_reason()
            if observed is not None:
                return LimitHit(f"{observed} ({text})")
        # A limit it believed it hit is an exception it raised (a MemoryError): a crash.
        crashed = reply.get("crash") or reply.get("limit")
        return AgentCrash(text) if crashed else AgentError(text)

    def agent_for(self, side):
        """The side's agent process in this game: a fresh one with a new MyPlayer on the
        side's first move."""
        process = self.agents[side]
        if process is not None:
            return process
        process = self.launcher.take()
        with self.lock:
            self.agents[side] = process  # from now on, stop kills it
        why = process.ready()
        if why is None:
            reply = process.ask(cmd="player", side=side, name=f"{self.stem}_{side + 1}")
            if reply is not None and "error" in reply:
                self.forget(side, process)
                raise AgentCrash(reply["error"])  # the constructor raised
            if reply is None:
                why = ("stopped" if self.stopping else process.limit_reason() or
                       f"its process ended ({process.exit_status()})")
        if why is not None:
            limit = None if self.stopping else process.limit_reason()
            self.forget(side, process)
            if limit is not None:
                raise LimitHit(limit)
            raise AgentError(f"the agent could not start as MyPlayer({PIECE_TYPES[side]!r}): "
                             f"{why}")
        return process

    def forget(self, side, process):
        process.kill()
        with self.lock:
            if self.agents[side] is process:
                self.agents[side] = None


def parse_position_command(args):
    """(start board, moves) of a `position` command's arguments; raises ValueError with the
    reason. The moves are only split off here: the course's code checks them."""
    if not args:
        raise ValueError("position: expected 'startpos' or 'fen <rows> <side>', then "
                         "'moves ...'")
    if args[0] == "startpos":
        start, rest = {}, args[1:]
    elif args[0] == "fen":
        if len(args) < 3:
            raise ValueError("position fen: expected '<rows> <side>'")
        start, rest = notation.parse_position_string(args[1], args[2]), args[3:]
    else:
        raise ValueError(f"position: unknown kind '{args[0]}', expected 'startpos' or 'fen'")
    if rest and rest[0] != "moves":
        raise ValueError(f"position: expected 'moves' but got '{rest[0]}'")
    return start, list(rest[1:])
