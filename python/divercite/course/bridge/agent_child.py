"""The agent's own process: one per side and per game, as the course gives it one per game.

The bridge (agent_process.py) starts this module in a fresh Python whose working directory is
the agent's folder; the agent's folder comes first on sys.path, then the course's folders, as
under the course's main_divercite.py. It imports the course's code and the agent, then answers
the bridge's requests, one JSON object a line on its private copies of stdin and stdout (the
agent's own stdout goes to stderr):

    {"ready": true, "author": ...} | {"fatal": why}            once, at start
    {"cmd": "player", "side": 0|1, "name": ...}  ->  {"ok": true} | {"error": why}
                                                         | {"error": why, "crash": true}
    {"cmd": "move", "start": "<rows> <side>", "moves": [...], "remaining": seconds,
     "seed": N|null}                                 ->  {"move": "RC14"} | {"error": why}
                                                         | {"error": why, "crash": true}
                                                         | {"error": why, "limit": true}
    {"warning": why}   after a reply, at most once a game: the course's master would crash
                       serialising the player (see actions.master_serialisation_problem)

A `crash` reply: the agent's own code raised (actions.crash_text says where); its traceback
is on stderr, which is the agent's log. A `limit` reply is this process's belief (a
MemoryError under its address-space cap): the bridge reports a limit only when its own watch
of the sandbox saw one (protocol.py), since the agent can write any line on these streams.

The end of its input (the bridge gone or done with it) ends the process at once, even while
the agent thinks.
"""

import hashlib
import importlib.util
import json
import os
import queue
import random
import sys
import threading
import traceback

from ... import notation
from ...sandbox import inside as sandbox_inside
from . import actions, streams
from .rules import PIECE_TYPES, Course

# The child is started as `python3 -c BOOT <folder holding the package divercite> <config
# json>`.
BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); "
        "from divercite.course.bridge.agent_child import main; main(sys.argv[2])")


class Fatal(Exception):
    """The agent cannot be loaded at all."""


def load_agent_class(path):
    """Imports the agent file as the course's main_divercite.py does (by its stem). Its
    errors name the file within its folder: a reason never shows where the machine keeps it."""
    file_name = os.path.basename(path)
    stem = os.path.splitext(file_name)[0]
    # A file named like a module already loaded (json.py...) must not replace it.
    module_name = stem if stem not in sys.modules else f"_course_agent_{stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise Fatal(f"cannot load {file_name} as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as exception:  # the agent's own import-time errors, whatever they are
        traceback.print_exc()
        raise Fatal(f"importing {file_name} failed: " +
                    actions.crash_text(exception, "import", os.path.dirname(path)))
    player_class = getattr(module, "MyPlayer", None)
    if not isinstance(player_class, type):
        raise Fatal(f"{file_name} defines no class MyPlayer")
    if not callable(getattr(player_class, "compute_action", None)):
        raise Fatal(f"{file_name}: MyPlayer has no compute_action method")
    return module, player_class


def seed_generators(seed, board):
    """Seeds Python's random and numpy's global generator from the Seed and the position."""
    text = f"{seed}:{notation.position_string(board)}"
    random.seed(text)
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        digest = hashlib.sha256(text.encode()).digest()
        numpy.random.seed(int.from_bytes(digest[:4], "little"))


class AgentHost:
    """The agent's instance for one side of one game, and the plain player opposite it."""

    def __init__(self, output, course, player_class, sandbox, agent_dir):
        self.sandbox = sandbox  # its limits, when the process runs in a sandbox
        self.agent_dir = agent_dir
        self.output = output
        self.course = course
        self.player_class = player_class
        self.agent = None
        self.players = None
        self.warned = False

    def reply(self, **message):
        self.output.send(json.dumps(message))

    def make_player(self, side, name):
        try:
            self.agent = self.player_class(PIECE_TYPES[side], name=name)
        except BaseException as exception:
            traceback.print_exc()
            where = f"{self.player_class.__name__}({PIECE_TYPES[side]!r}, name={name!r})"
            return self.reply(error=actions.crash_text(exception, where, self.agent_dir),
                              crash=True)
        other = 1 - side
        stand_in = self.course.PlayerDivercite(PIECE_TYPES[other], name=f"opponent_{other + 1}")
        self.players = [None, None]
        self.players[side], self.players[other] = self.agent, stand_in
        self.reply(ok=True)
        # The course's master serialises the players before the first move too.
        self.check_serialisation()

    def move(self, start, moves, remaining, seed):
        try:
            move = self.agent_move(start, moves, remaining, seed)
        except actions.LimitHit as reason:
            return self.reply(error=str(reason), limit=True)
        except actions.AgentCrash as reason:
            return self.reply(error=str(reason), crash=True)
        except actions.AgentError as reason:
            return self.reply(error=str(reason))
        except BaseException as exception:  # a bug here must still answer
            traceback.print_exc()
            return self.reply(error=f"course_engine.py failed: {type(exception).__name__}: "
                                    f"{exception}")
        self.reply(move=move)
        self.check_serialisation()

    def agent_move(self, start, moves, remaining, seed):
        # The bridge has checked the position with the course's rules already.
        state = self.course.state(start, moves, self.players, checked=False)
        if self.course.side(state) != self.players.index(self.agent):
            raise actions.AgentError("course_engine.py: asked to move for the other side")
        if seed is not None:
            seed_generators(seed, self.course.board(state))
        name = f"{type(self.agent).__name__}.compute_action"
        try:
            action = self.agent.compute_action(current_state=state, remaining_time=remaining)
        except BaseException as exception:  # SystemExit included: it costs the move only
            traceback.print_exc()
            limit = self.sandbox and sandbox_inside.limit_hit(self.sandbox, exception)
            if limit:
                raise actions.LimitHit(f"{limit} ({name} raised {type(exception).__name__}: "
                                       f"{exception})")
            raise actions.AgentCrash(actions.crash_text(exception, name, self.agent_dir))
        try:
            move = actions.action_move(action, self.course)
            problem = self.course.move_problem(state, move)
            if problem is not None:
                raise actions.AgentError(f"returned an illegal move {move}: {problem}")
            if isinstance(action, self.course.HeavyAction):
                actions.check_heavy_action(action, state, move, self.course)
        except actions.AgentError as reason:
            raise actions.AgentError(f"{name} {reason}")
        return move

    def check_serialisation(self):
        """Warns once a game when the course's master would crash on this player."""
        if self.warned:
            return
        problem = actions.master_serialisation_problem(self.agent)
        if problem is not None:
            self.warned = True
            self.reply(warning=f"the course's master would crash serialising "
                               f"{type(self.agent).__name__} (it sends the players' public "
                               "attributes as json before the first move and after each): "
                               f"{problem}")


def read_requests(commands, requests):
    """Feeds the requests to the main thread; the end of the input ends the process, even
    while the agent thinks (the bridge has gone, or is done with this game)."""
    for line in commands:
        requests.put(json.loads(line))
    os._exit(0)


def main(config_text):
    config = json.loads(config_text)
    commands, output = streams.take_protocol_streams()
    package_folder = os.path.abspath(sys.argv[1])
    # As under main_divercite.py: the agent's folder (its working directory) first, then the
    # course's folders; neither the package's folder nor '' (the -c boot's) stays.
    rest = [p for p in sys.path if p and os.path.abspath(p) != package_folder]
    front = [config["agent_dir"], config["course_dir"]] + config["extra_path"]
    sys.path[:] = front + [p for p in rest if p not in front]
    sys.argv[:] = [config["agent_path"]]

    def fatal(why):
        output.send(json.dumps({"fatal": why}))
        os._exit(2)

    if config.get("sandbox"):
        try:
            sandbox_inside.enter(config["sandbox"])
        except OSError as error:
            fatal(f"setting up the sandbox failed: {error}")

    try:
        course = Course()
    except Exception:
        traceback.print_exc()
        fatal(f"importing the course's code from {config['course_dir']} failed (traceback "
              "above)")
    try:
        module, player_class = load_agent_class(config["agent_path"])
    except Fatal as why:
        fatal(str(why))
    output.send(json.dumps({"ready": True, "author": str(getattr(module, "__author__", ""))}))

    requests = queue.Queue()
    threading.Thread(target=read_requests, args=(commands, requests), daemon=True).start()
    host = AgentHost(output, course, player_class, config.get("sandbox"), config["agent_dir"])
    while True:
        request = requests.get()
        if request["cmd"] == "player":
            host.make_player(request["side"], request["name"])
        elif request["cmd"] == "move":
            start = notation.parse_position_string(*request["start"].split())
            host.move(start, request["moves"], request["remaining"], request["seed"])
