"""A course agent as an engine of our protocol: `python3 -m divercite.course.engine AGENT.py`.

The command line of the bridge (divercite.course.bridge), also run by the launcher
tools/seahorse/course_engine.py: finds the course, checks that the agent starts, then runs
the protocol loop. `--help` lists the protocol as the bridge speaks it.

    divercite-match -engine cmd=python3 arg=-m arg=divercite.course.engine \\
        arg=path/to/my_player.py name=mine tc=inf -engine cmd=divercite name=engine tc=10
"""

import argparse
import os
import sys
import traceback

from .. import sandbox
from ..sandbox.limits import add_limit_arguments, limits_given
from .bridge import agent_process, interpreter, locations, streams
from .bridge.agent_log import KEEP_BYTES, AgentLog
from .bridge.agent_process import AgentLauncher
from .bridge.protocol import COURSE_CLOCK_SECONDS, OVERTIME_SECONDS, Session
from .bridge.rules import Course

HELP_EPILOG = f"""\
protocol (stdin/stdout, one command a line): docs/protocol.md in the repository specifies it,
and its section "A course agent through the bridge" says what a course agent answers:
  uci | ugi, isready, setoption name Seed value N, ucinewgame, position startpos|fen ...
  [moves ...], go [wtime|btime MS ...] [infinite], stop, query, d, quit. The agent gets
  remaining_time = its side's clock in seconds ({COURSE_CLOCK_SECONDS:g} without one);
  depth, nodes, movetime and the increments are accepted and ignored. A stop while the
  agent thinks ends its process ('bestmove (none)'); an agent that raises answers 'info
  string crash: <exception> in <file>, line N ...', one that returns no legal move, or still
  thinks {OVERTIME_SECONDS:g} s after its clock ran out, 'info string error: ...'; then
  'bestmove (none)', and the next go works.

one game, one fresh agent:
  Every side of every game runs in a Python process of its own, as the course's
  main_divercite.py runs one game per process: the agent's module, the modules it imports
  from its folder, its class attributes and globals start anew each game. The process has
  the agent's folder as its working directory and first on sys.path (then the course's
  folders), PYTHONHASHSEED fixed (0 unless set, so that with a Seed agents that pick from
  sets replay too), and gets a new MyPlayer('W' or 'B', name='<stem>_1' or '_2') and the
  course's own GameStateDivercite. The next game's process is started ahead, while the
  bridge waits.

notes:
  - An agent the course's master could not serialise after a move (a lock, a file, a set
    in a public attribute) plays on; 'info string warning: ...' says so once a game.
  - --course defaults to the agent's folder when it holds game_state_divercite.py, else
    DIVERCITE_COURSE_DIR (the course root or its divercite folder), else
    ../shared/course/divercite beside this repository. --seahorse defaults to an importable
    seahorse, else the seahorse folder beside the course folder.
"""


def parse_arguments(prog):
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Plays a course Divercité agent (a file defining MyPlayer(PlayerDivercite) "
                    "with compute_action) over the divercite engine protocol, for "
                    "divercite-match.",
        epilog=HELP_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--course", metavar="DIR",
                        help="the course's Divercité folder (holding game_state_divercite.py), "
                             "or the course's root above it")
    parser.add_argument("--seahorse", metavar="DIR",
                        help="the folder that contains the seahorse package")
    parser.add_argument("agent", metavar="AGENT.py", help="the agent's file, e.g. my_player.py")
    group = parser.add_argument_group(
        "sandbox", "untrusted agents: each process in a bubblewrap sandbox with no network, "
        "no view of the files but the system's, the course's and a private copy of its own "
        "folder, and the limits below (a limit hit ends its game: 'memory limit', 'process "
        "limit')")
    group.add_argument("--sandbox", action="store_true",
                       help="run every agent process in a sandbox")
    add_limit_arguments(group)
    parser.add_argument("--agent-log", metavar="FILE",
                        help="keep what the agent's processes write (their stdout and stderr, "
                             "tracebacks) and the bridge's warnings about it in FILE, its last "
                             f"{KEEP_BYTES // 1024} KB, instead of on the bridge's stderr")
    group.add_argument("--readable", action="append", default=[], metavar="DIR",
                       help="a folder the agent may read besides its own, e.g. a venv with "
                            "its packages (repeatable)")
    arguments = parser.parse_args()
    given = limits_given(arguments)
    if not arguments.sandbox and (given or arguments.readable):
        parser.error("the sandbox's limits and --readable need --sandbox")
    arguments.limits = sandbox.Limits(**given)
    return arguments


def check_agent_starts(launcher, agent_path, stem, output):
    """The agent's author; exits with code 2 if the agent cannot be imported or built (a
    sandbox's limit hit is said on `output` first, as `info string limit: ...`).

    Checked in a process of its own, thrown away after: MyPlayer's constructor may set
    class-level state, which no game may inherit."""
    probe = launcher.start(on_warning=lambda _: None)
    why = probe.ready()
    if why is None:
        reply = probe.ask(cmd="player", side=0, name=f"{stem}_1")
        if reply is None or "error" in reply:
            why = (f"constructing MyPlayer('W', name='{stem}_1') from "
                   f"{os.path.basename(agent_path)} failed: " +
                   (reply["error"] if reply else f"its process ended ({probe.exit_status()})"))
    author = probe.author()
    probe.kill()
    if why is not None:
        if launcher.log is not None:
            launcher.log.drain()
        limit = probe.limit_reason()
        if limit is not None:
            output.send(f"info string limit: {limit}")
        launcher.close()
        interpreter.fail(why)
    return author


def main(prog="python3 -m divercite.course.engine"):
    interpreter.ensure_interpreter(__spec__.name, agent_process.PACKAGE_FOLDER)
    interpreter.die_with_parent()
    arguments = parse_arguments(prog)
    agent_path = os.path.abspath(arguments.agent)
    if not os.path.isfile(agent_path):
        interpreter.fail(f"no agent file {arguments.agent}")
    agent_dir = os.path.dirname(agent_path)
    stem = os.path.splitext(os.path.basename(agent_path))[0]
    course_dir = locations.find_course_dir(arguments.course, agent_dir)
    seahorse_dir = locations.find_seahorse_dir(arguments.seahorse, course_dir)
    extra_path = [seahorse_dir] if seahorse_dir else []

    commands, output = streams.take_protocol_streams()
    # This process never imports the agent: only the course's code, for positions and scores.
    for folder in reversed([course_dir] + extra_path):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        course = Course()
    except Exception:
        traceback.print_exc()
        interpreter.fail(f"importing the course's code from {course_dir} failed (traceback "
                         "above)")

    session = None
    log = None
    if arguments.agent_log:
        try:
            log = AgentLog(arguments.agent_log)
        except OSError as error:
            interpreter.fail(f"--agent-log: {error}")

    def warn(reason):
        session.warn(reason)

    box = None
    if arguments.sandbox:
        try:
            # Only the course's modules: an agent kept in the course's folder is not shown.
            shown = [] if course_dir == agent_dir else [
                (course_dir, course_dir, lambda name: name.endswith("_divercite.py"))]
            if seahorse_dir is not None:
                package = os.path.join(seahorse_dir, "seahorse")
                shown.append((package, package, None))
            box = sandbox.Sandbox(arguments.limits, agent_dir, shown,
                                  agent_process.PACKAGE_FOLDER, arguments.readable)
        except (sandbox.SandboxError, OSError) as error:
            interpreter.fail(f"--sandbox: {error}")
    launcher = AgentLauncher(agent_path, course_dir, extra_path, on_warning=warn, sandbox=box,
                             log=log)
    launcher.prepare()  # the first game's process starts beside the check
    author = check_agent_starts(launcher, agent_path, stem, output)
    session = Session(output, course, launcher, stem, author, log)
    for line in commands:
        if not session.handle(line):
            break
    else:
        # End of input: a pipe closed after `go` still expects its bestmove.
        if session.worker is not None:
            session.worker.join()
    session.close()
    sys.stderr.flush()
    os._exit(0)  # no wait for threads


if __name__ == "__main__":
    main()
