"""Draws one analysed game: the first player's margin, ply by ply.

Reads one analysis JSON object (divercite-analyze --json) on stdin and writes the PNG named
by its only argument. divercite-analyze --plot runs this script (it is compiled into the
binary); it can also be run by hand:
    divercite-analyze --json ... | head -1 | python3 plot_analysis.py game.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def first_player_view(move):
    """The value before the move, from the first player's view, in points."""
    sign = 1 if move["side"] == "p1" else -1
    return sign * move["value"] / 100


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: plot_analysis.py OUTPUT.png < analysis.json")
    analysis = json.loads(sys.stdin.readline())
    moves = analysis["moves"]
    summary = analysis["summary"]
    final = analysis["final"]

    fig, ax = plt.subplots(figsize=(10, 4.8))
    plies = [m["ply"] for m in moves]
    values = [first_player_view(m) for m in moves]
    if moves and analysis["result"] != "*":
        # The finished game's margin, after the last move.
        plies.append(moves[-1]["ply"] + 1)
        values.append(final[0] - final[1])
    ax.plot(plies, values, color="0.6", linewidth=1, zorder=1)
    exact = [i for i, m in enumerate(moves) if m["exact"]]
    searched = [i for i, m in enumerate(moves) if not m["exact"]]
    ax.scatter([plies[i] for i in searched], [values[i] for i in searched], s=18,
               color="tab:blue", label="search value", zorder=2)
    ax.scatter([plies[i] for i in exact], [values[i] for i in exact], s=18,
               color="tab:green", label="exact value", zorder=2)
    if analysis["result"] != "*":
        ax.scatter([plies[-1]], [values[-1]], s=40, marker="s", color="black",
                   label="final margin", zorder=3)

    for side, colour in (("p1", "tab:red"), ("p2", "tab:orange")):
        for mistake in summary[side]["mistakes"]:
            i = next(k for k, m in enumerate(moves) if m["ply"] == mistake["ply"])
            ax.annotate(f"{mistake['move']} -{mistake['loss'] / 100:.2f}",
                        (plies[i], values[i]), textcoords="offset points", xytext=(4, 8),
                        fontsize=8, color=colour)
            ax.scatter([plies[i]], [values[i]], s=60, facecolors="none", edgecolors=colour,
                       zorder=3)

    # Moves that gave a proven result away (older analyses have no such field).
    changing = [i for i, m in enumerate(moves) if m.get("result_changing")]
    if changing:
        ax.scatter([plies[i] for i in changing], [values[i] for i in changing], s=70,
                   marker="x", color="tab:purple", label="result-changing", zorder=4)
    if summary.get("proven_ply") is not None:
        ax.axvline(summary["proven_ply"] - 0.5, color="tab:purple", linestyle=":", linewidth=1)

    ax.axhline(0, color="black", linewidth=0.6)
    if summary.get("first_exact_ply") is not None:
        ax.axvline(summary["first_exact_ply"] - 0.5, color="tab:green", linestyle=":",
                   linewidth=1)
    ax.set_xlabel("ply")
    ax.set_ylabel(f"margin for {analysis['p1']} (points)")
    game = analysis.get("game")
    title = f"{analysis['p1']} vs {analysis['p2']}: {analysis['result']}, {final[0]}-{final[1]}"
    ax.set_title(f"Game {game}: {title}" if game is not None else title)
    ax.legend(loc="best", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=110)


if __name__ == "__main__":
    main()
