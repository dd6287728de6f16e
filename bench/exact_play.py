#!/usr/bin/env python3
"""When each engine became exact or proved its win, and its clock use, from divercite-match records.

    exact_play.py RECORDS.jsonl [--clock SECONDS]

Per game and side: the first ply at which the side reported an exact score (the move's
"exact" flag: its search reached the end of the game), the clock it used (the sum of its moves'
ms; the runner measures them from `go` to `bestmove`), its longest move and that move's ply,
and the first ply at which it reported a proven win (the move's "proven": "win"). Then, per
engine, the first exact plies (each game's, and the median), the first proven-win plies of the
games it won, and the most clock any game used. With --clock, a side whose clock use comes
within 5 % of it is flagged.
"""
import argparse
import json
import statistics
import sys


def sides(record):
    """Yields (engine name, [(ply, move dict)]) for both sides of a game."""
    opening_plies = len(record["opening"].split()) if record.get("opening") else 0
    moves = {record["p1"]: [], record["p2"]: []}
    for index, move in enumerate(record["moves"]):
        ply = opening_plies + index
        # The start position of a record is the course's start unless "start" says otherwise;
        # the first player moves at even plies of the game.
        mover = record["p1"] if ply % 2 == 0 else record["p2"]
        moves[mover].append((ply, move))
    return moves.items()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("--clock", type=float, default=0, help="the clock per game, seconds")
    args = parser.parse_args()

    first_exact = {}
    won_proven = {}  # per engine, the first proven-win ply of each game it won
    most_used = {}
    try:
        lines = open(args.records).read().splitlines()
    except OSError as error:
        sys.exit(f"exact_play.py: {error}")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            sys.exit(f"exact_play.py: {args.records}:{number}: {error}")
        if record.get("start", "startpos") != "startpos":
            sys.exit(f"exact_play.py: {args.records}:{number}: a game from a set position "
                     "(its plies cannot be numbered from the start)")
        print(f"game {record['game']}: {record['p1']} vs {record['p2']} {record['result']} "
              f"{{{record['termination']}}}")
        for name, moves in sides(record):
            exact = next((ply for ply, move in moves if move.get("exact")), None)
            proven = next((ply for ply, move in moves if move.get("proven") == "win"), None)
            winner = {"1-0": record["p1"], "0-1": record["p2"]}.get(record["result"])
            if name == winner:
                won_proven.setdefault(name, []).append(proven)
            used = sum(move["ms"] for _, move in moves) / 1000
            longest_ply, longest = max(((ply, move["ms"]) for ply, move in moves),
                                       key=lambda item: item[1], default=(None, 0))
            warning = ""
            if args.clock and used >= 0.95 * args.clock:
                warning = f"  (within 5 % of the {args.clock:g}-s clock)"
            print(f"  {name:>12}: exact from ply {exact if exact is not None else '-':>2}, "
                  f"proven win from ply {proven if proven is not None else '-':>2}, "
                  f"clock used {used:8.1f} s, longest move {longest / 1000:7.1f} s "
                  f"at ply {longest_ply}{warning}")
            first_exact.setdefault(name, []).append(exact)
            most_used[name] = max(most_used.get(name, 0), used)
    print()
    for name, plies in first_exact.items():
        reached = [ply for ply in plies if ply is not None]
        if not reached:
            print(f"{name}: never exact; most clock used in a game {most_used[name]:.1f} s")
            continue
        if len(plies) <= 12:
            shown = ", ".join("-" if ply is None else str(ply) for ply in plies)
        else:  # games per first exact ply
            counts = {ply: reached.count(ply) for ply in sorted(set(reached))}
            shown = ", ".join(f"{ply} ({count} games)" for ply, count in counts.items())
            if len(reached) < len(plies):
                shown += f", never ({len(plies) - len(reached)} games)"
        print(f"{name}: first exact ply {shown} (median {statistics.median(reached)}, "
              f"earliest {min(reached)}, latest {max(reached)}); most clock used in a game "
              f"{most_used[name]:.1f} s")
        proven = [ply for ply in won_proven.get(name, []) if ply is not None]
        if proven:
            print(f"{name}: first proven-win ply in the {len(won_proven[name])} games it won: "
                  f"median {statistics.median(proven)}, earliest {min(proven)}, latest "
                  f"{max(proven)} ({len(won_proven[name]) - len(proven)} won without a proof)")


if __name__ == "__main__":
    main()
