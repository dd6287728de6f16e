#!/usr/bin/env python3
"""The engine's figures, measured over the protocol with positions from the course's own games.

    engine_figures.py solve ENGINE PLIES_LEFT [--games 0,1,2,3,4] [--repeat N] [Option=Value ...]
        Solves exactly (`go depth 40`) the positions PLIES_LEFT plies before the end of the
        reference games; prints wall time, the engine's CPU time, value, nodes and move, and
        the median wall time per game over the repeats.
    engine_figures.py depth ENGINE [Option=Value ...]
        `go movetime 1000` from the start and from plies 10, 20 and 30 of reference games 0-2:
        depth reached, score, nodes and nodes per second.

Options are set with `setoption`, each checked first against the engine's `option` lines (Hash
defaults to 256 MiB for an engine that has it). The reference games are read from
../shared/reference/games.jsonl beside the project, or from $DIVERCITE_REFERENCE_GAMES. The
protocol is spoken by the Python package's divercite.engine (PYTHONPATH=<build>/python, else
the checkout's build/python). An engine that
dies, does not answer `uci` or `isready` in time, or refuses an option ends the run with an
error that names it and its exit status.
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_GAMES = os.path.join(HERE, "..", "..", "shared", "reference", "games.jsonl")
# The protocol client is the Python package's (divercite.engine): from PYTHONPATH, else from
# the checkout's build tree.
try:
    import divercite
except ImportError:
    sys.path.insert(0, os.path.join(HERE, "..", "build", "python"))
    try:
        import divercite
    except ImportError:
        sys.exit(f"{os.path.basename(sys.argv[0])} needs the Python package divercite: build "
                 f"it (scripts/build.sh), or set PYTHONPATH=<build>/python")
from divercite.engine import Engine as ProtocolEngine  # noqa: E402
from divercite.engine import EngineError  # noqa: E402  (the scripts' error)

# A search may think for as long as it needs (an exact solve far from the end): a day.
SEARCH_TIMEOUT = 24 * 3600.0


def limits_of(command):
    """`go depth 40` or `go prove movetime 500` as play()'s keyword arguments."""
    words = command.split()[1:]
    limits = {"prove": "prove" in words}
    words = [word for word in words if word != "prove"]
    for key, value in zip(words[::2], words[1::2]):
        limits[key] = int(value)
    return limits


class Engine:
    """One engine process spoken to over the protocol (divercite.engine). `name` labels it in
    errors (default: the command); `answer_timeout` bounds the wait for `uciok` and
    `readyok`, in seconds (a search may think for as long as it needs)."""

    def __init__(self, command, options, name=None, answer_timeout=60):
        self.name = name or command
        self.engine = ProtocolEngine.popen(command, timeout=answer_timeout, name=self.name)
        # Hash 256 MiB unless set, for an engine that has it.
        default = {"Hash": "256"} if "Hash" in self.engine.options else {}
        try:
            self.engine.configure({**default, **options})
        except ValueError as error:  # an option the engine does not take
            self.engine.quit()
            raise EngineError(f"{self.name}: {error}") from None

    def cpu_seconds(self):
        # utime + stime of the engine process, from /proc (Linux).
        fields = open(f"/proc/{self.engine.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def go(self, position, command):
        """Runs one search of `position` (a divercite.Position) with `command` (`go ...`)
        after `ucinewgame`; returns (wall s, cpu s, the PlayResult, bestmove)."""
        self.engine.new_game()
        wall, cpu = time.monotonic(), self.cpu_seconds()
        result = self.engine.play(position, timeout=SEARCH_TIMEOUT, **limits_of(command))
        return time.monotonic() - wall, self.cpu_seconds() - cpu, result, result.move

    def quit(self):
        self.engine.quit()


def reference_games(path=None):
    """Games as dicts with "moves": those of `path` (JSON lines), else the course's reference
    games, from $DIVERCITE_REFERENCE_GAMES or ../shared/reference/games.jsonl beside the
    project."""
    with open(path or os.environ.get("DIVERCITE_REFERENCE_GAMES", DEFAULT_GAMES)) as file:
        return [json.loads(line) for line in file if line.strip()]


def engine_options(items):
    """Option=Value strings as a dict for setoption; ValueError names the first without "="."""
    bad = [item for item in items if "=" not in item]
    if bad:
        raise ValueError(f"options are Option=Value, not {bad[0]!r}")
    return dict(item.split("=", 1) for item in items)


def configuration(text):
    """NAME=ENGINE[,Option=Value...], an argparse type: (name, command, options)."""
    name, _, rest = text.partition("=")
    parts = rest.split(",")
    if not name or not parts[0]:
        raise argparse.ArgumentTypeError(f"expected NAME=ENGINE[,Option=Value...], got {text!r}")
    try:
        return name, parts[0], engine_options(parts[1:])
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error))


def start_engines(configurations, program, defaults=None):
    """One engine process per (name, command, options), the options over `defaults`; exits
    naming `program` and the configuration if one cannot start."""
    engines = {}
    for name, command, options in configurations:
        try:
            engines[name] = Engine(command, {**(defaults or {}), **options},
                                   name=f"{name} ({command})")
        except EngineError as error:
            sys.exit(f"{program}: cannot start {name}'s engine {command!r}: {error}")
    return engines


def run(main, program):
    """Runs a measurement's `main`; an engine's failure ends it with its message, naming
    `program`, and a non-zero exit status."""
    try:
        main()
    except EngineError as error:
        sys.exit(f"{program}: {error}")


def field(result, name):
    """A figure of a search's last report (a PlayResult): `cp`, `depth`, `nodes`, `nps`,
    `time`."""
    return result.info["score" if name == "cp" else name]


def position_after(moves):
    return divercite.Position.from_moves(moves)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["solve", "depth"])
    parser.add_argument("engine")
    parser.add_argument("rest", nargs="*", metavar="[PLIES_LEFT] Option=Value",
                        help="for solve, the plies left first; then options for setoption")
    parser.add_argument("--games", default="0,1,2,3,4")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_intermixed_args()
    rest = list(args.rest)
    args.plies_left = int(rest.pop(0)) if rest and rest[0].isdigit() else None
    try:
        options = engine_options(rest)
    except ValueError as error:
        parser.error(str(error))
    games = reference_games()
    engine = Engine(args.engine, options)

    if args.what == "solve":
        if args.plies_left is None or not 1 <= args.plies_left <= 40:
            sys.exit("solve needs PLIES_LEFT between 1 and 40")
        walls = {}
        for _ in range(args.repeat):
            for game in (int(g) for g in args.games.split(",")):
                moves = games[game]["moves"][:40 - args.plies_left]
                wall, cpu, info, move = engine.go(position_after(moves), "go depth 40")
                walls.setdefault(game, []).append(wall)
                print(f"game {game} plies left {args.plies_left}: {wall:7.2f} s wall"
                      f" {cpu:7.2f} s cpu  score {field(info, 'cp'):>5} nodes"
                      f" {field(info, 'nodes'):>11} bestmove {move}", flush=True)
        medians = {game: statistics.median(times) for game, times in walls.items()}
        print("median wall s per game:",
              " ".join(f"{game}:{median:.2f}" for game, median in medians.items()),
              f" median of those: {statistics.median(medians.values()):.2f}")
    else:
        cases = [("start", [])] + [(f"game {g} ply {ply}", games[g]["moves"][:ply])
                                   for ply in (10, 20, 30) for g in range(3)]
        for name, moves in cases:
            wall, _, info, move = engine.go(position_after(moves), "go movetime 1000")
            print(f"{name:16} depth {field(info, 'depth'):>2} score {field(info, 'cp'):>5}"
                  f" nodes {field(info, 'nodes'):>9} nps {field(info, 'nps'):>9}"
                  f" time {field(info, 'time')} ms bestmove {move}", flush=True)
    engine.quit()


if __name__ == "__main__":
    run(main, "engine_figures.py")
