#!/usr/bin/python3
"""The arena's pages in a real browser (issue 43): Debian's Chromium, headless, driven by
Selenium (tests/browser/selenium_page.py), against a real `divercite-arena serve`
(`python3 -m divercite.arena serve DIR --port 0`, its address read from what it prints,
stopped by SIGTERM at the end).

Checks: the standings page lists the house opponents once they have games, and a click on a
heading sorts its rows (one way, then the other); at 1280 px its columns fit the screen (no
sideways scroll of the table), each heading but the rank's and the name's says what it counts
(a title), W/L and the points scored per point conceded read as the seeds' ratios ("3.33",
"∞", "–"); a team logs in through the form with its name and token (its own line of the
standings marked "you"), uploads its agent through the upload form (its file input given the
file) and lands on its page, where the version's status appears (checking, or ready already),
then ready once its check game is played; a second version, which fails at import with a long
message, is rejected; a finished game's page draws the board and replays the game with the
keys (Home: the empty board; → three times: 3 pieces; ←; End: every move), the ply and the
highlighted move following; a game being played (claimed by this test as a remote worker does,
its live lines, tests/data/live_game.jsonl, sent with its heartbeats) followed on its page at a
phone's width: its moves as they come, the newest shown, the mover's clock ticking down, until
its result is posted and the page turns into the replay; once a lost game of the team is
analysed (waited for) and a final tournament made, every page at a phone's width (390 x 844,
mobile: arena_phone.py), logged in (the standings, games, a game, its review page, the team's
page with its rejected version's reason wrapped within the screen, a house opponent's, the
upload form, a challenge sent from a team's page, the tournaments, a tournament, its games)
and logged out (the same but the upload and the challenge, and the login page): no page wider
than the screen (document.documentElement.scrollWidth <= 390), tables scrolled inside their
own box, the board and the Elo plot within the screen, every link, button and field 44 px
tall or more; the replay's buttons work at that width;
every request the browser made stayed on the arena's address (or data:/blob:); the browser
logged no error, no uncaught exception, no failed load.
Screenshots (the phone's of each whole page, phone-in-NAME.png and phone-out-NAME.png) in
--out.

    test_arena_browser.py --out DIR
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

from arena_phone import PHONE, check_phone_page, rect_of
from arena_process import (Server, add_teams, add_worker_token, arena_command, environment,
                           init, poll)
from arena_support import COURSE, REPO

sys.path.insert(0, str(REPO / "tests" / "browser"))
from selenium_page import Page, open_page  # noqa: E402

HOUSE = ("random", "greedy", "skypiea_v5", "engine-40k", "engine-250k", "engine-2.5m")
DESKTOP = (1280, 900)
# A version that fails at import, with a long line on stderr: its reason must wrap.
BROKEN = (b"raise RuntimeError('this version fails on purpose, with a reason long enough to "
          b"need several lines on a phone: " + b"and more words " * 12 + b"')\n")
# The seeds' forms of a ratio (tools/common/standings_table.h).
RATIO = re.compile(r"^(\d+\.\d\d|∞|–)$")
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
    page.set_viewport(*DESKTOP)
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
    box = page.evaluate("(b => [b.scrollWidth, b.clientWidth])"
                        "(document.querySelector('table.standings').parentElement)")
    check(box[0] <= box[1], f"at {DESKTOP[0]} px the standings' columns fit the screen (the "
                            f"table {box[0]} px wide, its box {box[1]})")
    headings = page.evaluate("Array.from(document.querySelectorAll('table.standings thead th'))"
                             ".map(th => [th.textContent.trim(), th.title])")
    check(all(title for _, title in headings[2:]) and len(headings) == 16,
          f"each heading says what it counts: {headings}")
    # W/L and scored / conceded: the 9th and the 14th columns.
    ratios = page.evaluate(
        "Array.from(document.querySelectorAll('table.standings tbody tr'))"
        ".map(r => [8, 13].map(n => r.cells[n].textContent.trim()))")
    check(ratios and all(RATIO.match(text) for row in ratios for text in row),
          f"W/L and scored / conceded read as ratios: {ratios}")
    page.screenshot(out / "standings.png")
    page.clear_viewport()


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
    page.go(server.address)
    own = page.evaluate("Array.from(document.querySelectorAll('table.standings tr.own'))"
                        ".map(r => r.cells[1].textContent.trim())")
    check(own == ["alpha you"], f"the reader's own line of the standings is marked: {own}")
    return waited


def rejected_upload(server: Server, token: str):
    """A second version of alpha, which fails at import: rejected, its reason kept."""
    status, answer = server.upload(token, "my_player.py", BROKEN)
    check(status == 201, f"a failing version uploaded ({status}: {answer})")
    version = answer["version"]
    poll(lambda: server.json(f"/api/agents/{version}", token)["status"] != "checking", 120,
         "the failing version checked")
    answer = server.json(f"/api/agents/{version}", token)
    check(answer["status"] == "rejected",
          f"the failing version is rejected: {answer['reason'][-80:]!r}")


def replay(page: ArenaPage, server: Server, out: Path) -> str:
    games = server.json("/api/games?team=alpha")["games"] + server.json("/api/games")["games"]
    # A game played to its end (not a version's crash at its first move).
    game = next(g for g in games if g["result"] is not None and g["termination"] == "normal")
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


def replay_on_phone(page: ArenaPage):
    """The replay's buttons at a phone's width: 44 px tall, a tap steps the game."""
    heights = page.evaluate("Array.from(document.querySelectorAll('.controls button'))"
                            ".map(b => b.getBoundingClientRect().height)")
    check(len(heights) == 4 and min(heights) >= 44,
          f"phone: the replay's buttons are {heights} px tall")
    page.click_on(".controls button[data-go=start]")
    page.click_on(".controls button[data-go=forward]")
    page.wait_for("document.getElementById('ply').textContent.startsWith('1 /')", 10,
                  "phone: a tap on start, then on forward: ply 1")
    check(True, "phone: the replay's buttons step the game")


def challenge_on_phone(page: ArenaPage, server: Server):
    """A challenge sent from a house opponent's page: the page it leads to."""
    opponent = server.address + "teams/engine-250k/"
    page.go(opponent)
    page.evaluate("document.querySelector('form.challenge input[name=games]').value = '1'")
    landed = page.settled(lambda: page.click_on("form.challenge button[type=submit]"),
                          "the page after the challenge")
    said = page.evaluate("document.querySelector('.message')?.textContent") or ""
    check(landed == opponent and "queued" in said,
          f"phone: a challenge leads back to the opponent's page ({landed}): {said!r}")


def every_page(page: ArenaPage, server: Server, game: int, tournament: int, logged_in: bool,
               out: Path):
    """Every page of the arena at a phone's width (arena_phone.py), logged in or out."""
    width, height = PHONE
    page.set_viewport(width, height, scale=2, mobile=True)
    who = "in" if logged_in else "out"
    site = server.address
    pages = [("standings", site), ("games", site + "games/"), ("game", f"{site}games/{game}/"),
             ("analysis", f"{site}games/{game}/analysis"), ("team", site + "teams/alpha/"),
             ("house", site + "teams/engine-250k/"), ("tournaments", site + "tournaments/"),
             ("tournament", f"{site}tournaments/{tournament}/"),
             ("tournament-games", f"{site}tournaments/{tournament}/games/")]
    pages += [("upload", site + "upload/"), ("challenge", None)] if logged_in else \
        [("login", site + "login/")]
    for name, url in pages:
        if url is None:
            challenge_on_phone(page, server)
        else:
            page.go(url)
        shown = f"{who}-{name}"
        tables = check_phone_page(page, check, shown, out)
        if name == "standings":
            check(any("standings" in kind.split() and scrolls
                      for kind, *_, scrolls in tables),
                  f"phone: {shown}: the standings' columns go on beyond the screen, scrolled "
                  "sideways")
        if name in ("game", "analysis"):
            check(rect_of(page, "#board svg") is not None, f"phone: {shown}: the board drawn")
        if name == "game":
            replay_on_phone(page)
        if name == "analysis":
            check(page.evaluate("document.body.textContent.includes('alpha')"),
                  f"phone: {shown}: the review page of game {game} opens")
        if name == "team":
            check(rect_of(page, "svg.elo-plot") is not None, f"phone: {shown}: the Elo plot")
            reason = rect_of(page, "tr.reason pre.reason")
            if logged_in:
                check(reason is not None and reason[0] >= 0 and reason[1] <= width
                      and reason[2] >= 0.7 * width and reason[3] > 60,
                      f"phone: {shown}: the rejected version's reason wraps within the screen "
                      f"({reason})")
            else:
                check(reason is None, f"phone: {shown}: no reason for others' eyes")
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
    # A house engine's time control is its nodes (house.Seat.clock_text), a team's its clock.
    from divercite.arena.play import house
    record = dict(LIVE_RECORD, p1=seats[0]["name"], p2=seats[1]["name"],
                  tc=[house.Seat.from_json(seat).clock_text() for seat in seats], opening="",
                  moves=[{"move": move, "ms": 0} for move in LIVE_RECORD["opening"].split()]
                  + LIVE_RECORD["moves"])
    status, _ = post(f"/api/worker/games/{game}/result", {"claim": claim, "record": record})
    check(status == 200, f"the live game's result posted ({status})")
    shows("document.getElementById('replay-data') !== null && "
          "document.readyState === 'complete'", "live: the page turns into the replay")
    page.clear_viewport()


def analysed_game(server: Server) -> int:
    """A lost game of alpha's analysed (its review page served), waited for: how soon one is
    depends on the matchmaking's draws and the analyst."""
    started = time.monotonic()
    found = []

    def one():
        for game in server.json("/api/games?team=alpha")["games"]:
            if game["purpose"] != "check" and \
                    server.request(f"/games/{game['id']}/analysis")[0] == 200:
                found.append(game["id"])
                return True
        return False
    poll(one, 300, "a lost game of alpha analysed", interval=2)
    check(True, f"a lost game of alpha analysed: game {found[0]} "
                f"(waited {time.monotonic() - started:.0f} s)")
    return found[0]


def make_tournament(folder: Path) -> int:
    """A final tournament of alpha and one house opponent (its pages are checked); its id."""
    result = subprocess.run(
        arena_command("tournament", "create", folder, "final", "--games-per-pair", "1",
                      "--tc", "1", "--house", "random"),
        capture_output=True, text=True, env=environment(), timeout=120)
    check(result.returncode == 0, f"a tournament made: {result.stdout or result.stderr}")
    return int(re.match(r"Tournament (\d+) ", result.stdout).group(1))


def log_out(page: ArenaPage, server: Server):
    landed = page.settled(lambda: page.click_on("header form.inline button[type=submit]"),
                          "the page after logging out")
    check(page.evaluate("Array.from(document.querySelectorAll('header nav a'))"
                        ".some(a => a.textContent.trim() === 'Log in')"),
          f"logged out ({landed})")


def session(server: Server, folder: Path, token: str, agent: Path, out: Path):
    with open_page(page_class=ArenaPage) as page:
        standings(page, server, out)
        log_in_and_upload(page, server, token, agent, out)
        rejected_upload(server, token)
        replay(page, server, out)
        live(page, server, folder, out)
        game = analysed_game(server)
        tournament = make_tournament(folder)
        every_page(page, server, game, tournament, True, out)
        log_out(page, server)
        every_page(page, server, game, tournament, False, out)
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
