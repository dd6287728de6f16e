#!/usr/bin/python3
"""divercite-analyze --html in a real browser: Debian's Chromium, headless, driven by Selenium.

Makes a records file of two reference games (an opening of 4 plies, made-up move times under
tc=60+0.5, a player's name holding `</script>`), has divercite-analyze write their pages and
index at a small depth, and one page from a move list; then opens each page at `#ply=N` and
checks: the board holds N elements of class `piece`, the graph one point per move, the
slider and the URL follow the buttons, the arrow keys, the slider and a click on the graph,
the index links every game, the page's JSON reads back, the page of a game analysed with
--multipv=3 lists the engine's top 3 at a ply and draws the arrow of one clicked, and the
browser logged no error
(console errors, uncaught exceptions, failed loads). Screenshots of a game page and of the
index are kept in --out. The browser is driven by tests/browser/selenium_page.py.

    review_browser_test.py --analyze build/bin/divercite-analyze --out DIR
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests" / "browser"))
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium_page import Page, chromium, open_page  # noqa: E402

REFERENCE = Path(os.environ.get("DIVERCITE_REFERENCE_DIR") or REPO.parent / "shared" / "reference")
ODD_NAME = 'we</script><script>throw "escaped"</script> & co'
OPENING_PLIES = 4
FAILURES: list[str] = []
PASSED: list[str] = []


def check(condition: bool, what: str):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    (PASSED if condition else FAILURES).append(what)


def write_records(path: Path) -> list[list[str]]:
    games = [json.loads(line) for line in (REFERENCE / "games.jsonl").open()][:2]
    with path.open("w") as out:
        for number, game in enumerate(games):
            moves = game["moves"]
            record = {
                "game": number, "p1": ODD_NAME if number == 0 else "first", "p2": "second",
                "result": "1-0" if game["final"][0] > game["final"][1] else
                          "0-1" if game["final"][0] < game["final"][1] else "1/2-1/2",
                "start": "startpos", "opening": " ".join(moves[:OPENING_PLIES]),
                "tc": ["tc=60+0.5", "tc=60+0.5"],
                "moves": [{"move": m, "ms": 250 + 97 * (k % 11)}
                          for k, m in enumerate(moves[OPENING_PLIES:])],
                "final": game["final"]}
            out.write(json.dumps(record) + "\n")
    return [g["moves"] for g in games]


def position_string(engine: Path, moves: list[str]) -> str:
    """The position string after `moves`, as the engine's `d` prints it."""
    shown = subprocess.run([engine], input=f"position startpos moves {' '.join(moves)}\nd\nquit\n",
                           capture_output=True, text=True, check=True).stdout
    return next(line[4:] for line in shown.splitlines() if line.startswith("fen "))


# A review page is ready once its script has drawn the ply of the URL; the index has no script.
READY = "document.body.dataset.ready === 'true' || !document.getElementById('game')"


STATE = ("({pieces: document.querySelectorAll('#board .piece').length,"
         " points: document.querySelectorAll('#graph .point').length,"
         " current: [...document.querySelectorAll('#graph .point.current')]"
         "   .map(p => Number(p.getAttribute('data-ply'))),"
         " slider: Number(document.getElementById('slider').value),"
         " hash: location.hash, boards: document.querySelectorAll('svg.divercite-board').length})")


def check_page(page: Page, path: Path, first: int, moves: int, plies: list[int], name: str):
    """The page of `moves` moves from ply `first`, opened at each of `plies`, then moved."""
    last = first + moves
    for ply in plies:
        page.open(f"{path.as_uri()}#ply={ply}", READY)
        state = page.evaluate(STATE)
        check(state["pieces"] == ply, f"{name} #ply={ply}: {state['pieces']} pieces on the board")
        check(state["points"] == moves, f"{name} #ply={ply}: {state['points']} graph points "
                                        f"for {moves} moves")
        check(state["current"] == ([ply] if ply > first else []),
              f"{name} #ply={ply}: the graph marks {state['current']}")
        check(state["slider"] == ply and state["hash"] == f"#ply={ply}" and state["boards"] == 1,
              f"{name} #ply={ply}: slider {state['slider']}, URL {state['hash']}, "
              f"{state['boards']} board")
    start = plies[0]
    steps = [("button next", lambda: page.click("#next"), start + 1),
             ("key ArrowLeft", lambda: page.key("ArrowLeft"), start),
             ("key ArrowRight", lambda: page.key("ArrowRight"), start + 1),
             ("button previous", lambda: page.click("#previous"), start),
             (f"graph point {last - 2}",
              lambda: page.click(f'#graph .point[data-ply="{last - 2}"]'), last - 2),
             ("button last", lambda: page.click("#last"), last),
             ("key Home", lambda: page.key("Home"), first),
             ("key End", lambda: page.key("End"), last),
             ("button first", lambda: page.click("#first"), first),
             (f"slider to {first + 8}", lambda: page.evaluate(
                 f"(s => {{ s.value = {first + 8}; s.dispatchEvent(new Event('input')); }})"
                 "(document.getElementById('slider'))"), first + 8)]
    page.open(f"{path.as_uri()}#ply={start}", READY)
    for what, action, expected in steps:
        action()
        state = page.evaluate(STATE)
        check(state["pieces"] == expected and state["hash"] == f"#ply={expected}" and
              state["slider"] == expected,
              f"{name}: {what} -> ply {expected} (pieces {state['pieces']}, URL {state['hash']})")
    # The URL drives the page too: a jump to another #ply= on the loaded page.
    page.evaluate(f"location.hash = '#ply={first + 7}'")
    time.sleep(0.1)
    state = page.evaluate(STATE)
    check(state["pieces"] == first + 7,
          f"{name}: a new #ply={first + 7} in the URL shows {state['pieces']} pieces")


ALTERNATIVES = ("[...document.querySelectorAll('#alternatives li.alternative')]"
                ".map(li => li.dataset.move)")
ARROWS = "[...document.querySelectorAll('#board .arrow')].map(a => a.dataset.move)"


def check_alternatives(page: Page, path: Path, ply: int, name: str, screenshot: Path):
    """A page analysed with --multipv=3: at `ply`, 3 distinct alternatives listed, and a
    click on one draws its arrow (the board's only one), kept in `screenshot`."""
    page.open(f"{path.as_uri()}#ply={ply}", READY)
    listed = page.evaluate(ALTERNATIVES)
    check(len(listed) == 3 and len(set(listed)) == 3,
          f"{name} #ply={ply}: the top 3 alternatives are listed ({listed})")
    if len(listed) != 3:
        return
    page.click("#alternatives li:nth-child(3)")
    drawn = page.evaluate(ARROWS)
    check(drawn == [listed[2]], f"{name} #ply={ply}: the third's arrow is drawn ({drawn})")
    pieces = page.evaluate("document.querySelectorAll('#board .piece').length")
    check(pieces == ply, f"{name} #ply={ply}: the board still holds {pieces} pieces")
    page.screenshot(screenshot)


def run(out: Path, pages: dict):
    with open_page() as page:
        run_on(page, out, pages)


def run_on(page: Page, out: Path, pages: dict):
    page.set_viewport(1300, 1000)
    folder, moves_page = pages["folder"], pages["moves"]
    # The error check sees errors: a console error and an uncaught exception, then a clean slate.
    page.evaluate("console.error('probe'); setTimeout(() => { throw new Error('probe'); })")
    time.sleep(0.2)
    seen = page.errors()
    check(len(seen) == 2, f"the browser's errors are seen ({seen})")
    page.clear_errors()

    # The index: a link per game, each to a page that opens.
    page.open((folder / "index.html").as_uri(), READY)
    links = page.evaluate("[...document.querySelectorAll('a')].map(a => a.href)")
    check(len(links) == 2 and all(link.endswith(f"game-{i}.html") for i, link in enumerate(links)),
          f"index: links {links}")
    title = page.evaluate("document.querySelector('tr:nth-child(2) td:nth-child(2)')"
                          ".textContent")
    check(title == ODD_NAME, f"index: the first player's name reads back ({title!r})")
    page.screenshot(out / "review_index.png")
    page.click("a")
    deadline = time.monotonic() + 10
    where = "[location.pathname, document.body && document.body.dataset.ready]"
    state = [None, None]
    while state[1] != "true" and time.monotonic() < deadline:
        try:
            state = page.evaluate(where) or [None, None]
        except WebDriverException:  # asked as the page navigated
            state = [None, None]
        time.sleep(0.05)
    check(state[0].endswith("/game-0.html") and state[1] == "true",
          f"index: its first link opens {state[0]}")

    # A game of the records: its JSON, its name (with </script>) read back, then every check.
    game0 = folder / "game-0.html"
    page.open(game0.as_uri(), READY)
    data = page.evaluate("JSON.parse(document.getElementById('game').textContent)"
                         ".analysis.p1 + '|' + document.title + '|' + "
                         "document.querySelectorAll('script').length")
    check(data == f"{ODD_NAME}|Game 0: {ODD_NAME} vs second|2",
          f"game-0: the JSON and the title hold the name, two scripts ({data!r})")
    listed = page.evaluate(ALTERNATIVES)
    check(listed == [], f"game-0: no alternatives without --multipv ({listed})")
    times = page.evaluate("[...document.querySelectorAll('#moves tr')].length")
    check(times == 41, f"game-0: a header and 40 moves in the list ({times} rows)")
    clocks = page.evaluate("document.getElementById('here').textContent")
    check("Clocks:" in clocks, "game-0: the clocks are shown (tc=60+0.5 and the records' times)")
    check_page(page, game0, 0, 40, [0, 1, 17, 40], "game-0")
    check_page(page, moves_page, 0, 40, [9, 0, 40], "moves page")
    for ply in (20, 36):
        check_alternatives(page, moves_page, ply, "moves page",
                           out / f"review_alternatives_{ply}.png")
    # From a position string at ply 30: the plies (and the URL's) are the pieces on the board.
    check_page(page, pages["fen"], 30, 10, [35, 30, 40], "position-string page")
    page.open(f"{game0.as_uri()}#ply=29", READY)
    page.screenshot(out / "review_game.png")
    errors = page.errors()
    check(not errors, "no error logged by the browser" + "".join(f"\n      {e}" for e in errors))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--analyze", required=True, type=Path)
    parser.add_argument("--out", required=True, type=Path, help="pages and screenshots")
    args = parser.parse_args()
    if not chromium():
        sys.exit("review_browser_test: no chromium or chromedriver: apt-get install chromium "
                 "chromium-driver python3-selenium (scripts/install-deps.sh tests)")
    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    games = write_records(out / "records.jsonl")
    small = ["--depth=2", "--solve-plies=8", "--prove-plies=12", "--prove-movetime=50",
             "--hash=16"]
    began = time.monotonic()
    subprocess.run([args.analyze, f"--records={out / 'records.jsonl'}", f"--html={out / 'pages'}",
                    *small], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([args.analyze, f"--moves={' '.join(games[1])}", f"--html={out / 'moves.html'}",
                    "--multipv=3", *small], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([args.analyze, f"--moves={' '.join(games[1][30:])}",
                    f"--fen={position_string(args.analyze.parent / 'divercite', games[1][:30])}",
                    f"--html={out / 'fen.html'}", *small], check=True, stdout=subprocess.DEVNULL)
    print(f"pages written and analysed in {time.monotonic() - began:.1f} s", flush=True)
    run(out, {"folder": out / "pages", "moves": out / "moves.html", "fen": out / "fen.html"})
    print(f"screenshots: {out / 'review_game.png'}, {out / 'review_index.png'}, "
          f"{out / 'review_alternatives_36.png'}")
    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
