#!/usr/bin/env python3
"""Exact-solve figures of several engine configurations, interleaved, as one table.

    solve_table.py PLIES_LEFT[,PLIES_LEFT...] NAME=ENGINE[,Option=Value...][,go=WORDS] ...
                   [--games 0,1,2,3,4] [--markdown]

Each configuration runs in its own engine process (Hash 256 MiB unless an option says
otherwise). For every number of plies left, every reference game's position that many plies
before its end is solved (`go depth 40` after `ucinewgame`, or `go WORDS` with `go=WORDS`,
words joined by `+`: `go=prove` proves the result only) by each configuration in turn, the
order reversed from one position to the next, so that a noisy machine slows them alike.
Prints each solve (wall and CPU seconds, value, result, nodes), then per configuration and
plies left the median and the total wall and CPU time and the nodes, and the speed-up of each
total against the first configuration's. Exactness is checked on the way: every
configuration must report the same result (win, draw, loss: `info string proven`, or the
sign of an exact value) and the exact ones the same value for a position, else the script
says so and exits with status 1 at the end.

    solve_table.py 14,16 base=/tmp/old/divercite new=build/bin/divercite \\
                   new2=build/bin/divercite,Threads=2 proof=build/bin/divercite,go=prove

Proofs of close positions (issue 33's goal), the self-play games won by one point:

    solve_table.py 16,18 one=build/bin/divercite,go=prove+movetime+60000 \\
                   two=build/bin/divercite,Threads=2,go=prove+movetime+60000 \\
                   --games-file bench/close_games.jsonl --games all
"""
import argparse
import os
import statistics
import sys
from collections import namedtuple

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_figures import (configuration, field, position_after, reference_games,  # noqa: E402
                            run, start_engines)


# One configuration's solve of one position.
Solve = namedtuple("Solve", "wall cpu nodes")


def plies_list(text):
    try:
        plies = [int(p) for p in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected plies left such as 14,16, got {text!r}")
    if any(not 1 <= p <= 40 for p in plies):
        raise argparse.ArgumentTypeError("plies left are between 1 and 40")
    return plies


def result_of(result):
    """What a search (a PlayResult) proved of the result: its `info string proven X` line,
    or else the sign of its exact value (engines from before the proofs), or "unknown"."""
    if result.proven:
        return result.proven
    if result.exact:
        return "win" if result.score > 0 else "loss" if result.score < 0 else "draw"
    return "unknown"


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plies", type=plies_list)
    parser.add_argument("configurations", nargs="+", type=configuration)
    parser.add_argument("--games", default="0,1,2,3,4",
                        help="the games' numbers in the file, or 'all' (default 0,1,2,3,4)")
    parser.add_argument("--games-file", metavar="JSONL",
                        help="games as JSON lines with their 40 \"moves\" (default: the "
                             "course's reference games; bench/close_games.jsonl: self-play "
                             "games won by one point, for proofs of close positions)")
    parser.add_argument("--markdown", action="store_true",
                        help="also print the summary as a Markdown table")
    args = parser.parse_args()
    names = [name for name, _, _ in args.configurations]
    if len(set(names)) != len(names):
        parser.error("each configuration needs a name of its own")
    games = reference_games(args.games_file)
    game_numbers = (list(range(len(games))) if args.games == "all"
                    else [int(g) for g in args.games.split(",")])
    if any(not 0 <= g < len(games) for g in game_numbers):
        parser.error(f"games are numbered 0 to {len(games) - 1}")

    # go=WORDS is the search's command, not an option of the engine.
    commands = {name: "go " + options.pop("go", "depth 40").replace("+", " ")
                for name, _, options in args.configurations}
    engines = start_engines(args.configurations, "solve_table.py")  # Hash 256 unless set

    # results[(name, plies)]: the Solves of the games, in the order of --games
    results = {}
    disagreements = 0
    turn = 0
    for plies in args.plies:
        for game in game_numbers:
            position = position_after(games[game]["moves"][:40 - plies])
            order = names if turn % 2 == 0 else list(reversed(names))
            turn += 1
            values = {}  # the exact values
            outcomes = {}  # the results proven
            for name in order:
                wall, cpu, info, move = engines[name].go(position, commands[name])
                value = int(field(info, "cp"))
                outcome = result_of(info)
                if info.exact:
                    values[name] = value
                if outcome != "unknown":  # a search cut short (go=prove+movetime+N) proves nothing
                    outcomes[name] = outcome
                nodes = int(field(info, "nodes"))
                results.setdefault((name, plies), []).append(Solve(wall, cpu, nodes))
                print(f"{plies:2} plies left, game {game}, {name:10} {wall:8.2f} s wall"
                      f" {cpu:8.2f} s cpu  value {value:>5} {outcome:7}  nodes {nodes:>13,}"
                      f"  bestmove {move}", flush=True)
            if len(set(values.values())) > 1 or len(set(outcomes.values())) > 1:
                disagreements += 1
                print(f"DISAGREEMENT at {plies} plies left, game {game}: {values} {outcomes}",
                      flush=True)
    for engine in engines.values():
        engine.quit()

    print()
    rows = []
    for plies in args.plies:
        first_total = sum(solve.wall for solve in results[(names[0], plies)])
        for name in names:
            solves = results[(name, plies)]
            walls = [solve.wall for solve in solves]
            row = {
                "plies": plies, "name": name,
                "each": " / ".join(f"{wall:.2f}" for wall in walls),
                "median": statistics.median(walls), "total": sum(walls),
                "cpu": sum(solve.cpu for solve in solves),
                "nodes": sum(solve.nodes for solve in solves),
            }
            row["speedup"] = first_total / row["total"] if row["total"] > 0 else float("inf")
            rows.append(row)
            print(f"{plies:2} plies left  {name:10} each {row['each']}  median {row['median']:.2f}"
                  f"  total {row['total']:.2f} s wall {row['cpu']:.2f} s cpu"
                  f"  nodes {row['nodes']:,}  speed-up {row['speedup']:.2f}x")
    if args.markdown:
        print()
        print(f"| plies left | configuration | games {','.join(map(str, game_numbers))} (s) "
              "| median (s) | total (s) | CPU (s) | nodes | speed-up |")
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for row in rows:
            print(f"| {row['plies']} | {row['name']} | {row['each']} | {row['median']:.2f} "
                  f"| {row['total']:.2f} | {row['cpu']:.2f} | {row['nodes'] / 1e6:.2f} M "
                  f"| {row['speedup']:.2f}x |")
    if disagreements:
        print(f"solve_table.py: {disagreements} position(s) with different values", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    run(main, "solve_table.py")
