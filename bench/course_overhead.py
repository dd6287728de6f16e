#!/usr/bin/env python3
"""The course framework's own latency per move, as charged to a player's clock.

The course's master (seahorse) charges a player the wall time around its `play` call, which
includes, beyond the player's `compute_action`, the framework's own work: in `-t local`
almost nothing; in `-t host_game`, for the host's player, the proxy's encoding of the action
to JSON and its socket.io emit; in `-t connect`, for the remote player, the master's JSON
encoding of the state, the transport, the remote's decoding, its encoding of the answer, and
the master's polling for it every 0.1 s and its decoding of two states.

This script plays games of tools/seahorse/divercite_player.py against itself in the course's
real framework with DIVERCITE_PLAYER_LOG=1 (one line per move on stderr: the ms spent in
compute_action, the engine's own search time, the remaining_time received), and computes,
from each player's consecutive remaining_time values:

    framework = (remaining_time[k] - remaining_time[k+1]) - compute_action's wall time
    bridge    = compute_action's wall time - the engine's reported search time
    total     = (remaining_time[k] - remaining_time[k+1]) - the engine's search time

per mode: `local` (both players in one process), `host_game` (the host's player, through a
LocalPlayerProxy) and `connect` (the remote player, in a second process on this machine).
The player's DEFAULT_MOVE_OVERHEAD_MS must cover the total in the worst mode.

    /usr/bin/python3 bench/course_overhead.py [--games 4] [--movetimes 30,70,110,150]

The games use `go movetime` (DIVERCITE_MOVETIME) with MoveOverhead=0, the movetime changing
from game to game so that the engine's answers fall at every phase of the master's 0.1-s
polling.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from course_master import play_game  # noqa: E402
PLAYER = REPO / "tools" / "seahorse" / "divercite_player.py"
LINE = re.compile(r"divercite_player: move name=(\S+) ply=(\d+) side=(\w) move=(\S+) "
                  r"compute_ms=([\d.]+) engine_ms=(\S+) depth=\S+ remaining_time=(\S+) "
                  r"fallback=(\d)")


def parse_moves(text: str) -> dict[str, list[tuple]]:
    """Our log lines per player name: (ply, compute_ms, engine_ms, remaining_s, fallback)."""
    moves: dict[str, list[tuple]] = {}
    for match in LINE.finditer(text):
        name, ply, _, _, compute, engine, remaining, fallback = match.groups()
        engine_ms = float(engine) if engine != "None" else None
        moves.setdefault(name, []).append(
            (int(ply), float(compute), engine_ms, float(remaining), int(fallback)))
    return moves


def overheads(moves: list[tuple]) -> tuple[list[float], list[float], list[float]]:
    """(framework, bridge, total) ms per move of one player's moves in one game; total is
    the time charged beyond the engine's own search time, what MoveOverhead must cover."""
    framework, bridge, total = [], [], []
    moves = sorted(moves)
    for (ply, compute, engine, remaining, _), (_, _, _, next_remaining, _) in zip(
            moves, moves[1:]):
        charged = (remaining - next_remaining) * 1000.0
        framework.append(charged - compute)
        if engine is not None:
            total.append(charged - engine)
    for _, compute, engine, _, _ in moves:
        if engine is not None:
            bridge.append(compute - engine)
    return framework, bridge, total


# The figures' names of the master's and the remote's logs, by mode.
ROLES = {"local": {"master": "local"}, "remote": {"master": "host_game", "remote": "connect"}}


def run_game(mode: str, args, movetime: int, workdir: Path) -> dict[str, str]:
    """Plays one game; returns the output (stdout and stderr) of each process by role."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", DIVERCITE_PLAYER_LOG="1",
               DIVERCITE_MOVETIME=str(movetime), DIVERCITE_OPTIONS="MoveOverhead=0",
               DIVERCITE_ENGINE=str(args.engine),
               PYTHONPATH=str(args.course / "seahorse"))
    game = play_game(args.course / "divercite" / "main_divercite.py", [PLAYER, PLAYER], workdir,
                     env, mode=mode, timeout=args.timeout, python=args.python)
    if game.hung:
        # seahorse's shutdown sometimes never ends after a game (its task cancellation
        # waits forever): it was interrupted, as a student's Ctrl-C would.
        print("note: the course framework did not exit after the game; interrupted it",
              file=sys.stderr)
    return {ROLES[mode][role]: text for role, text in game.logs.items()}


def summary(values: list[float]) -> str:
    if not values:
        return "no moves"
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return (f"median {statistics.median(ordered):7.2f}  p90 {p90:7.2f}  "
            f"max {ordered[-1]:7.2f} ms  ({len(ordered)} moves)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games per mode")
    parser.add_argument("--movetimes", default="30,70,110,150",
                        help="DIVERCITE_MOVETIME of the games, in turn (ms)")
    parser.add_argument("--modes", default="local,remote", help="local and/or remote")
    parser.add_argument("--engine", type=Path,
                        default=Path(os.environ.get("DIVERCITE_ENGINE",
                                                    REPO / "build" / "bin" / "divercite")))
    parser.add_argument("--course", type=Path,
                        default=Path(os.environ.get("DIVERCITE_COURSE_DIR",
                                                    REPO.parent / "shared" / "course")))
    parser.add_argument("--python", default="/usr/bin/python3",
                        help="a Python with the course's packages")
    parser.add_argument("--timeout", type=float, default=600.0, help="per game (s)")
    args = parser.parse_args()
    movetimes = [int(x) for x in args.movetimes.split(",")]
    unknown = set(args.modes.split(",")) - set(ROLES)
    if unknown:
        parser.error(f"--modes: {', '.join(sorted(unknown))}: the modes are local and remote")

    framework: dict[str, list[float]] = {}
    bridge: dict[str, list[float]] = {}
    total: dict[str, list[float]] = {}
    fallbacks = 0
    with tempfile.TemporaryDirectory(prefix="course_overhead_") as tmp:
        for mode in args.modes.split(","):
            for game in range(args.games):
                movetime = movetimes[game % len(movetimes)]
                texts = run_game(mode, args, movetime, Path(tmp))
                for role, text in texts.items():
                    if "Traceback" in text or "Time credit expired" in text:
                        print(text[-3000:], file=sys.stderr)
                        raise SystemExit(f"{role} game {game}: the game went wrong (above)")
                    moves = parse_moves(text)
                    if not moves:
                        print(text[-3000:], file=sys.stderr)
                        raise SystemExit(f"{role} game {game}: no player log lines (above)")
                    for name, player_moves in moves.items():
                        f, b, t = overheads(player_moves)
                        framework.setdefault(role, []).extend(f)
                        bridge.setdefault(role, []).extend(b)
                        total.setdefault(role, []).extend(t)
                        fallbacks += sum(m[4] for m in player_moves)
                print(f"{mode} game {game + 1}/{args.games} (movetime {movetime} ms) done",
                      file=sys.stderr, flush=True)

    print("Time charged per move beyond compute_action's wall time (the framework):")
    for role, values in framework.items():
        print(f"  {role:10s} {summary(values)}")
    print("compute_action's wall time beyond the engine's reported search time (the bridge):")
    for role, values in bridge.items():
        print(f"  {role:10s} {summary(values)}")
    print("Time charged per move beyond the engine's search time (MoveOverhead covers it):")
    for role, values in total.items():
        print(f"  {role:10s} {summary(values)}")
    print(f"fallback moves: {fallbacks}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
