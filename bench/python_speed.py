#!/usr/bin/env python3
"""The Python package's speed against the course's own Python rules, and its perft's cost.

1. Perft from the start walked in Python, once through `divercite.Position` (`legal_moves()`,
   `copy()`, `play()`) and once through the course's `GameStateDivercite`
   (`get_possible_light_actions()`, `apply_action()`), the same walk on both sides: every
   move above the last ply is played, the last ply is counted with len() of the legal moves.
2. `Position.perft(N)` (C++ behind one call) against `divercite-perft N`, by the times both
   report for the walk alone.

Runs are interleaved (one of each per repeat, so a background load hits all alike) and the
medians compared; a walk's run repeats it for --min-seconds and takes the mean. The course's
start state is built as main_divercite.py builds it, by the course bridge
(divercite.course.bridge).

    /usr/bin/python3 bench/python_speed.py [--walk-depths 2,3] [--perft-depth 5] [--repeat 3]
        [--build build] [--course ../shared/course]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--walk-depths", default="2,3",
                        help="perft depths walked in Python on both sides (default 2,3)")
    parser.add_argument("--perft-depth", type=int, default=5,
                        help="depth of Position.perft against divercite-perft (0: skip)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement")
    parser.add_argument("--min-seconds", type=float, default=0.2,
                        help="a walk's run repeats it for at least this long (default 0.2)")
    parser.add_argument("--build", default=os.path.join(REPO, "build"),
                        help="build tree holding python/divercite and bin/divercite-perft")
    parser.add_argument("--course", default=os.environ.get(
        "DIVERCITE_COURSE_DIR", os.path.join(os.path.dirname(REPO), "shared", "course")),
                        help="the course's folder, holding divercite/ and seahorse/")
    return parser.parse_args()


def import_both(build, course):
    """divercite from the build tree, and a maker of the course's start state (a fresh one
    per walk: a course state keeps the legal actions it generated)."""
    sys.path[:0] = [os.path.join(build, "python"), os.path.join(course, "divercite"),
                    os.path.join(course, "seahorse")]
    import divercite
    from divercite.course.bridge.rules import Course
    course_rules = Course()
    players = course_rules.plain_players()
    return divercite, lambda: course_rules.initial_state(players)


def walk_ours(position, depth):
    """Perft walked in Python through legal_moves(), copy() and play() (the same walk as
    tests/python/test_position.py's, which checks it against the C++ perft)."""
    moves = position.legal_moves()
    if depth == 1:
        return len(moves)
    nodes = 0
    for move in moves:
        child = position.copy()
        child.play(move)
        nodes += walk_ours(child, depth - 1)
    return nodes


def walk_course(state, depth):
    actions = state.get_possible_light_actions()
    if depth == 1:
        return len(actions)
    return sum(walk_course(state.apply_action(action), depth - 1) for action in actions)


def walk_from_start(walk, start, depth):
    """walk() from a new start position: start() makes it."""
    return walk(start(), depth)


def timed(function, *arguments, min_seconds=0.0):
    """function(*arguments) and its time, the mean of as many calls as fill min_seconds (a
    walk of a millisecond, timed once, is at the mercy of one preemption)."""
    calls, start = 0, time.perf_counter()
    while True:
        result = function(*arguments)
        calls += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return result, elapsed / calls


def perft_tool(binary, depth):
    """divercite-perft's count and the time it reports for its walk."""
    output = subprocess.run([binary, str(depth)], check=True, capture_output=True,
                            text=True).stdout
    nodes = int(re.search(r"^nodes (\d+)$", output, re.M).group(1))
    seconds = float(re.search(r"^time ([0-9.]+) s$", output, re.M).group(1))
    return nodes, seconds


def main():
    arguments = parse_arguments()
    divercite, course_start = import_both(arguments.build, arguments.course)
    depths = [int(depth) for depth in arguments.walk_depths.split(",") if depth]
    times = {}  # (what, depth) -> [seconds per run]
    nodes = {}
    for run in range(arguments.repeat):
        for depth in depths:
            for what, walk, start in (("divercite", walk_ours, divercite.Position),
                                      ("course", walk_course, course_start)):
                count, seconds = timed(walk_from_start, walk, start, depth,
                                       min_seconds=arguments.min_seconds)
                nodes.setdefault((what, depth), count)
                if count != nodes[(what, depth)] or count != nodes[("divercite", depth)]:
                    sys.exit(f"perft({depth}) walked by {what}: {count} nodes, "
                             f"not {nodes[('divercite', depth)]}")
                times.setdefault((what, depth), []).append(seconds)
        if arguments.perft_depth > 0:
            depth = arguments.perft_depth
            count, seconds = timed(divercite.Position().perft, depth)
            tool_count, tool_seconds = perft_tool(
                os.path.join(arguments.build, "bin", "divercite-perft"), depth)
            if count != tool_count:
                sys.exit(f"perft({depth}): Position.perft {count}, divercite-perft {tool_count}")
            nodes[("perft", depth)] = count
            times.setdefault(("Position.perft", depth), []).append(seconds)
            times.setdefault(("divercite-perft", depth), []).append(tool_seconds)

    median = {key: statistics.median(values) for key, values in times.items()}
    print(f"medians of {arguments.repeat} interleaved runs")
    for depth in depths:
        ours, course = median[("divercite", depth)], median[("course", depth)]
        print(f"perft({depth}) walked in Python: {nodes[('divercite', depth)]} nodes, "
              f"divercite {ours:.4g} s, course {course:.4g} s, ratio {course / ours:.1f}x")
    if arguments.perft_depth > 0:
        depth = arguments.perft_depth
        call, tool = median[("Position.perft", depth)], median[("divercite-perft", depth)]
        ratio = f"{call / tool:.3f}" if tool > 0 else "n/a (too short to time)"
        print(f"perft({depth}) in C++: {nodes[('perft', depth)]} nodes, Position.perft "
              f"{call:.3f} s, divercite-perft {tool:.3f} s, ratio {ratio}")


if __name__ == "__main__":
    main()
