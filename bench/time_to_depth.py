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
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_figures import (configuration, field, position_after, reference_games,  # noqa: E402
                            run, start_engines)


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
    games = reference_games()
    positions = [position_after(games[int(g)]["moves"][:ply])
                 for g in args.games.split(",") for ply in plies]

    engines = start_engines(args.configurations, "time_to_depth.py", {"Hash": "64"})
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
    run(main, "time_to_depth.py")
