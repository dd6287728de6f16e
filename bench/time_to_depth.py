#!/usr/bin/env python3
"""Time to depth of several engine configurations, interleaved, for thread-scaling claims.

    time_to_depth.py DEPTH NAME=ENGINE[,Option=Value...] NAME=ENGINE[,...] ... [--repeat N]
                     [--games 0,1,2,3,4,5] [--plies 4,8,12,16,20]

Each configuration runs in its own engine process (Hash 64 MiB unless an option says
otherwise). Every position (the given plies of the given reference games, all before the
solver can reach the end) is searched with `go depth DEPTH` after `ucinewgame` by each
configuration in turn, the order reversed every other repeat, so that a noisy machine slows
them alike. Prints, per configuration, the total wall time of each repeat, their median,
the nodes per repeat, and the speed-up of each median against the first configuration's.

    time_to_depth.py 8 one=build/bin/divercite,Threads=1 two=build/bin/divercite,Threads=2
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_figures import DEFAULT_GAMES, Engine, field, position_after  # noqa: E402


def configuration(text):
    name, _, rest = text.partition("=")
    parts = rest.split(",")
    if not name or not parts[0]:
        raise argparse.ArgumentTypeError(f"expected NAME=ENGINE[,Option=Value...], got {text!r}")
    bad = [part for part in parts[1:] if "=" not in part]
    if bad:
        raise argparse.ArgumentTypeError(f"options are Option=Value, not {bad[0]!r}")
    return name, parts[0], dict(part.split("=", 1) for part in parts[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("depth", type=int)
    parser.add_argument("configurations", nargs="+", type=configuration)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", default="0,1,2,3,4,5")
    parser.add_argument("--plies", default="4,8,12,16,20")
    args = parser.parse_args()
    if len({name for name, _, _ in args.configurations}) != len(args.configurations):
        parser.error("each configuration needs a name of its own")
    plies = [int(p) for p in args.plies.split(",")]
    if any(ply < 0 or ply + args.depth + 6 >= 40 for ply in plies):
        parser.error("every ply must be >= 0 and leave the solver out of reach (ply + depth < 34)")
    with open(os.environ.get("DIVERCITE_REFERENCE_GAMES", DEFAULT_GAMES)) as file:
        games = [json.loads(line) for line in file if line.strip()]
    positions = [position_after(games[int(g)]["moves"][:ply])
                 for g in args.games.split(",") for ply in plies]

    engines = {}
    for name, command, options in args.configurations:
        try:
            engines[name] = Engine(command, {"Hash": "64", **options})
        except OSError as error:
            sys.exit(f"time_to_depth.py: cannot start {name}'s engine {command!r}: {error}")
    totals = {name: [] for name in engines}
    nodes = {name: [] for name in engines}
    for repeat in range(args.repeat):
        order = list(engines) if repeat % 2 == 0 else list(reversed(engines))
        wall = dict.fromkeys(engines, 0.0)
        count = dict.fromkeys(engines, 0)
        for position in positions:
            for name in order:
                seconds, _, info, _ = engines[name].go(position, f"go depth {args.depth}")
                wall[name] += seconds
                count[name] += int(field(info, "nodes"))
        for name in engines:
            totals[name].append(wall[name])
            nodes[name].append(count[name])
    for engine in engines.values():
        engine.quit()

    first = statistics.median(totals[next(iter(engines))])
    for name in engines:
        median = statistics.median(totals[name])
        print(f"{name:12} total s per repeat {' '.join(f'{t:.2f}' for t in totals[name])}"
              f"  median {median:.2f}  nodes {statistics.median(nodes[name]):,.0f}"
              f"  speed-up {first / median:.2f}x")


if __name__ == "__main__":
    main()
