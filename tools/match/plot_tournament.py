#!/usr/bin/python3
"""Pictures of a match or tournament from divercite-match's JSON records.

    plot_tournament.py RECORDS.jsonl OUTPUT_PREFIX

writes OUTPUT_PREFIX-results.png (per engine: score %, Bradley-Terry Elo, ms per move) and
OUTPUT_PREFIX-board.png (the final board of the last normally finished game). Needs Debian's
python3-matplotlib (run with /usr/bin/python3).
"""
import json
import math
import sys

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


def bradley_terry(names, points, played):
    """Hunter's MM iteration with one virtual draw per pair that met (as divercite-match)."""
    strength = {n: 1.0 for n in names}
    for _ in range(10000):
        new = {}
        for i in names:
            won = sum(points[i][j] + 0.5 for j in names if played[i][j])
            den = sum((played[i][j] + 1) / (strength[i] + strength[j])
                      for j in names if played[i][j])
            new[i] = won / den if den else strength[i]
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {n: v / mean for n, v in new.items()}
        done = max(abs(new[n] - strength[n]) for n in names) < 1e-10
        strength = new
        if done:
            break
    return {n: 400 * math.log10(strength[n]) for n in names}


def results_picture(games, output):
    names = sorted({g["p1"] for g in games} | {g["p2"] for g in games})
    points = {i: {j: 0.0 for j in names} for i in names}
    played = {i: {j: 0 for j in names} for i in names}
    ms = {n: 0 for n in names}
    moves = {n: 0 for n in names}
    for g in games:
        first = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
        points[g["p1"]][g["p2"]] += first
        points[g["p2"]][g["p1"]] += 1 - first
        played[g["p1"]][g["p2"]] += 1
        played[g["p2"]][g["p1"]] += 1
        opening_plies = len(g.get("opening", "").split())
        for k, move in enumerate(g["moves"]):
            mover = g["p1"] if (opening_plies + k) % 2 == 0 else g["p2"]
            ms[mover] += move["ms"]
            moves[mover] += 1
    elo = bradley_terry(names, points, played)
    order = sorted(names, key=lambda n: -elo[n])
    score = [100 * sum(points[n].values()) / max(1, sum(played[n].values())) for n in order]
    per_move = [ms[n] / max(1, moves[n]) for n in order]

    figure, axes = plt.subplots(1, 3, figsize=(15, 4.8))
    axes[0].bar(order, score, color="#4c72b0")
    axes[0].set_ylabel("score (%)")
    axes[0].set_ylim(0, 100)
    axes[0].axhline(50, color="grey", linewidth=0.8)
    axes[1].bar(order, [elo[n] for n in order], color="#55a868")
    axes[1].set_ylabel("Bradley-Terry Elo (mean 0)")
    axes[2].bar(order, per_move, color="#c44e52")
    axes[2].set_ylabel("ms per move")
    axes[2].set_yscale("log")
    for axis in axes:
        axis.tick_params(axis="x", rotation=35)
    figure.suptitle(f"{len(games)} games, {len(names)} engines")
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
    results_picture(games, sys.argv[2] + "-results.png")
    finished = [g for g in games if g.get("termination") == "normal"] or games
    board_picture(finished[-1], sys.argv[2] + "-board.png")
    print(f"wrote {sys.argv[2]}-results.png and {sys.argv[2]}-board.png")


if __name__ == "__main__":
    main()
