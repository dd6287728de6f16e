#!/usr/bin/env python3
"""What the sandbox (course_engine.py --sandbox) costs an agent: start-up, a game's first
move, and a move, with and without it, in the same run.

Each round starts the bridge both ways, in turn, on the course's random player (a move costs
it nothing, so the times are the bridge's and the sandbox's): the time to `uciok` (the bridge
starts and checks that the agent imports in a process of its own), then several games of
three moves each. A game's first move is asked 1.5 s after the last game ended (the next
game's process was started ahead; in the sandbox it imports only while its own side's agent
thinks, so with the random player its import is paid here); the second is the other side's
first move, whose process is started when the first move is answered; the third the first
side's second move (its processes frozen and thawed, in the sandbox).

    /usr/bin/python3 bench/sandbox_cost.py [--rounds 5] [--games 5] [--agent PATH]

Prints the medians (ms) per way, and the mean difference with its 95 % interval over the
rounds' pairs.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(HERE)
WRAPPER = os.path.join(SOURCE, "tools", "seahorse", "course_engine.py")
COURSE = os.environ.get("DIVERCITE_COURSE_DIR") or os.path.join(
    os.path.dirname(SOURCE), "shared", "course")
RANDOM = os.path.join(COURSE, "divercite", "random_player_divercite.py")


class Bridge:
    def __init__(self, agent, options):
        self.process = subprocess.Popen([WRAPPER, *options, agent], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, command):
        self.process.stdin.write(command + "\n")
        self.process.stdin.flush()

    def ask(self, command, prefix):
        self.send(command)
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"the bridge ended waiting for {prefix!r}")
            if line.startswith(prefix):
                return line.split()

    def close(self):
        self.send("quit")
        self.process.wait()


def one_round(agent, options, games):
    """(ms to uciok, [first moves' ms], [second moves' ms], [third moves' ms])."""
    started = time.monotonic()
    bridge = Bridge(agent, options)
    bridge.ask("uci", "uciok")
    start_ms = (time.monotonic() - started) * 1000
    times = ([], [], [])
    for _ in range(games):
        time.sleep(1.5)
        bridge.send("ucinewgame")
        moves = []
        for ply in range(3):
            asked = time.monotonic()
            position = "position startpos" + (f" moves {' '.join(moves)}" if moves else "")
            moves.append(bridge.ask(f"{position}\ngo wtime 60000 btime 60000", "bestmove")[1])
            times[ply].append((time.monotonic() - asked) * 1000)
    bridge.close()
    return (start_ms, *times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--agent", default=RANDOM)
    arguments = parser.parse_args()
    ways = {"plain": [], "sandbox": ["--sandbox"]}
    figures = {way: {"start": [], "first": [], "second": [], "third": []} for way in ways}
    for _ in range(arguments.rounds):
        for way, options in ways.items():
            start_ms, *plies = one_round(arguments.agent, options, arguments.games)
            figures[way]["start"].append(start_ms)
            for what, times in zip(("first", "second", "third"), plies):
                figures[way][what].append(statistics.median(times))
    print(f"{arguments.rounds} rounds of {arguments.games} games, "
          f"{os.path.basename(arguments.agent)}")
    print(f"{'ms (median of rounds)':24}{'plain':>10}{'sandbox':>10}{'difference':>12}")
    for what in ("start", "first", "second", "third"):
        plain = figures["plain"][what]
        boxed = figures["sandbox"][what]
        differences = [b - p for b, p in zip(boxed, plain)]
        spread = (1.96 * statistics.stdev(differences) / len(differences) ** 0.5
                  if len(differences) > 1 else float("nan"))
        label = {"start": "start to uciok", "first": "a game's first move",
                 "second": "the other side's first", "third": "a later move"}[what]
        print(f"{label:24}{statistics.median(plain):10.1f}{statistics.median(boxed):10.1f}"
              f"{statistics.mean(differences):+9.1f} +/- {spread:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
