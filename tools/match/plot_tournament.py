#!/usr/bin/python3
"""Pictures of a match or tournament from divercite-match's JSON records.

    plot_tournament.py RECORDS.jsonl OUTPUT_PREFIX

writes OUTPUT_PREFIX-results.png (per engine: score %, Bradley-Terry Elo, ms per move, as
`divercite-match -ratings RECORDS.jsonl` computes them) and OUTPUT_PREFIX-board.png (the
final board of the last normally finished game). divercite-match is DIVERCITE_MATCH, else
this checkout's build/bin/divercite-match, else the one on PATH. Needs Debian's
python3-matplotlib (run with /usr/bin/python3).
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Polygon, Rectangle  # noqa: E402

COLOURS = {"R": "#d62728", "G": "#2ca02c", "B": "#1f77b4", "Y": "#e6c619"}


def load(path):
    games = []
    with open(path) as records:
        for number, line in enumerate(records, 1):
            if line.strip():
                try:
                    games.append(json.loads(line))
                except json.JSONDecodeError as error:
                    sys.exit(f"{path}:{number}: {error}")
    if not games:
        sys.exit(f"{path}: no games")
    return games


def divercite_match():
    """The divercite-match binary (see the module's docstring)."""
    built = Path(__file__).resolve().parents[2] / "build" / "bin" / "divercite-match"
    found = os.environ.get("DIVERCITE_MATCH") or (str(built) if built.is_file() else None) \
        or shutil.which("divercite-match")
    if not found:
        sys.exit(f"no divercite-match: build it (scripts/build.sh: {built}), or set "
                 f"DIVERCITE_MATCH to its path")
    return found


def standings(path):
    """divercite-match's standings of the records in `path`: the engines best rated first,
    each with its name, Bradley-Terry elo, points, games, score and ms_per_move."""
    run = subprocess.run([divercite_match(), "-ratings", path], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(run.stderr.strip() or f"divercite-match -ratings {path}: code {run.returncode}")
    return json.loads(run.stdout)


def results_picture(table, output):
    engines = table["engines"]
    order = [e["name"] for e in engines]
    figure, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    axes[0].bar(order, [100 * e["score"] for e in engines], color="#4c72b0")
    axes[0].set_ylabel("score (%)")
    axes[0].set_ylim(0, 100)
    axes[0].axhline(50, color="grey", linewidth=0.8)
    axes[1].bar(order, [e["elo"] for e in engines], color="#55a868")
    axes[1].set_ylabel("Bradley-Terry Elo (mean 0)")
    axes[2].bar(order, [e["ms_per_move"] for e in engines], color="#c44e52")
    axes[2].set_ylabel("ms per move")
    axes[2].set_yscale("log")
    for axis in axes:
        axis.tick_params(axis="x", rotation=35)
    figure.suptitle(f"{table['games']} games, {len(engines)} engines")
    figure.tight_layout()
    figure.savefig(output, dpi=110)
    plt.close(figure)


def board_picture(game, output):
    """The diamond drawn as the course does, rotated by 45 degrees: cities as squares,
    resources as circles, first player's pieces with a black edge, second's with white."""
    figure, axis = plt.subplots(figsize=(6.0, 6.4))
    pieces = {}
    moves = game.get("opening", "").split() + [m["move"] for m in game["moves"]]
    if game.get("start", "startpos") != "startpos":
        axis.text(0, 2.8, "(opening from a position string: only the moves are drawn)",
                  ha="center", fontsize=8)
    for ply, move in enumerate(moves):
        pieces[(int(move[2]), int(move[3]))] = (move[0], move[1], ply % 2)
    for i in range(9):
        for j in range(9):
            if abs(i - 4) + abs(j - 4) > 4:
                continue
            x, y = (j - i) / 2 * 1.0, -(i + j - 8) / 2 * 1.0
            city = (i + j) % 2 == 1
            axis.add_patch(Polygon([(x, y + 0.5), (x + 0.5, y), (x, y - 0.5), (x - 0.5, y)],
                                   closed=True, facecolor="#f3efe4" if city else "#e4e9f0",
                                   edgecolor="#999999", linewidth=0.8))
            if (i, j) in pieces:
                colour, kind, owner = pieces[(i, j)]
                edge = "black" if owner == 0 else "white"
                if kind == "C":
                    axis.add_patch(Rectangle((x - 0.2, y - 0.2), 0.4, 0.4, angle=0,
                                             facecolor=COLOURS[colour], edgecolor=edge,
                                             linewidth=2.2))
                else:
                    axis.add_patch(plt.Circle((x, y), 0.17, facecolor=COLOURS[colour],
                                              edgecolor=edge, linewidth=2.2))
    axis.set_xlim(-2.8, 2.8)
    axis.set_ylim(-2.8, 3.0)
    axis.set_aspect("equal")
    axis.axis("off")
    final = game.get("final", ["?", "?"])
    axis.set_title(f"{game['p1']} (black edge) {final[0]} - {final[1]} {game['p2']} "
                   f"(white edge)\nresult {game['result']}, {game['termination']}; "
                   "squares: cities, circles: resources")
    figure.tight_layout()
    figure.savefig(output, dpi=110)
    plt.close(figure)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    games = load(sys.argv[1])
    results_picture(standings(sys.argv[1]), sys.argv[2] + "-results.png")
    finished = [g for g in games if g.get("termination") == "normal"] or games
    board_picture(finished[-1], sys.argv[2] + "-board.png")
    print(f"wrote {sys.argv[2]}-results.png and {sys.argv[2]}-board.png")


if __name__ == "__main__":
    main()
