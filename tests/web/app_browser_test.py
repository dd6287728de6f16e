#!/usr/bin/python3
"""The web app (build-web/site, scripts/web.sh) in Debian's headless Chromium, served by
tools/web/serve.py on 127.0.0.1, once with the headers that allow threads and once without.

With the headers: the engine's `bench` in the page equals the native node count; a whole game
against the engine, our moves through the page's UI (a piece chosen in the supply, a click on
the board's cell) and through its API (`divercite.play`), every move legal and the final
scores and result the rules library's (the Python package's Position), the board's pieces
equal to state().ply throughout; an illegal move refused with the rules' reason, nothing
changed; an analysis 10 plies before the end equal to the native engine's exact value, and
MultiPV 3; a recording of the course's own master (../shared/course) loaded through the file
input and walked with the arrow keys; the course recording the page saves read back by the
course's code; `#moves=` and `#fen=` links. Without the headers (one search thread): the
engine plays and live analysis stops when asked. Both: no console error, no failed load, no
request outside the served folder. Prints the time from opening the page to the engine's
first move. The browser is driven by Selenium (tests/browser/selenium_page.py).

    app_browser_test.py --site build-web/site --bin build/bin --python build/python --out DIR
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "browser"))
sys.path.insert(0, str(REPO / "tests" / "python"))
sys.path.insert(0, str(REPO / "tests"))
from selenium_page import Page, open_page  # noqa: E402
from review_browser_test import FAILURES, PASSED, REFERENCE, check  # noqa: E402
import app_player_checks as player  # noqa: E402

STATE = "divercite.state()"
# A file put into the page's file input, as the browser's file chooser does.
CHOOSE_FILE = """(() => { const files = new DataTransfer();
  files.items.add(new File([TEXT], NAME, {type: 'application/json'}));
  const input = document.getElementById('file'); input.files = files.files;
  input.dispatchEvent(new Event('change')); return 1; })()"""
# A file dropped on the page.
DROP_FILE = """(() => { const files = new DataTransfer();
  files.items.add(new File([TEXT], NAME, {type: 'application/json'}));
  document.body.dispatchEvent(new DragEvent('drop', {dataTransfer: files, bubbles: true,
    cancelable: true})); return 1; })()"""
PIECES = "document.querySelectorAll('#board .piece').length"


class Server:
    """tools/web/serve.py on a free port of 127.0.0.1, its requests logged."""

    def __init__(self, site: Path, isolation: bool, log: Path):
        self.log = log
        command = [sys.executable, str(REPO / "tools" / "web" / "serve.py"), "--port", "0",
                   "--log", str(log)] + ([] if isolation else ["--no-isolation"]) + [str(site)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
        first = self.process.stdout.readline().split()
        if not first or not first[-1].startswith("http://127.0.0.1:"):
            self.process.kill()
            raise RuntimeError(f"serve.py did not say where it serves: {first}")
        self.url = first[-1].rstrip("/") + "/"

    def close(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()


def native_exact(engine: Path, moves: list[str]) -> tuple[int, bool]:
    """The native engine's `go depth 40` score of the position after `moves`, and whether it
    said `info string exact` (`quit` only after its `bestmove`: it would stop the search)."""
    with subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as process:
        process.stdin.write(f"position startpos moves {' '.join(moves)}\ngo depth 40\n")
        process.stdin.flush()
        lines = []
        for line in process.stdout:
            lines.append(line.strip())
            if line.startswith("bestmove"):
                break
        process.stdin.write("quit\n")
        process.stdin.close()
    last = [k for k, line in enumerate(lines) if " score cp " in line][-1]
    score = int(lines[last].split(" score cp ")[1].split()[0])
    return score, any(line == "info string exact" for line in lines[last + 1:])


def native_bench(engine: Path) -> str:
    out = subprocess.run([engine, "bench"], capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if line.startswith("Nodes searched"))


def open_app(page: Page, url: str) -> float:
    """Opens the app afresh; returns the milliseconds until its API was ready."""
    page.open(url, "window.divercite && window.divercite.ready", 60)
    return page.evaluate("performance.now()")


def click_selector(page: Page, selector: str):
    box = page.evaluate(f"(r => r && [r.left + r.width / 2, r.top + r.height / 2])("
                        f"document.querySelector({json.dumps(selector)})"
                        "?.getBoundingClientRect())")
    if not box:
        raise RuntimeError(f"no element {selector}")
    page.click_at(*box)


def ui_move(page: Page, side: str, move: str):
    """Our move as a person makes it: the piece in the supply, then the cell."""
    click_selector(page, f'.supply-piece.owner-{side}[data-piece="{move[:2]}"]')
    click_selector(page, f'#board [data-cell="{move[2:]}"]')


def whole_game(page: Page, Position, engine_level: int, seed: int):
    """We play second against the engine at level `engine_level` (10 ms a move)."""
    page.evaluate("document.getElementById('side').value = 'second'; "
                  f"document.getElementById('level').value = '{engine_level}'")
    click_selector(page, "#new-game")
    chooser = random.Random(seed)
    for turn in range(20):
        state = page.wait_for(f"(s => s.ply % 2 === 1 && s)({STATE})", 60,
                              f"the engine's move {2 * turn + 1}")
        pieces = page.evaluate(PIECES)
        check(pieces == state["ply"], f"turn {turn}: {pieces} pieces shown at ply {state['ply']}")
        position = Position.from_moves(state["moves"])  # raises on an engine's illegal move
        move = chooser.choice(position.legal_moves())
        if turn % 2 == 0:
            ui_move(page, "second", move)
        else:
            _, error = page.run(f"divercite.play({json.dumps(move)})")
            if error:
                raise RuntimeError(f"divercite.play({move}): {error}")
        page.wait_for(f"{STATE}.moves.length > {state['ply']}", 30, f"our move {move}")
    state = page.wait_for(f"(s => s.result !== '*' && s)({STATE})", 30, "the game's end")
    final = Position.from_moves(state["moves"])
    final_moves = state["moves"]
    check(list(final.scores) == state["scores"] and final.result() == state["result"],
          f"a whole game (UI and API moves): scores {state['scores']} {state['result']}, the "
          f"rules' {list(final.scores)} {final.result()}")
    check(page.evaluate(PIECES) == 40, "40 pieces shown at the end")
    click_selector(page, "#take-back")
    state = page.wait_for(f"(s => s.ply === 39 && s)({STATE})", 10, "a move taken back")
    check(state["moves"] == final_moves[:39] and page.evaluate(PIECES) == 39,
          "take back: our last move undone, our move again at ply 39")


def illegal_moves(page: Page, Position):
    page.run("divercite.load({moves: ['RC14', 'GR04']})")
    before = page.evaluate(STATE)
    value, error = page.run("divercite.play('BR04')")
    check(value is None and error and "BR04" in error and
          page.evaluate(STATE) == before,
          f"divercite.play of an occupied cell rejected ({error}), state unchanged")
    _, error = page.run("divercite.play('RC44')")
    check(error is not None and page.evaluate(STATE) == before,
          f"a city on a resource cell rejected: {error}")
    page.evaluate("document.getElementById('move-input').value = 'GC14'")
    click_selector(page, "#move-form button")
    message = page.wait_for("document.getElementById('message').textContent", 5)
    check("GC14" in message and page.evaluate(STATE) == before,
          f"a move typed on an occupied cell: the page says '{message}'")
    click_selector(page, '.supply-piece.owner-first[data-piece="BR"]')
    shown = page.evaluate("[...document.querySelectorAll('#board .cell.legal')]"
                          ".map(c => c.dataset.cell).sort()")
    legal = sorted(m[2:] for m in Position.from_moves(["RC14", "GR04"]).legal_moves()
                   if m.startswith("BR"))
    check(shown == legal, f"a blue resource chosen: its {len(shown)} legal cells shown "
                          f"(the rules': {len(legal)})")
    click_selector(page, '.supply-piece.owner-first[data-piece="BR"]')  # unchosen
    ui_move(page, "first", "YR04")
    message = page.wait_for("document.getElementById('message').textContent", 5)
    check(page.evaluate(STATE) == before and page.evaluate(PIECES) == 2,
          f"a click on an occupied cell changes nothing ('{message}')")


def analysis(page: Page, engine: Path, moves: list[str]):
    page.run(f"divercite.load({{moves: {json.dumps(moves[:30])}}})")
    line, error = page.run("divercite.analyse({depth: 40})", 300)
    score, exact = native_exact(engine, moves[:30])
    check(error is None and line["score"] == score and line["exact"] == exact and exact,
          f"10 plies before the end: the page's {line and line.get('score')} "
          f"exact={line and line.get('exact')}, native {score} exact={exact}")
    lines, error = page.run("divercite.analyse({depth: 6, multipv: 3})", 120)
    check(error is None and len(lines) == 3 and len({x["move"] for x in lines}) == 3 and
          all(x["pv"] and x["pv"][0] == x["move"] for x in lines),
          f"MultiPV 3: {[(x['move'], x['score']) for x in lines or []]}")


def course_recording(page: Page, out: Path):
    import course_support
    from divercite.course import game_of_states, read_recording
    folder = Path(tempfile.mkdtemp(prefix="web_course_", dir=out))
    course_support.run_master([course_support.RANDOM, course_support.GREEDY], folder, record=True)
    recording = next(folder.rglob("__REC__*.json"))
    game = read_recording(recording)
    # The file as a person gives it: chosen in the file input, then dropped on the page.
    for how, script in (("chosen", CHOOSE_FILE), ("dropped", DROP_FILE)):
        page.run("divercite.load({moves: []})")
        page.evaluate(script.replace("NAME", json.dumps(recording.name))
                            .replace("TEXT", json.dumps(recording.read_text())))
        state = page.wait_for(f"(s => s.moves.length === {len(game.moves)} && s)({STATE})",
                              20, f"the course's recording {how}")
        check(state["moves"] == game.moves and state["scores"] == list(game.scores[-1]),
              f"the course master's recording {recording.name} {how}: "
              f"{len(state['moves'])} moves, scores {state['scores']}")
    for key, expected in (("ArrowLeft", 39), ("ArrowLeft", 38), ("Home", 0), ("ArrowRight", 1),
                          ("End", 40)):
        page.key(key)
        shown = page.evaluate(f"[{STATE}.ply, {PIECES}]")
        check(shown == [expected, expected], f"key {key}: ply and pieces {shown}, "
                                             f"expected {expected}")
    text, error = page.run("divercite.save('recording')")
    states = json.loads(text) if text else []
    saved = game_of_states(states) if states else None
    check(error is None and saved is not None and saved.moves == game.moves,
          f"the page's course recording reads back with the course's format "
          f"({len(states)} states)")


def records_and_analyses(page: Page, bin_dir: Path, out: Path):
    """A line of divercite-match -records and one of divercite-analyze --json, as texts
    pasted into the page's box and loaded."""
    records = out / "match.jsonl"
    records.unlink(missing_ok=True)
    subprocess.run([bin_dir / "divercite-match", "-engine", f"cmd={bin_dir / 'divercite'}",
                    "name=rnd", "option.Agent=random", "tc=inf", "-engine",
                    f"cmd={bin_dir / 'divercite'}", "name=grd", "option.Agent=greedy", "tc=inf",
                    "-games", "1", "-records", records], check=True, capture_output=True)
    analysis = subprocess.run([bin_dir / "divercite-analyze", f"--records={records}",
                               "--game=0", "--json", "--depth=1", "--solve-plies=4",
                               "--prove-plies=0"], check=True, capture_output=True,
                              text=True).stdout
    record = json.loads(records.read_text())
    moves = [m["move"] for m in record["moves"]]
    for what, text, points in (("a records line", records.read_text(), 0),
                               ("an analysis line", analysis, 40)):
        page.run("divercite.load({moves: []})")
        page.evaluate(f"document.getElementById('io-text').value = {json.dumps(text)}")
        click_selector(page, "#load")
        state = page.wait_for(f"(s => s.moves.length === 40 && s)({STATE})", 10, what)
        shown = page.evaluate("document.querySelectorAll('#graph .point').length")
        check(state["moves"] == moves and state["result"] == record["result"] and
              shown == points, f"{what} loaded: {len(state['moves'])} moves, "
                               f"{state['result']}, {shown} engine values on the graph")


def tiebreak(page: Page):
    """Reference game 47: level after the 40th move, drawn by the course's last rule."""
    games = (REFERENCE / "games.jsonl").read_text().splitlines()
    game = json.loads(games[47])
    page.run(f"divercite.load({{moves: {json.dumps(game['moves'])}}})")
    state = page.evaluate(STATE)
    status = page.evaluate("document.getElementById('status').textContent + ' ' + "
                           "document.getElementById('tiebreak').textContent")
    check(state["scores"] == game["final"] and state["result"] == "1/2-1/2" and
          "tie-break" in status and "quirk" in status,
          f"reference game 47, drawn by the tie-break: '{status}'")


def phone(page: Page, out: Path):
    """At a phone's width the page fits: no sideways scrolling, the board on screen."""
    page.set_viewport(390, 844, scale=2, mobile=True)
    time.sleep(0.3)
    widths = page.evaluate("[document.documentElement.scrollWidth, "
                           "document.getElementById('board').getBoundingClientRect().width]")
    check(widths[0] <= 390 and 300 <= widths[1] <= 390,
          f"at 390 px wide: page {widths[0]} px, board {widths[1]:.0f} px")
    page.screenshot(out / "app_phone.png")
    page.clear_viewport()


def clock_game(page: Page):
    """On a clock (5 minutes each): the engine, first, moves within its clock, and both
    clocks are shown, ours running."""
    level = page.evaluate("[...document.getElementById('level').options]"
                          ".findIndex(o => o.textContent === 'Engine, 5 min each')")
    page.evaluate("document.getElementById('side').value = 'second'; "
                  f"document.getElementById('level').value = '{level}'")
    click_selector(page, "#new-game")
    # The engine's own clock bounds its first move (it has taken 1 to 28 s here).
    page.wait_for(f"{STATE}.ply === 1", 300, "the engine's first move on a clock")
    time.sleep(1.3)
    clocks = page.evaluate("[...document.querySelectorAll('.player .clock')]"
                           ".map(c => c.textContent)")
    seconds = [int(c.split(":")[0]) * 60 + int(c.split(":")[1]) for c in clocks if ":" in c]
    check(level >= 0 and len(seconds) == 2 and all(200 < left < 300 for left in seconds),
          f"5 minutes each: the engine moved, both clocks ran ({clocks})")


def links(page: Page, url: str, moves: list[str]):
    open_app(page, f"{url}index.html#moves={','.join(moves[:6])}")
    state = page.evaluate(STATE)
    check(state["moves"] == moves[:6] and page.evaluate(PIECES) == 6,
          f"#moves= link: {state['moves']}")
    _, error = page.run(f"divercite.load({{moves: {json.dumps(moves[:4])}}})")
    fen = (page.evaluate(STATE))["fen"]
    open_app(page, f"{url}index.html#fen={fen.replace(' ', '%20')}")
    state = page.evaluate(STATE)
    check(error is None and state["fen"] == fen and state["ply"] == 4 and
          page.evaluate(PIECES) == 4, f"#fen= link: {state['fen']}")


def stop_obeyed(page: Page):
    """Live analysis (go infinite) on, then off: the engine answers the next search."""
    click_selector(page, "#analyse")
    page.wait_for("document.querySelectorAll('#lines li').length > 0", 30,
                  "live analysis lines")
    began = time.monotonic()
    click_selector(page, "#analyse")
    move, error = page.run("divercite.engineMove({nodes: 2000})", 30)
    check(error is None and move, f"live analysis stopped, then an engine move {move} "
                                  f"({time.monotonic() - began:.2f} s)")


def new_player(page: Page, url: str, name: str, args, Position, moves):
    """What a new player meets (tests/web/app_player_checks.py)."""
    player.first_visit(page, name, open_app, url)
    player.phone_moves(page, name, Position, moves, ui_move, args.out)
    player.arrows(page, name, moves, args.out)
    player.side_at_once(page, name)
    player.play_from_here(page, name, Position, moves)
    player.links(page, name, open_app, url, moves)
    player.review_link(page, name, open_app, url, args.bin / "divercite-analyze", moves,
                       args.out)


def site(page: Page, url: str, isolated: bool, args, Position, moves):
    name = "threaded" if isolated else "no headers"
    ready = open_app(page, f"{url}index.html")
    page.screenshot(args.out / f"app_first_page_{'threaded' if isolated else 'single'}.png")
    check(page.evaluate("crossOriginIsolated") == isolated,
          f"{name}: crossOriginIsolated is {isolated}")
    twice = page.evaluate("(ids => ids.filter((id, k) => ids.indexOf(id) !== k))("
                          "[...document.querySelectorAll('[id]')].map(e => e.id))")
    check(twice == [], f"{name}: every id of the page is its element's alone ({twice})")
    # From opening the page to the engine's first move, as a player starts a game as second.
    page.evaluate("document.getElementById('side').value = 'second'; "
                  "document.getElementById('level').value = '2'")
    click_selector(page, "#new-game")
    page.wait_for(f"{STATE}.ply === 1", 30, "the engine's first move")
    first_move = page.evaluate("performance.now()")
    print(f"{name}: page open to API ready {ready:.0f} ms, to the engine's first move "
          f"{first_move:.0f} ms (10 ms a move)", flush=True)
    new_player(page, url, name, args, Position, moves)
    if isolated:
        lines, error = page.run(
            "divercite.engine.exchange(['bench'], l => l.startsWith('Nodes searched'), 300000)",
            300)
        check(error is None and lines[-1] == native_bench(args.bin / "divercite"),
              f"{name}: bench in the page: '{lines and lines[-1]}'")
        whole_game(page, Position, 2, 31)
        illegal_moves(page, Position)
        analysis(page, args.bin / "divercite", moves)
        course_recording(page, args.out)
        records_and_analyses(page, args.bin, args.out)
        tiebreak(page)
        phone(page, args.out)
        clock_game(page)
        links(page, url, moves)
    else:
        page.run("divercite.load({moves: []})")  # both sides by hand: the API moves
        for _ in range(3):
            move, error = page.run("divercite.engineMove({movetime: 50})", 30)
            check(error is None and move, f"{name}: the engine plays {move}")
        stop_obeyed(page)
        check((page.evaluate(STATE))["ply"] == 4, f"{name}: 4 plies played")
    page.screenshot(args.out / f"app_{'threaded' if isolated else 'single'}.png")


def run(args, Position, moves, url: str, isolated: bool):
    with open_page(window=(1250, 1000)) as page:
        site(page, url, isolated, args, Position, moves)
        # The review page written for the app's link (review_link) is opened from disk.
        ours = (url, "data:", "blob:", args.out.resolve().as_uri())
        outside = [r for r in page.requests() if not r.startswith(ours)]
        check(not outside, f"no request outside the served folder ({outside[:3]})")
        # Chromium logs a failed load (a refused request, a 404) as an error too.
        errors = page.errors()
        check(not errors, f"no error or failed load in the browser ({errors[:3]})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", type=Path, required=True)
    parser.add_argument("--bin", type=Path, required=True)
    parser.add_argument("--python", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(args.python))
    from divercite import Position
    moves = json.loads((REFERENCE / "games.jsonl").open().readline())["moves"]
    for isolated in (True, False):
        server = Server(args.site, isolated, args.out / f"requests-{int(isolated)}.log")
        try:
            run(args, Position, moves, server.url, isolated)
        finally:
            server.close()
    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
