#!/usr/bin/python3
"""divercite-match -html: the match report of a short real match, of a merge of two shards,
and the report in Debian's Chromium, headless.

Plays 4 games (2 openings, colours swapped) of the engine against its random agent at
tc=1+0.01 with -repeat, -sprt and -html, then checks the report against what the runner
printed: its statistics table and its JSON (W/L/D, points, Elo +/- error, LOS, draw ratio,
pentanomial pairs, the SPRT's LLR), and one link per game, each to a page on disk. Then plays
the same match as two shards (-shard 1/2, 2/2) and checks -merge ... -html the same way.
Then opens the match's index.html and a game's page in the browser (the driver and error
checks of tests/review_browser_test.py): no error logged, a board of N pieces at #ply=N (the
game's last ply), and a screenshot of the report kept in --out.

    match_report_test.py --bin build/bin --out DIR
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from review_browser_test import FAILURES, PASSED, READY, check  # noqa: E402
from selenium_page import chromium, open_page  # noqa: E402  (review_browser_test's path)


def match_args(bin_dir: Path) -> list[str]:
    engine = str(bin_dir / "divercite")
    return ["-engine", f"cmd={engine}", "name=engine", "-engine", f"cmd={engine}", "name=random",
            "option.Agent=random", "-each", "tc=1+0.01", "-games", "2", "-rounds", "2",
            "-repeat", "-sprt", "elo0=0", "elo1=400", "alpha=0.05", "beta=0.05"]


def printed_statistics(text: str) -> dict:
    """The last statistics the runner printed."""
    last = text[text.rindex("--- engine vs random"):]
    elo = re.search(r"Elo difference: (\S+) \+/- (\S+) \(95%, (\w+)\), LOS: (\S+) %, "
                    r"DrawRatio: (\S+) %", last)
    games = re.search(r"Games: (\d+), Wins: (\d+), Losses: (\d+), Draws: (\d+), Points: (\S+)",
                      last)
    pairs = re.search(r"Ptnml\(0-2\): \[([\d, ]+)\]", last)
    llr = re.search(r"LLR: (\S+) \((\S+), (\S+)\)", last)
    return {"elo": elo.group(1), "error95": elo.group(2), "model": elo.group(3),
            "los": elo.group(4), "draw_ratio": elo.group(5),
            "games": int(games.group(1)), "wins": int(games.group(2)),
            "losses": int(games.group(3)), "draws": int(games.group(4)),
            "points": games.group(5), "pentanomial": [int(p) for p in pairs.group(1).split(",")],
            "llr": [llr.group(1), llr.group(2), llr.group(3)]}


def one(value) -> str:
    """A JSON number as the runner prints it with %.1f (null is infinite there)."""
    return "inf" if value is None else f"{value:.1f}"


def whole(value: float) -> int:
    """`value` to the unit as the standings table rounds it: halves away from zero."""
    return int(Decimal(value).quantize(Decimal(1), ROUND_HALF_UP))


def check_report(folder: Path, printed: str, records: Path, name: str):
    page = (folder / "index.html").read_text()
    report = json.loads(re.search(r'<script type="application/json" id="report">(.*?)</script>',
                                  page, re.S).group(1))
    expected = printed_statistics(printed)
    match = report["matches"][0]
    shown = {"elo": one(match["elo"]), "error95": one(match["error95"]),
             "model": match["model"], "los": one(100 * match["los"]),
             "draw_ratio": one(100 * match["draw_ratio"]), "games": match["games"],
             "wins": match["wins"], "losses": match["losses"], "draws": match["draws"],
             "points": one(match["points"]), "pentanomial": match["pentanomial"],
             "llr": [f"{match['sprt'][k]:.2f}" for k in ("llr", "lower", "upper")]}
    check(shown == expected, f"{name}: the report's numbers are the runner's ({shown})")
    row = re.search(r'<table id="statistics">.*?</tr>\n<tr>(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", row)
    check(cells[6:9] == [expected["elo"], expected["error95"], expected["los"] + " %"] and
          cells[1:5] == [str(expected[k]) for k in ("games", "wins", "losses", "draws")],
          f"{name}: the statistics table shows them ({cells[1:9]})")
    standings = report["standings"]
    table = re.search(r'<table class="standings" id="standings">(.*?)</table>', page,
                      re.S).group(1)
    column = re.findall(r"<th[^>]*>(.*?)</th>", table).index("95 %")
    intervals = [re.findall(r"<td[^>]*>(.*?)</td>", row)[column]
                 for row in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S)]
    expected_intervals = ["–" if s["elo_interval"] is None else
                          f"{whole(s['elo'] - s['elo_interval'])} … "
                          f"{whole(s['elo'] + s['elo_interval'])}" for s in standings]
    two = [s["elo_interval"] for s in standings]
    check(len(standings) == 2 and intervals == expected_intervals and None not in two and
          abs(two[0] - two[1]) < 1e-6,  # two engines: one interval, up to rounding
          f"{name}: the standings' 95 % intervals, in the JSON and the table ({intervals}, "
          f"{two})")
    games = [json.loads(line) for line in records.read_text().splitlines()]
    links = re.findall(r'<a href="([^"]+)">', page)
    check(len(links) == len(games) == report["games"] and
          all((folder / link).is_file() for link in links) and
          sorted(links) == sorted(f"games/game-{g['game']}.html" for g in games),
          f"{name}: one link per game, each to a page on disk ({links})")
    check(len(report["clocks"]) == 2 and all(c["moves"] > 0 for c in report["clocks"]) and
          all(len(c["clock_left_ms"]) == len(games) for c in report["clocks"]),
          f"{name}: each engine's clock use over {len(games)} games")


def browse(index: Path, plies: int, out: Path):
    """The report at `index` and its first game's page, of `plies` plies."""
    with open_page() as page:
        page.set_viewport(1100, 1600)
        page.open(index.as_uri(), READY)
        state = page.evaluate(
            "({links: document.querySelectorAll('#games a').length,"
            " bars: document.querySelectorAll('#results-chart .bar').length,"
            " lines: document.querySelectorAll('#clock-chart .clock-line').length,"
            " half: document.querySelectorAll('#results-chart line').length})")
        check(state["links"] > 0 and state["bars"] == 6 and state["lines"] == 2
              and state["half"] == 1,
              f"browser: the index's links, results bars, its 50 % line and clock lines ({state})")
        page.screenshot(out / "match_report.png")
        first = page.evaluate("document.querySelector('#games a').href")
        # Its last ply: a game lost on time (a loaded machine) ends before ply 40.
        page.open(f"{first}#ply={plies}", READY)
        pieces = page.evaluate("document.querySelectorAll('#board .piece').length")
        replay = page.evaluate(
            "JSON.parse(document.getElementById('game').textContent).review.replay")
        check(pieces == plies and replay is True,
              f"browser: the first game's replay at #ply={plies} has {pieces} pieces")
        errors = page.errors()
        check(not errors, "browser: no error logged" + "".join(f"\n      {e}" for e in errors))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args()
    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    runner = str(args.bin / "divercite-match")
    common = match_args(args.bin.resolve())

    played = subprocess.run([runner, *common, "-records", str(out / "match.jsonl"),
                             "-html", str(out / "match")],
                            capture_output=True, text=True, check=True).stdout
    check_report(out / "match", played, out / "match.jsonl", "match")

    for shard in (1, 2):
        subprocess.run([runner, *common, "-shard", f"{shard}/2",
                        "-records", str(out / f"shard{shard}.jsonl")],
                       capture_output=True, text=True, check=True)
    merged = subprocess.run([runner, "-merge", str(out / "shard1.jsonl"),
                             str(out / "shard2.jsonl"), *common, "-records",
                             str(out / "merged.jsonl"), "-html", str(out / "merged")],
                            capture_output=True, text=True, check=True).stdout
    check_report(out / "merged", merged, out / "merged.jsonl", "merge")

    if chromium():
        records = [json.loads(line) for line in (out / "match.jsonl").open()]
        first = next(record for record in records if record["game"] == 0)
        browse(out / "match" / "index.html", len(first["moves"]), out)
        print(f"screenshot: {out / 'match_report.png'}")
    else:
        check(False, "no chromium or chromedriver: apt-get install chromium chromium-driver "
              "python3-selenium (scripts/install-deps.sh tests)")
    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
