#!/usr/bin/python3
"""The arena's pages in a real browser (issue 43): Debian's Chromium, headless, driven by
Selenium (tests/browser/selenium_page.py), against a real `divercite-arena serve`
(`python3 -m divercite.arena serve DIR --port 0`, its address read from what it prints,
stopped by SIGTERM at the end).

Checks: the standings page lists the house opponents once they have games, and a click on a
heading sorts its rows (one way, then the other); a team logs in through the form with its
name and token, uploads its agent through the upload form (its file input given the file)
and lands on its page, where the version's status appears (checking, or ready already), then
ready once its check game is played; a finished game's page draws the board and replays the
game with the keys (Home: the empty board; → three times: 3 pieces; ←; End: every move), the
ply and the highlighted move following; at a phone's width (390 x 844, mobile) no page is
wider than the screen (wide tables scroll inside their own box), the board fits, the replay's
buttons are 44 px tall and work; a game being played (claimed by this test as a remote worker
does, its live lines, tests/data/live_game.jsonl, sent with its heartbeats) followed on its
page at a phone's width: its moves as they come, the newest shown, the mover's clock ticking
down, until its result is posted and the page turns into the replay; the review page of one
of the team's lost games is opened too if one was analysed by then (how soon depends on the
matchmaking's draws: not waited for);
every request the browser made stayed on the arena's address (or data:/blob:); the browser
logged no error, no uncaught exception, no failed load.
Screenshots (the phone's of the whole page) in --out.

    test_arena_browser.py --out DIR
"""

from __future__ import annotations

import argparse
import base64
import json
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from arena_process import Server, add_teams, add_worker_token, init, poll
from arena_support import COURSE, REPO

sys.path.insert(0, str(REPO / "tests" / "browser"))
from selenium_page import Page, open_page  # noqa: E402

HOUSE = ("random", "greedy", "skypiea_v5", "engine-40k", "engine-250k", "engine-2.5m")
PHONE = (390, 844)
FAILURES: list[str] = []


def check(condition, what: str):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


class ArenaPage(Page):
    """A page navigated and clicked as a person does."""

    def settled(self, action, what: str, timeout: float = 60.0):
        """Runs `action` (a function) that leads to another document, and waits until that
        document has loaded: a mark left on the old one's window tells them apart (a reload
        of the same address included)."""
        self.evaluate("window.arenaTestOldPage = true")
        action()
        self.wait_for("!window.arenaTestOldPage && document.readyState === 'complete'",
                      timeout, what)
        return self.evaluate("location.href")

    def go(self, url: str):
        href = self.settled(lambda: self.driver.get(url), f"{url} loaded")
        if href.split("#")[0] != url:  # a page may mark its state in the fragment
            raise RuntimeError(f"{url} led to {href}")

    def box(self, selector: str):
        """The element's [left, top, width, height] in the viewport, scrolled into view."""
        return self.wait_for(
            f"(e => e && (e.scrollIntoView({{block: 'center'}}), (r => r.width && "
            f"[r.left, r.top, r.width, r.height])(e.getBoundingClientRect())))"
            f"(document.querySelector({selector!r}))", what=f"{selector} shown")

    def click_on(self, selector: str):
        left, top, width, height = self.box(selector)
        self.click_at(left + width / 2, top + height / 2)

    def type_into(self, selector: str, text: str):
        self.click_on(selector)
        self.wait_for(f"document.activeElement === document.querySelector({selector!r})",
                      what=f"{selector} focused")
        self.driver.switch_to.active_element.send_keys(text)

    def whole_page_shot(self, path: Path):
        """A screenshot of the whole page, not only of the screen."""
        metrics = self.driver.execute_cdp_cmd("Page.getLayoutMetrics", {})
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        shot = self.driver.execute_cdp_cmd("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": size["width"], "height": size["height"],
                     "scale": 1}})
        path.write_bytes(base64.b64decode(shot["data"]))


def standings(page: ArenaPage, server: Server, out: Path):
    page.go(server.address)
    teams = page.evaluate(
        "Array.from(document.querySelectorAll('table.standings tbody tr td:nth-child(2) a'))"
        ".map(a => a.textContent)")
    check(set(HOUSE) <= set(teams or []), f"the standings list the house opponents: {teams}")
    column = page.evaluate(
        "Array.from(document.querySelectorAll('table.standings thead th'))"
        ".findIndex(th => th.textContent.trim() === 'Elo')")
    check(column is not None and column >= 0, f"the standings have an Elo column ({column})")
    cells = (f"Array.from(document.querySelectorAll('table.standings tbody tr'))"
             f".map(r => r.cells[{column}].textContent.trim())")
    rows = page.evaluate("document.querySelectorAll('table.standings tbody tr').length")
    heading = f"table.standings thead th:nth-child({column + 1})"
    for order in ("descending", "ascending"):
        page.click_on(heading)
        page.wait_for(f"document.querySelector({heading!r}).getAttribute('aria-sort') "
                      f"=== {order!r}", what=f"the Elo heading marked {order}")
        shown = page.evaluate(cells)
        rated = [float(text) for text in shown if text not in ("–", "")]
        unrated = shown[len(rated):]
        in_order = rated == sorted(rated, reverse=order == "descending")
        check(in_order and len(rated) >= 2 and all(t in ("–", "") for t in unrated)
              and len(shown) == rows,
              f"a click on Elo sorts the rows {order} (unrated last): {shown}")
    page.screenshot(out / "standings.png")


def log_in_and_upload(page: ArenaPage, server: Server, token: str, agent: Path,
                      out: Path) -> float:
    """Logs in and uploads; the seconds from the upload to the version ready."""
    page.go(server.address + "login/")
    page.type_into("input[name=username]", "alpha")
    page.type_into("input[name=password]", token)
    landed = page.settled(lambda: page.click_on("form.login button[type=submit]"),
                          "the page after logging in")
    check(landed == server.address, f"logging in leads to the standings ({landed})")
    check(page.evaluate("Array.from(document.querySelectorAll('header nav button'))"
                        ".some(b => b.textContent.trim() === 'Log out alpha')"),
          "logged in with the team's name and token")

    page.go(server.address + "upload/")
    page.choose_file("form.upload input[type=file]", agent)
    chosen = page.evaluate("Array.from(document.querySelector('form.upload "
                           "input[type=file]').files).map(f => f.name)")
    check(chosen == ["my_player.py"], f"the form's file input holds the agent: {chosen}")
    sent = time.monotonic()
    team_page = server.address + "teams/alpha/"
    landed = page.settled(lambda: page.click_on("form.upload button[type=submit]"),
                          "the page after the upload")
    check(landed == team_page, f"the upload leads to the team's page ({landed})")
    check("Version 1 received" in (page.evaluate(
        "document.querySelector('.message.success')?.textContent") or ""),
        "the upload is confirmed")
    status = "document.querySelector('tr.version .status')?.textContent"
    first = page.evaluate(status)
    check(first in ("checking", "ready"), f"the version's status appears: {first}")
    page.screenshot(out / "uploaded.png")

    deadline = time.monotonic() + 120
    now = first
    while now == "checking" and time.monotonic() < deadline:
        time.sleep(0.5)  # between reloads: the check game plays meanwhile
        page.go(team_page)
        now = page.evaluate(status)
    waited = time.monotonic() - sent
    check(now == "ready", f"the version is ready after its check game ({waited:.0f} s): {now}")
    check(page.evaluate("document.querySelector('tr.version').classList.contains('ready')"),
          "the version's row is marked ready")
    return waited


def replay(page: ArenaPage, server: Server, out: Path) -> str:
    games = server.json("/api/games?team=alpha")["games"] + server.json("/api/games")["games"]
    game = next(g for g in games if g["result"] is not None)
    url = f"{server.address}games/{game['id']}/"
    page.go(url)
    moves = page.wait_for("document.querySelectorAll('#moves button.move').length",
                          what="the move list")
    labels = page.evaluate(
        "Array.from(document.querySelectorAll('#moves button.move')).map(b => b.textContent)")
    state = ("[document.querySelectorAll('#board .piece').length, "
             "document.getElementById('ply').textContent, "
             "Array.from(document.querySelectorAll('#moves button.move.current'))"
             ".map(b => b.textContent)]")

    def reaches(ply: int, what: str):
        """Polls until the page shows ply `ply`: its pieces, its label, its move alone
        highlighted; checks it (what it shows if not within the deadline)."""
        expected = [ply, f"{ply} / {moves}", [labels[ply - 1]] if ply else []]
        try:
            wanted = json.dumps(json.dumps(expected, separators=(",", ":")))
            page.wait_for(f"JSON.stringify({state}) === {wanted}", 10, what)
        except RuntimeError:
            pass
        shown = page.evaluate(state)
        check(shown == expected, f"{what}: {shown[0]} pieces, ply {shown[1]!r}, "
                                 f"highlighted {shown[2]}")

    check(page.evaluate("document.querySelectorAll('#board svg').length") == 1,
          "the game's page draws the board")
    reaches(moves, f"the game's page opens on its last board ({moves} moves, game "
                   f"{game['id']}, {game['p1']}–{game['p2']})")
    page.key("Home")
    reaches(0, "Home: the empty board, no move highlighted")
    for _ in range(3):
        page.key("ArrowRight")
    reaches(3, "→ three times: ply 3")
    page.key("ArrowLeft")
    reaches(2, "←: ply 2")
    page.key("End")
    reaches(moves, "End: the last board")
    page.screenshot(out / "game.png")
    return url


def phone(page: ArenaPage, server: Server, game_url: str, out: Path):
    width, height = PHONE
    page.set_viewport(width, height, scale=2, mobile=True)
    pages = (("standings", server.address), ("games", server.address + "games/"),
             ("team", server.address + "teams/alpha/"),
             ("house", server.address + "teams/engine-250k/"),
             ("upload", server.address + "upload/"), ("login", server.address + "login/"),
             ("game", game_url))
    for name, url in pages:
        page.go(url)
        inner = page.evaluate("window.innerWidth")
        check(inner == width, f"phone: the {name} page is laid out {inner} px wide "
                              f"(the viewport's {width})")
        wide = page.evaluate("document.documentElement.scrollWidth")
        check(wide <= width + 1, f"phone: the {name} page is {wide} px wide, within {width}")
        tables = page.evaluate(
            "Array.from(document.querySelectorAll('main table')).map(t => { "
            "const box = t.parentElement; const r = box.getBoundingClientRect(); "
            "return [t.className, box.classList.contains('scroll'), "
            "getComputedStyle(box).overflowX, Math.round(r.left), Math.round(r.right), "
            "box.scrollWidth > box.clientWidth]; })")
        for kind, wrapped, overflow, left, right, _ in tables or []:
            check(wrapped and overflow == "auto" and left >= 0 and right <= width,
                  f"phone: the {name} page's table.{kind.split()[0]} scrolls inside its box "
                  f"({overflow}, {left}…{right} px)")
        if name == "standings":
            check(any("standings" in kind.split() and scrolls for kind, *_, scrolls in tables),
                  "phone: the standings' columns go on beyond the screen, scrolled sideways")
        if name == "game":
            board = page.evaluate(
                "(r => [r.left, r.right, r.width])"
                "(document.querySelector('#board svg').getBoundingClientRect())")
            check(board[0] >= 0 and board[1] <= width and board[2] >= 0.8 * width,
                  f"phone: the board fits the screen ({board[0]:.0f}…{board[1]:.0f} px)")
            heights = page.evaluate(
                "Array.from(document.querySelectorAll('.controls button'))"
                ".map(b => b.getBoundingClientRect().height)")
            check(len(heights) == 4 and min(heights) >= 44,
                  f"phone: the replay's buttons are {heights} px tall")
            page.click_on(".controls button[data-go=start]")
            page.click_on(".controls button[data-go=forward]")
            page.wait_for("document.getElementById('ply').textContent.startsWith('1 /')",
                          10, "phone: a tap on start, then on forward: ply 1")
            check(True, "phone: the replay's buttons step the game")
            page.evaluate("window.scrollTo(0, 0)")
        page.whole_page_shot(out / f"phone-{name}.png")
    page.clear_viewport()


LIVE_LINES = (REPO / "tests" / "data" / "live_game.jsonl").read_text().splitlines()
LIVE_RECORD = json.loads((REPO / "tests" / "data" / "live_game_record.jsonl").read_text())


def as_if_now(lines) -> str:
    """Live lines as if written now, each clock a minute longer: the mover's clock runs on
    the page for a minute yet."""
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    events = [json.loads(line) for line in lines]
    for event in events:
        event["time"] = now
        if "clocks" in event:
            event["clocks"] = [ms + 60000 for ms in event["clocks"]]
    return "".join(json.dumps(event) + "\n" for event in events)


def live(page: ArenaPage, server: Server, folder: Path, out: Path):
    """A game being played, at a phone's width: this test claims a game as a remote worker
    does and sends a real game's live lines with its heartbeats, then its record."""
    token = add_worker_token(folder, "live-check")

    def post(path: str, fields: dict):
        status, body = server.request(path, token, json.dumps(fields).encode(),
                                      "application/json")
        return status, json.loads(body or b"{}")

    status, claimed = post("/api/worker/claim", {"worker": "live"})
    check(status == 200, f"a game claimed to be played live ({status})")
    game, claim = claimed["game"], claimed["claim"]

    def heartbeat(lines):
        status, _ = post(f"/api/worker/games/{game}/heartbeat",
                         {"claim": claim, "live": as_if_now(lines)})
        check(status == 200, f"a heartbeat with {len(lines)} live lines ({status})")

    def shows(expression: str, what: str, timeout: float = 10):
        try:
            page.wait_for(expression, timeout, what)
            check(True, what)
        except RuntimeError:
            check(False, f"{what}: {page.evaluate(expression)!r}")

    opening = len(LIVE_RECORD["opening"].split())
    moves = "document.querySelectorAll('#moves button.move').length"
    pieces = "document.querySelectorAll('#board .piece').length"
    heartbeat(LIVE_LINES[:6])  # the start, five moves
    width, height = PHONE
    page.set_viewport(width, height, scale=2, mobile=True)
    page.go(f"{server.address}games/{game}/")
    shows(f"{moves} === {opening + 5} && {pieces} === {opening + 5} && "
          f"document.getElementById('ply').textContent === '{opening + 5} / {opening + 5}'",
          "live: the moves so far, the newest board shown")
    shows("document.getElementById('live-status').textContent.includes('to move')",
          "live: who moves is said")
    wide = page.evaluate("document.documentElement.scrollWidth")
    board = page.evaluate("(r => [r.left, r.right])"
                          "(document.querySelector('#board svg').getBoundingClientRect())")
    check(wide <= width + 1 and board[0] >= 0 and board[1] <= width,
          f"phone: the live page is {wide} px wide, the board within it ({board})")
    mover = 0 if json.loads(LIVE_LINES[5])["to_move"] == "p1" else 1
    clock = f"document.querySelector('.time[data-side=\"{mover}\"]').textContent"
    other = f"document.querySelector('.time[data-side=\"{1 - mover}\"]').textContent"
    before = page.evaluate(f"[{clock}, {other}]")
    shows(f"{clock} !== {before[0]!r} && {other} === {before[1]!r} && document.querySelector("
          f"'.clock[data-side=\"{mover}\"]').classList.contains('running')",
          f"live: the mover's clock ticks down from {before[0]}, the other stays")
    heartbeat(LIVE_LINES[6:12])
    shows(f"{moves} === {opening + 11} && {pieces} === {opening + 11}",
          "live: the next moves appear within a few seconds, the newest shown")
    page.screenshot(out / "phone-live.png")
    # The game as this claim's would be: its players and clocks, from the start position (an
    # arena game has no opening: the recorded one's opening moves become its first moves).
    seats = claimed["seats"]
    record = dict(LIVE_RECORD, p1=seats[0]["name"], p2=seats[1]["name"],
                  tc=[f"tc={seat['tc']:g}" for seat in seats], opening="",
                  moves=[{"move": move, "ms": 0} for move in LIVE_RECORD["opening"].split()]
                  + LIVE_RECORD["moves"])
    status, _ = post(f"/api/worker/games/{game}/result", {"claim": claim, "record": record})
    check(status == 200, f"the live game's result posted ({status})")
    shows("document.getElementById('replay-data') !== null && "
          "document.readyState === 'complete'", "live: the page turns into the replay")
    page.clear_viewport()


def analysis(page: ArenaPage, server: Server, out: Path):
    """The review page of one of alpha's lost games, if one was analysed by now (only if:
    how soon one is depends on the matchmaking's draws)."""
    for game in server.json("/api/games?team=alpha")["games"]:
        path = f"/games/{game['id']}/analysis"
        if game["purpose"] != "check" and server.request(path)[0] == 200:
            page.go(server.address + path.lstrip("/"))
            check(page.evaluate("document.body.textContent.includes('alpha')"),
                  f"the review page of game {game['id']} opens")
            page.screenshot(out / "analysis.png")
            return
    print("skip  no game of alpha analysed yet: its review page not opened", flush=True)


def session(server: Server, folder: Path, token: str, agent: Path, out: Path):
    with open_page(page_class=ArenaPage) as page:
        standings(page, server, out)
        log_in_and_upload(page, server, token, agent, out)
        game_url = replay(page, server, out)
        phone(page, server, game_url, out)
        live(page, server, folder, out)
        analysis(page, server, out)
        origin = server.address.rstrip("/")
        requests = page.requests()
        outside = [url for url in requests
                   if not url.startswith((origin + "/", "data:", "blob:"))]
        check(requests and not outside,
              f"every one of the {len(requests)} requests to the arena itself: {outside[:5]}")
        # Chromium logs a failed load (a refused request, a 404) as an error too.
        errors = page.errors()
        check(not errors, f"no error or failed load in the browser: {errors[:5]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="screenshots")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    temp = Path(tempfile.mkdtemp(prefix="divercite_arena_browser_"))
    server = None
    try:
        folder = temp / "arena"
        init(folder, tc=5)
        token = add_teams(folder, "alpha")["alpha"]
        agent = temp / "upload" / "my_player.py"
        agent.parent.mkdir()
        shutil.copy(COURSE / "divercite" / "random_player_divercite.py", agent)
        server = Server(folder, workers=1)
        print(f"the arena at {server.address}", flush=True)
        # Some games of the house opponents first: the table has ratings to sort.
        poll(lambda: sum(g["result"] is not None for g in server.json("/api/games")["games"])
             >= 3, 180, "three games played")
        session(server, folder, token, agent, arguments.out)
        check(server.stop(timeout=20) == 0, "the arena stops cleanly on SIGTERM")
    except Exception as error:  # noqa: BLE001 - reported as a failure with the arena's output
        check(False, f"{type(error).__name__}: {error}")
        if server is not None:
            print(server.output(), file=sys.stderr)
    finally:
        if server is not None and server.process.poll() is None:
            server.kill()
        shutil.rmtree(temp, ignore_errors=True)
    print(f"{'FAILED' if FAILURES else 'passed'} in {time.monotonic() - started:.0f} s: "
          f"screenshots in {arguments.out}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
