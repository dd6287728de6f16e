#!/usr/bin/env python3
"""Runs a course Divercité agent as an engine of this project's protocol.

The INF8175 course gives students the `seahorse` framework and a Divercité folder; an agent
is a file (usually `my_player.py`) defining `MyPlayer(PlayerDivercite)` with
`compute_action(current_state=..., remaining_time=...)`. This wrapper loads such a file,
unchanged, and speaks the UCI-style protocol of `divercite` on stdin/stdout, so that
`divercite-match` can play it against anything:

    divercite-match -engine cmd=tools/seahorse/course_engine.py arg=path/to/my_player.py \\
        name=mine tc=inf -engine cmd=build/bin/divercite name=engine tc=10 -games 2

For every `go` it builds the course's own `GameStateDivercite` for the position (the moves
replayed with the course's `apply_action`), with the agent as the player to move and a plain
`PlayerDivercite` as the other player, and asks the agent for its move on a worker thread,
so `isready` is answered at once. The agent may print anything: the protocol keeps a private
copy of the original stdout, and the agent's stdout (Python's and the OS file descriptor 1)
goes to stderr. An agent that raises, returns nothing, or returns something illegal costs it
the move (`info string error: ...` and `bestmove (none)`), never the wrapper.

Standard library only, plus the course's code, imported from where it lies (never copied).
The course's framework needs Debian's packages (python3-loguru, python3-socketio,
python3-aiohttp, python3-colorama); when the running Python lacks them, the wrapper re-runs
itself with /usr/bin/python3.
"""

import argparse
import hashlib
import importlib.util
import operator
import os
import random
import sys
import threading
import time
import traceback

# What the course's framework imports from outside the standard library.
COURSE_PACKAGES = ("loguru", "socketio", "aiohttp", "colorama")
DEBIAN_PYTHON = "/usr/bin/python3"
# The course's clock (15 minutes), given to the agent when a `go` carries no clock of its own.
COURSE_CLOCK_SECONDS = 900.0
SEED_MAX = 2147483647

HELP_EPILOG = """\
protocol (stdin/stdout, one command a line):
  uci | ugi                     id name, id author, option name Seed, uciok | ugiok
  isready                       readyok (at once, even while the agent thinks)
  ucinewgame | uginewgame       the start position, and new agent instances
  position startpos|fen <rows> <side> [moves m1 m2 ...]
                                all or nothing: an error keeps the previous position
  go [wtime|p1time MS] [btime|p2time MS] [winc|p1inc MS] [binc|p2inc MS]
     [movestogo N] [movetime MS] [depth N] [nodes N] [infinite]
                                bestmove <move>; the agent gets remaining_time = its own
                                clock (wtime/p1time or btime/p2time) in seconds, or 900
                                when the go has none for its side. movestogo, movetime,
                                depth, nodes, infinite and the
                                increments are accepted and ignored: a course agent
                                schedules its own time.
  setoption name Seed value N   before each move, seed Python's random (and numpy's global
                                generator, if numpy is imported) from N and the position,
                                so agents with random choices replay. Without a Seed the
                                generators are left alone.
  stop                          cannot interrupt Python: the move is answered when the agent
                                returns it.
  query gameover|p1turn|result  response true|false, or p1win|p2win|draw|none
  d                             fen, scores and result of the position
  quit                          exits at once, even while the agent thinks

notes:
  - An agent that raises, returns None, returns something that is not an action, an
    illegal move, or a HeavyAction the course's master would refuse (its states' scores or
    board not the course's) answers 'info string error: <what happened>' and
    'bestmove (none)', and the next go works.
  - The agent runs with its own folder as the working directory (as under the course's
    main_divercite.py) and PYTHONHASHSEED fixed (0 unless set), so that with a Seed, agents
    that pick from sets replay too.
  - --course defaults to the agent's folder when it holds game_state_divercite.py, else
    DIVERCITE_COURSE_DIR (the course root or its divercite folder), else
    ../shared/course/divercite beside this repository. --seahorse defaults to an importable
    seahorse, else the seahorse folder beside the course folder.
"""


def fail(message):
    """Startup failures: one clear message on stderr, exit code 2."""
    sys.stderr.write(f"course_engine.py: {message}\n")
    sys.stderr.flush()
    sys.exit(2)


# --------------------------------------------------------------------------------------
# Interpreter: the course's packages and a fixed hash seed.


def ensure_interpreter():
    """Re-executes this file when it must run on another interpreter or hash seed.

    The pyenv Python first on PATH lacks the course's packages; Debian's has them. The hash
    seed is fixed because the course's actions hash their strings, and agents choosing from a
    set (the course's random player does) replay only if set order does.
    """
    missing = [name for name in COURSE_PACKAGES if importlib.util.find_spec(name) is None]
    target = sys.executable
    if missing:
        if (os.path.exists(DEBIAN_PYTHON) and
                os.path.realpath(DEBIAN_PYTHON) != os.path.realpath(sys.executable or "")):
            target = DEBIAN_PYTHON
        else:
            fail(f"the course's framework needs the Python packages {', '.join(missing)}, "
                 f"which {sys.executable} cannot import (and {DEBIAN_PYTHON} is this Python "
                 "or absent). On Debian: apt-get install " +
                 " ".join("python3-" + name.replace("_", "-") for name in missing))
    if target and (target != sys.executable or "PYTHONHASHSEED" not in os.environ):
        environment = dict(os.environ)
        environment.setdefault("PYTHONHASHSEED", "0")
        script = os.path.abspath(__file__)
        os.execve(target, [target, script] + sys.argv[1:], environment)


# --------------------------------------------------------------------------------------
# Locating the course's code.


def holds_course(folder):
    return os.path.isfile(os.path.join(folder, "game_state_divercite.py"))


def holds_seahorse(folder):
    return os.path.isfile(os.path.join(folder, "seahorse", "__init__.py"))


def repository_course_dir():
    """<repo>/../shared/course/divercite, this file being <repo>/tools/seahorse/."""
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(os.path.dirname(repo), "shared", "course", "divercite")


def find_course_dir(given, agent_dir):
    if given is not None:
        folder = os.path.abspath(given)
        if not holds_course(folder):
            fail(f"--course {given}: no game_state_divercite.py in {folder}")
        return folder
    if holds_course(agent_dir):
        return agent_dir
    environment = os.environ.get("DIVERCITE_COURSE_DIR")
    if environment:
        for folder in (os.path.join(environment, "divercite"), environment):
            if holds_course(folder):
                return os.path.abspath(folder)
        fail(f"DIVERCITE_COURSE_DIR={environment} holds neither game_state_divercite.py nor "
             "divercite/game_state_divercite.py")
    folder = repository_course_dir()
    if holds_course(folder):
        return folder
    fail(f"cannot find the course's Divercité folder: not beside the agent ({agent_dir}), "
         f"DIVERCITE_COURSE_DIR is unset, and {folder} does not exist. Give --course DIR.")


def find_seahorse_dir(given, course_dir):
    """The folder to put on sys.path for `import seahorse`, or None if already importable."""
    if given is not None:
        folder = os.path.abspath(given)
        if holds_seahorse(folder):
            return folder
        # The package folder itself was given.
        if (os.path.basename(folder) == "seahorse" and
                os.path.isfile(os.path.join(folder, "__init__.py"))):
            return os.path.dirname(folder)
        fail(f"--seahorse {given}: no seahorse package (seahorse/__init__.py) in {folder}")
    spec = importlib.util.find_spec("seahorse")
    if spec is not None and spec.origin is not None:
        return None
    candidates = [os.path.join(os.path.dirname(course_dir), "seahorse")]
    environment = os.environ.get("DIVERCITE_COURSE_DIR")
    if environment:
        candidates += [os.path.join(environment, "seahorse"),
                       os.path.join(os.path.dirname(os.path.abspath(environment)), "seahorse")]
    for folder in candidates:
        if holds_seahorse(folder):
            return os.path.abspath(folder)
    fail("cannot import seahorse: it is not installed, and no seahorse folder holding the "
         f"package was found in {', '.join(candidates)}. Give --seahorse DIR.")


# --------------------------------------------------------------------------------------
# Protocol streams: only protocol lines reach the original stdout.


class ProtocolOutput:
    """Writes whole protocol lines to a private copy of the original stdout."""

    def __init__(self, fd):
        self._stream = os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        self._lock = threading.Lock()

    def send(self, line):
        with self._lock:
            try:
                self._stream.write(line + "\n")
                self._stream.flush()
            except (BrokenPipeError, OSError):
                os._exit(0)  # nobody is listening any more


def take_protocol_streams():
    """Keeps private copies of stdin and stdout for the protocol, then points the process's
    own stdout (Python's and file descriptor 1, for C extensions and subprocesses) at stderr
    and its stdin at /dev/null, so an agent can neither garble nor swallow protocol lines."""
    sys.stdout.flush()
    output = ProtocolOutput(os.dup(1))
    commands = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(os.devnull, "r")
    return commands, output


# --------------------------------------------------------------------------------------
# The board, the moves and position strings, as the engine's protocol writes them.

GRID = 9
ROW_CELLS = [[(i, j) for j in range(GRID) if abs(i - 4) + abs(j - 4) <= 4] for i in range(GRID)]
CELLS = [cell for row in ROW_CELLS for cell in row]
CELL_SET = frozenset(CELLS)
COLOURS = "RGBY"
PIECES_PER_COLOUR = {"C": 2, "R": 3}
TOTAL_PLIES = 40
PLAYER_NAMES = ("first", "second")
PIECE_TYPES = ("W", "B")  # the course's piece type of the first and second player


def kind_of(cell):
    return "C" if (cell[0] + cell[1]) % 2 == 1 else "R"


def neighbours(cell):
    i, j = cell
    return [n for n in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)) if n in CELL_SET]


def side_to_move(board):
    """0 for the first player, 1 for the second: the players alternate from an empty board."""
    return len(board) % 2


def pieces_left(board, owner, kind, colour):
    used = sum(1 for cell, (c, o) in board.items() if o == owner and c == colour and
               kind_of(cell) == kind)
    return PIECES_PER_COLOUR[kind] - used


def move_problem(board, text):
    """Why `text` is not a legal move on `board` (None if it is), in the engine's words."""
    if len(text) != 4:
        return "a move is 4 characters <colour><kind><row><col>, like GR04"
    colour, kind, row, column = text
    if colour not in COLOURS:
        return f"unknown colour '{colour}' (expected R, G, B or Y)"
    if kind not in "CR":
        return f"unknown kind '{kind}' (expected C for city or R for resource)"
    if not ("0" <= row <= "8" and "0" <= column <= "8"):
        return "row and column must be digits 0-8"
    cell = (int(row), int(column))
    if cell not in CELL_SET:
        return f"({cell[0]},{cell[1]}) is not a cell of the board"
    if kind != kind_of(cell):
        real, wanted = ("city", "resource") if kind == "R" else ("resource", "city")
        return f"({cell[0]},{cell[1]}) is a {real} cell, not a {wanted} cell"
    if len(board) >= TOTAL_PLIES:
        return "the game is over"
    if cell in board:
        return f"cell ({cell[0]},{cell[1]}) is occupied"
    side = side_to_move(board)
    if pieces_left(board, side, kind, colour) == 0:
        noun = "city" if kind == "C" else "resource"
        return f"the {PLAYER_NAMES[side]} player has no {colour} {noun} left"
    return None


def play(board, text):
    """The board after the legal move `text`."""
    after = dict(board)
    after[(int(text[2]), int(text[3]))] = (text[0], side_to_move(board))
    return after


def parse_position_string(rows_text, side_text):
    """The board of `<rows> <side>`; raises ValueError with the reason."""
    rows = rows_text.split("/")
    if len(rows) != GRID:
        raise ValueError(f"position string: {len(rows)} rows separated by '/', expected {GRID}")
    board = {}
    for i, row in enumerate(rows):
        width = len(ROW_CELLS[i])
        filled = 0
        for k, ch in enumerate(row):
            if filled >= width:
                raise ValueError(f"position string: row {i} '{row}' describes more than its "
                                 f"{width} cells")
            if "1" <= ch <= "9":
                filled += int(ch)
                continue
            if ch.upper() not in COLOURS:
                raise ValueError(f"position string: row {i}, character {k + 1}: unknown "
                                 f"character '{ch}' (expected RGBY, rgby or a digit 1-9)")
            board[ROW_CELLS[i][filled]] = (ch.upper(), 0 if ch.isupper() else 1)
            filled += 1
        if filled != width:
            raise ValueError(f"position string: row {i} '{row}' describes {filled} cells, "
                             f"expected {width}")
    if side_text not in ("w", "b"):
        raise ValueError(f"position string: side to move '{side_text}' must be 'w' or 'b'")
    counts = [0, 0]
    for cell, (colour, owner) in board.items():
        counts[owner] += 1
        kind = kind_of(cell)
        if pieces_left(board, owner, kind, colour) < 0:
            noun = "cities" if kind == "C" else "resources"
            raise ValueError(f"position string: the {PLAYER_NAMES[owner]} player has more than "
                             f"{PIECES_PER_COLOUR[kind]} {colour} {noun} on the board")
    if counts[0] != counts[1] and counts[0] != counts[1] + 1:
        raise ValueError(f"position string: the first player has {counts[0]} pieces and the "
                         f"second {counts[1]}: alternating moves give the first player as many "
                         "as the second, or one more")
    expected = "wb"[side_to_move(board)]
    if side_text != expected:
        raise ValueError(f"position string: side to move is '{side_text}' but with "
                         f"{len(board)} pieces on the board it must be '{expected}'")
    return board


def position_string(board):
    rows = []
    for row_cells in ROW_CELLS:
        text, empty = "", 0
        for cell in row_cells:
            if cell not in board:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            colour, owner = board[cell]
            text += colour if owner == 0 else colour.lower()
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + " " + "wb"[side_to_move(board)]


# --------------------------------------------------------------------------------------
# The course's game state for a position.


class Course:
    """The course's classes, imported from its own folders."""

    def __init__(self):
        from board_divercite import BoardDivercite
        from game_state_divercite import GameStateDivercite
        from player_divercite import PlayerDivercite
        from seahorse.game.game_layout.board import Piece
        from seahorse.game.heavy_action import HeavyAction
        from seahorse.game.light_action import LightAction
        self.BoardDivercite = BoardDivercite
        self.GameStateDivercite = GameStateDivercite
        self.PlayerDivercite = PlayerDivercite
        self.Piece = Piece
        self.HeavyAction = HeavyAction
        self.LightAction = LightAction

    def state(self, start_board, moves, players):
        """The course's GameStateDivercite after `moves` from `start_board`.

        `players` are the first and second Player. From the empty board this is exactly
        main_divercite.py's initial state; from another board the scores are the cities'
        values (the score is a function of the board), then the moves go through the course's
        own apply_action.
        """
        env = {cell: self.Piece(piece_type=colour + kind_of(cell) + PIECE_TYPES[owner],
                                owner=players[owner])
               for cell, (colour, owner) in start_board.items()}
        rep = self.BoardDivercite(env=env, dim=[GRID, GRID])
        scores = {player.get_id(): 0 for player in players}
        for cell, (colour, owner) in start_board.items():
            if kind_of(cell) == "C":
                scores[players[owner].get_id()] += city_value(start_board, cell)
        left = {player.get_id(): {c + k: pieces_left(start_board, owner, k, c)
                                  for c in COLOURS for k in "CR"}
                for owner, player in enumerate(players)}
        step = len(start_board)
        state = self.GameStateDivercite(scores=scores, next_player=players[step % 2],
                                        players=players, rep=rep, step=step,
                                        players_pieces_left=left)
        if step == TOTAL_PLIES and scores[players[0].get_id()] == scores[players[1].get_id()]:
            # A full board given as a string: its last move's tie-break, as the course scores it.
            state.scores = state.remove_draw(dict(scores), rep)
        for text in moves:
            state = state.apply_action(self.light_action(text))
        return state

    def light_action(self, text):
        return self.LightAction({"piece": text[:2], "position": (int(text[2]), int(text[3]))})


def city_value(board, cell):
    """5 for four different resource colours around the city, else its own colour's count."""
    around = [board[n][0] for n in neighbours(cell) if n in board]
    if len(set(around)) == 4:
        return 5
    return around.count(board[cell][0])


# --------------------------------------------------------------------------------------
# The agent.


class AgentError(Exception):
    """What an agent did wrong on one move; it costs the move, not the wrapper."""


def load_agent_class(path):
    """Imports the agent file as the course's main_divercite.py does (by its stem)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    # A file named like a module already loaded (random.py...) must not replace it.
    module_name = stem if stem not in sys.modules else f"_course_agent_{stem}"
    try:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            fail(f"cannot load {path} as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    except SystemExit:
        raise
    except BaseException:  # the agent's own import-time errors, whatever they are
        traceback.print_exc()
        fail(f"importing the agent {path} failed (traceback above)")
    player_class = getattr(module, "MyPlayer", None)
    if not isinstance(player_class, type):
        fail(f"the agent {path} defines no class MyPlayer")
    if not callable(getattr(player_class, "compute_action", None)):
        fail(f"the agent {path}: MyPlayer has no compute_action method")
    return module, player_class, stem


def action_move(action, course):
    """The 4-character move of the agent's action (LightAction or HeavyAction)."""
    if isinstance(action, course.LightAction):
        data = action.data if isinstance(action.data, dict) else {}
        piece, position = data.get("piece"), data.get("position")
        if position is not None and not isinstance(position, tuple):
            # The course's apply_action uses the position as a dict key: a list crashes it.
            raise AgentError(f"returned a LightAction whose position {position!r} is a "
                             f"{type(position).__name__}, not the tuple (row, col) the course "
                             "needs")
        try:
            # numpy integers are fine: the course hashes them as ints.
            row, column = (operator.index(x) for x in position)
        except (TypeError, ValueError):
            row = column = None
        if not isinstance(piece, str) or row is None:
            raise AgentError(f"returned a LightAction whose data {action.data!r} is not "
                             "{'piece': <colour><kind>, 'position': (row, col)}")
        return f"{piece}{row}{column}"
    if isinstance(action, course.HeavyAction):
        before = action.get_current_game_state().get_rep().get_env()
        after = action.get_next_game_state().get_rep().get_env()
        placed = [cell for cell, piece in after.items() if before.get(cell) != piece]
        removed = [cell for cell in before if cell not in after]
        if len(placed) != 1 or removed:
            raise AgentError(f"returned a HeavyAction whose boards differ in "
                             f"{len(placed) + len(removed)} cells, not in the one cell of a move")
        cell = placed[0]
        return f"{after[cell].get_type()[:2]}{cell[0]}{cell[1]}"
    if action is None:
        raise AgentError("returned None")
    raise AgentError(f"returned a {type(action).__name__}, not an action ({action!r:.80})")


def check_heavy_action(action, state, move, course):
    """The course's master accepts a HeavyAction only if it equals (by hash: both states'
    scores and boards) one it generates itself; so must we."""
    expected = course.HeavyAction(state, state.apply_action(course.light_action(move)))
    if hash(action) != hash(expected):
        raise AgentError(f"returned a HeavyAction to {move} that is not the course's: its "
                         "current or next state (scores, board or pieces' owners) differs "
                         "from the state it was given and the move")


def seed_generators(seed, board):
    """Seeds Python's random and numpy's global generator from the Seed and the position."""
    text = f"{seed}:{position_string(board)}"
    random.seed(text)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        digest = hashlib.sha256(text.encode()).digest()
        numpy.random.seed(int.from_bytes(digest[:4], "little"))


# --------------------------------------------------------------------------------------
# The protocol.

CLOCK_KEYS = {"wtime": 0, "p1time": 0, "btime": 1, "p2time": 1}
IGNORED_KEYS = {"winc", "binc", "p1inc", "p2inc", "movestogo", "movetime", "depth", "nodes"}


class Session:
    """The command loop: the position, the agent instances and the thinking worker."""

    def __init__(self, output, course, agent_module, player_class, stem):
        self.output = output
        self.course = course
        self.player_class = player_class
        self.stem = stem
        self.author = getattr(agent_module, "__author__", None)
        self.seed = None
        self.lock = threading.Lock()
        self.thinking = False
        self.worker = None
        self.new_game()

    # -- helpers

    def send(self, line):
        self.output.send(line)

    def error(self, reason):
        self.send(f"info string error: {reason}")

    def is_thinking(self):
        with self.lock:
            return self.thinking

    def refuse_while_thinking(self, command):
        if not self.is_thinking():
            return False
        self.error(f"{command}: the agent is thinking (stop cannot interrupt it); wait for its "
                   "bestmove")
        return True

    def new_game(self):
        self.start_board = {}
        self.moves = []
        self.board = {}
        # Per side: the agent instance and the plain player standing for its opponent, kept
        # for the whole game, since agents may keep state (and ids) between moves.
        self.agents = [None, None]
        self.stand_ins = [None, None]

    def scores_state(self):
        """The course's state of the position with two plain players (for d and query)."""
        players = [self.course.PlayerDivercite(PIECE_TYPES[p], name=f"{PLAYER_NAMES[p]}")
                   for p in (0, 1)]
        return self.course.state(self.start_board, self.moves, players), players

    def result(self):
        if len(self.board) < TOTAL_PLIES:
            return None
        state, players = self.scores_state()
        first, second = (state.scores[p.get_id()] for p in players)
        return "p1win" if first > second else "p2win" if second > first else "draw"

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
            pass  # Python cannot be interrupted: the bestmove comes when the agent returns
        elif command in ("ucinewgame", "uginewgame"):
            if not self.refuse_while_thinking(command):
                self.new_game()
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
        if not args:
            return self.error("position: expected 'startpos' or 'fen <rows> <side>', then "
                              "'moves ...'")
        if args[0] == "startpos":
            start, rest = {}, args[1:]
        elif args[0] == "fen":
            if len(args) < 3:
                return self.error("position fen: expected '<rows> <side>'")
            try:
                start = parse_position_string(args[1], args[2])
            except ValueError as reason:
                return self.error(str(reason))
            rest = args[3:]
        else:
            return self.error(f"position: unknown kind '{args[0]}', expected 'startpos' or "
                              "'fen'")
        if rest and rest[0] != "moves":
            return self.error(f"position: expected 'moves' but got '{rest[0]}'")
        moves = rest[1:]
        board = start
        for number, text in enumerate(moves, 1):
            problem = move_problem(board, text)
            if problem is not None:
                return self.error(f"position: move {number} of {len(moves)}, '{text}': "
                                  f"{problem}")
            board = play(board, text)
        self.start_board, self.moves, self.board = start, list(moves), board

    def go(self, args):
        clocks = [None, None]
        i = 0
        while i < len(args):
            key = args[i]
            if key == "infinite":
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
        if len(self.board) >= TOTAL_PLIES:
            self.send("info string the game is over")
            self.send("bestmove (none)")
            return
        side = side_to_move(self.board)
        remaining = COURSE_CLOCK_SECONDS if clocks[side] is None else clocks[side] / 1000.0
        if self.worker is not None:
            self.worker.join()  # it has sent its bestmove already
        with self.lock:
            self.thinking = True
        job = (dict(self.start_board), list(self.moves), dict(self.board), side, remaining)
        self.worker = threading.Thread(target=self.think, args=job, daemon=True)
        self.worker.start()

    def query(self, args):
        if len(args) != 1:
            return self.error("query: expected one of gameover, p1turn, result")
        if args[0] == "gameover":
            self.send(f"response {'true' if len(self.board) >= TOTAL_PLIES else 'false'}")
        elif args[0] == "p1turn":
            self.send(f"response {'true' if side_to_move(self.board) == 0 else 'false'}")
        elif args[0] == "result":
            self.send(f"response {self.result() or 'none'}")
        else:
            self.error(f"query: unknown query '{args[0]}', expected gameover, p1turn or result")

    def display(self):
        state, players = self.scores_state()
        self.send(f"fen {position_string(self.board)}")
        self.send(f"scores {state.scores[players[0].get_id()]} "
                  f"{state.scores[players[1].get_id()]}")
        result = {"p1win": "1-0", "p2win": "0-1", "draw": "1/2-1/2"}.get(self.result(), "*")
        self.send(f"result {result}")

    # -- the worker thread

    def think(self, start_board, moves, board, side, remaining):
        """Asks the agent for its move and answers bestmove, whatever the agent does."""
        started = time.monotonic()
        try:
            move = self.agent_move(start_board, moves, board, side, remaining)
        except AgentError as reason:
            self.error(str(reason))
            move = "(none)"
        except BaseException as exception:  # a bug here must still answer the go
            traceback.print_exc()
            self.error(f"course_engine.py failed: {type(exception).__name__}: {exception}")
            move = "(none)"
        elapsed_ms = int((time.monotonic() - started) * 1000)
        if move != "(none)":
            self.send(f"info time {elapsed_ms}")
        # Cleared before the bestmove: the client may send its next command at once.
        with self.lock:
            self.thinking = False
        self.send(f"bestmove {move}")

    def agent_move(self, start_board, moves, board, side, remaining):
        agent = self.agent_for(side)
        players = [None, None]
        players[side] = agent
        players[1 - side] = self.stand_in_for(1 - side)
        state = self.course.state(start_board, moves, players)
        if self.seed is not None:
            seed_generators(self.seed, board)
        name = f"{type(agent).__name__}.compute_action"
        try:
            action = agent.compute_action(current_state=state, remaining_time=remaining)
        except BaseException as exception:  # SystemExit included: it costs the move only
            traceback.print_exc()
            raise AgentError(f"{name} raised {type(exception).__name__}: {exception}")
        try:
            move = action_move(action, self.course)
            problem = move_problem(board, move)
            if problem is not None:
                raise AgentError(f"returned an illegal move {move}: {problem}")
            if isinstance(action, self.course.HeavyAction):
                check_heavy_action(action, state, move, self.course)
        except AgentError as reason:
            raise AgentError(f"{name} {reason}")
        return move

    def agent_for(self, side):
        """The agent instance playing `side` in this game, made on first need."""
        if self.agents[side] is None:
            try:
                self.agents[side] = self.player_class(PIECE_TYPES[side],
                                                      name=f"{self.stem}_{side + 1}")
            except BaseException as exception:
                traceback.print_exc()
                raise AgentError(f"{self.player_class.__name__}({PIECE_TYPES[side]!r}) raised "
                                 f"{type(exception).__name__}: {exception}")
        return self.agents[side]

    def stand_in_for(self, side):
        if self.stand_ins[side] is None:
            self.stand_ins[side] = self.course.PlayerDivercite(
                PIECE_TYPES[side], name=f"opponent_{side + 1}")
        return self.stand_ins[side]


# --------------------------------------------------------------------------------------


def parse_arguments():
    parser = argparse.ArgumentParser(
        prog="course_engine.py",
        description="Plays a course Divercité agent (a file defining MyPlayer(PlayerDivercite) "
                    "with compute_action) over the divercite engine protocol, for "
                    "divercite-match.",
        epilog=HELP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--course", metavar="DIR",
                        help="the course's Divercité folder (holding game_state_divercite.py)")
    parser.add_argument("--seahorse", metavar="DIR",
                        help="the folder that contains the seahorse package")
    parser.add_argument("agent", metavar="AGENT.py", help="the agent's file, e.g. my_player.py")
    return parser.parse_args()


def main():
    ensure_interpreter()
    # The script's own folder (tools/seahorse/) must not shadow the course's modules.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    arguments = parse_arguments()
    agent_path = os.path.abspath(arguments.agent)
    if not os.path.isfile(agent_path):
        fail(f"no agent file {arguments.agent}")
    agent_dir = os.path.dirname(agent_path)
    course_dir = find_course_dir(arguments.course, agent_dir)
    seahorse_dir = find_seahorse_dir(arguments.seahorse, course_dir)

    commands, output = take_protocol_streams()
    # The course's folder first (its modules are the rules), then the agent's own helpers.
    for folder in reversed([course_dir, agent_dir] + ([seahorse_dir] if seahorse_dir else [])):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    os.chdir(agent_dir)  # agents open their data files as under main_divercite.py
    try:
        course = Course()
    except Exception:
        traceback.print_exc()
        fail(f"importing the course's code from {course_dir} failed (traceback above)")
    module, player_class, stem = load_agent_class(agent_path)
    try:
        player_class(PIECE_TYPES[0], name=f"{stem}_1")  # fail now rather than at the first go
    except BaseException:
        traceback.print_exc()
        fail(f"constructing MyPlayer('W', name='{stem}_1') from {agent_path} failed "
             "(traceback above)")

    session = Session(output, course, module, player_class, stem)
    for line in commands:
        if not session.handle(line):
            break
    else:
        # End of input: a pipe closed after `go` still expects its bestmove.
        if session.worker is not None:
            session.worker.join()
    sys.stderr.flush()
    os._exit(0)  # no wait for threads an agent may have left running


if __name__ == "__main__":
    main()
