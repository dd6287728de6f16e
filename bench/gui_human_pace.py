#!/usr/bin/python3
"""A human's game against our course player in the course's own web GUI, timed in Chromium.

Runs `main_divercite.py -t human_vs_computer tools/seahorse/divercite_player.py` (the
course's master, its default 900-s clock), opens the course's page (GUI/index.html, in
place) in headless Chromium, and plays the human's side by clicking as a person does: a
piece of the human's, then a cell of the board. For each move it reports the time from the
click to the page drawing the board with the human's move, and to the page drawing the
engine's reply (the page logs `play` as it draws each board it receives: the times are the
page's own console timestamps against the click's). The last board is saved as a PNG.

    /usr/bin/python3 bench/gui_human_pace.py [--moves 3] [--pace auto|human|clock]
                                             [--screenshot gui.png] [--budget SECONDS]

With --budget it exits 1 if a move's board (the human's or the engine's) was drawn later
than that after the click (ctest seahorse_gui_human_pace: 2 moves, 3.5 s).

--pace sets DIVERCITE_PACE (auto, the default: the player sees the human and answers at a
human's pace; clock: the full clock, as before the human pace, 42-45 s a move at first).

The page loads jQuery and the socket.io client from CDNs; the browser gets no network but
localhost, and this script answers those two requests with Debian's jQuery (libjs-jquery)
and the socket.io client the page names, with its SRI hash (bench/gui_page/, from npm:
`npm ci --prefix bench/gui_page`). Needs Debian's chromium.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import math
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path


REPO = Path(__file__).resolve().parents[1]
COURSE = Path(os.environ.get("DIVERCITE_COURSE_DIR") or REPO.parent / "shared" / "course")
PAGE = COURSE / "divercite" / "GUI" / "index.html"
PLAYER = REPO / "tools" / "seahorse" / "divercite_player.py"
SCRIPTS = {  # what the page loads from CDNs, and the local file that answers it
    "https://cdn.socket.io/4.6.0/socket.io.min.js":
        REPO / "bench" / "gui_page" / "node_modules" / "socket.io-client" / "dist" /
        "socket.io.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/jquery/3.6.0/jquery.min.js":
        Path("/usr/share/javascript/jquery/jquery.min.js"),
}

sys.path[:0] = [str(COURSE / "divercite"), str(COURSE / "seahorse")]
from chromium_devtools import DevToolsPage, open_page  # noqa: E402  (beside this file)
from game_state_divercite import GameStateDivercite  # noqa: E402  (the course's rules)
from player_divercite import PlayerDivercite  # noqa: E402

# The page's geometry (GUI/main.js): the board canvas is 600 px, its cells on a grid turned
# by 45 degrees; a player's canvas lists the pieces left two a row.
_BOARD, _MARGIN = 600, 0.12 * 600
_CELL = (_BOARD - 2 * _MARGIN) / 9
_GAP = _BOARD * 0.032


def cell_centre(row: int, column: int) -> tuple[float, float]:
    x, y = (column - 4) * (_CELL + _GAP), (row - 4) * (_CELL + _GAP)
    turn = math.pi / 4
    return (_BOARD / 2 + x * math.cos(turn) - y * math.sin(turn),
            _BOARD / 2 + x * math.sin(turn) + y * math.cos(turn))


def piece_centre(index: int, canvas_width: float = 400, canvas_height: float = 600):
    """The centre of the `index`-th entry of a player's pieces_left in its canvas."""
    x = canvas_width / 5 + (index % 2) * _CELL * 3
    y = canvas_height / 4 + (index // 2 + 1) * (_CELL + 20)
    return x + _CELL / 2, y + _CELL / 2


class Page(DevToolsPage):
    """The course's page (bench/chromium_devtools.py): its console, the scripts it loads."""

    def __init__(self, websocket):
        super().__init__(websocket)
        self.boards: asyncio.Queue = asyncio.Queue()  # console `play`: the page's ms

    def on_event(self, method: str, params: dict):
        if method == "Runtime.consoleAPICalled":
            words = [a.get("value") for a in params["args"]]
            if words == ["play"]:
                self.boards.put_nowait(params["timestamp"])
        elif method == "Fetch.requestPaused":
            asyncio.create_task(self.answer_request(params))

    async def answer_request(self, params):
        """The CDN scripts from local files; anything else beyond localhost refused."""
        local = SCRIPTS.get(params["request"]["url"])
        if local is None:
            await self.call("Fetch.failRequest", requestId=params["requestId"],
                            errorReason="BlockedByClient")
            return
        await self.call("Fetch.fulfillRequest", requestId=params["requestId"], responseCode=200,
                        responseHeaders=[{"name": "Content-Type",
                                          "value": "application/javascript"},
                                         {"name": "Access-Control-Allow-Origin", "value": "*"}],
                        body=base64.b64encode(local.read_bytes()).decode())

    async def click(self, canvas: str, x: float, y: float) -> float:
        """Clicks at (x, y) of the canvas `canvas`; returns the time (ms since the epoch)."""
        box = await self.evaluate(f"(r => [r.left, r.top])(document.getElementById("
                                  f"'{canvas}').getBoundingClientRect())")
        at = dict(x=box[0] + x, y=box[1] + y)
        await self.call("Input.dispatchMouseEvent", type="mouseMoved", **at)
        await self.call("Input.dispatchMouseEvent", type="mousePressed", button="left",
                        clickCount=1, **at)
        clicked = time.time() * 1000
        await self.call("Input.dispatchMouseEvent", type="mouseReleased", button="left",
                        clickCount=1, **at)
        return clicked


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def listening(port: int) -> bool:
    try:
        socket.create_connection(("localhost", port), timeout=0.2).close()
        return True
    except OSError:
        return False


async def wait_for(predicate, seconds: float, what: str):
    deadline = time.monotonic() + seconds
    while not (value := await predicate()):
        if time.monotonic() > deadline:
            sys.exit(f"gui_human_pace: {what} after {seconds:.0f} s")
        await asyncio.sleep(0.1)
    return value


async def play(port: int, profile: Path, moves: int, screenshot: Path):
    async with open_page(profile, Page, window=(1500, 760)) as page:
        return await play_on(page, port, moves, screenshot)


async def play_on(page: Page, port: int, moves: int, screenshot: Path):
    await page.call("Runtime.enable")
    await page.call("Page.enable")
    await page.call("Fetch.enable", patterns=[{"urlPattern": "https://*"}])
    # The page connects to the port in its port box (16001) when loaded: as a person would
    # type it, this game's port.
    await page.call("Page.addScriptToEvaluateOnNewDocument", source=(
        "document.addEventListener('DOMContentLoaded', () => "
        f"{{ document.getElementById('port').value = '{port}'; }});"))
    await wait_for(lambda: asyncio.sleep(0, listening(port)), 30, "the master does not listen")
    await page.call("Page.navigate", url=PAGE.as_uri())
    await wait_for(lambda: page.evaluate("document.getElementById('status').textContent"
                                         ".trim() === 'Connected'"), 30, "no connection")
    await asyncio.wait_for(page.boards.get(), 60)  # the start
    timings = []
    for _ in range(moves):
        await asyncio.sleep(0.5)  # a human's look at the board
        board = await page.evaluate("JSON.stringify(json)")  # the page's last board (main.js)
        board = json.loads(board)
        human = PlayerDivercite.from_json(json.dumps(board["next_player"]))
        state = GameStateDivercite.from_json(json.dumps(board), next_player=human)
        action = sorted(state.generate_possible_light_actions(),
                        key=lambda a: (a.data["piece"], a.data["position"]))[0]
        kinds = list(board["players_pieces_left"][str(human.get_id())])
        await page.click("player1", *piece_centre(kinds.index(action.data["piece"])))
        clicked = await page.click("board", *cell_centre(*action.data["position"]))
        shown = await asyncio.wait_for(page.boards.get(), 900)
        answered = await asyncio.wait_for(page.boards.get(), 900)
        timings.append(((shown - clicked) / 1000, (answered - clicked) / 1000))
        print(f"move {len(timings)} ({action.data['piece']} at {action.data['position']}): "
              f"click -> the human's move drawn {timings[-1][0]:.2f} s, the engine's reply "
              f"drawn {timings[-1][1]:.2f} s", flush=True)
    await page.screenshot(screenshot)
    return timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--pace", default="auto", choices=["auto", "human", "clock"])
    parser.add_argument("--screenshot", type=Path, default=Path("gui_human_pace.png"))
    parser.add_argument("--budget", type=float, help="seconds from a click to both boards")
    args = parser.parse_args()
    for url, path in SCRIPTS.items():
        if not path.is_file():
            sys.exit(f"gui_human_pace: {path} is missing (for {url}): apt-get install "
                     f"libjs-jquery; npm ci --prefix {REPO / 'bench' / 'gui_page'}")
    if not shutil.which("chromium"):
        sys.exit("gui_human_pace: no chromium: apt-get install chromium")
    with tempfile.TemporaryDirectory(prefix="divercite_gui_") as folder:
        tmp = Path(folder)
        # The master opens the page with xdg-open; here the page is Chromium's.
        (tmp / "xdg-open").write_text("#!/bin/sh\n")
        (tmp / "xdg-open").chmod(0o755)
        port = free_port()
        env = {k: v for k, v in os.environ.items()  # the engine may be named, not the pace
               if k == "DIVERCITE_ENGINE" or not k.startswith("DIVERCITE_")}
        env.update(DIVERCITE_PACE=args.pace, DIVERCITE_PLAYER_LOG="1",
                   PYTHONPATH=str(COURSE / "seahorse"), PATH=f"{tmp}:{env.get('PATH', '')}")
        log = open(tmp / "master.log", "w")
        master = subprocess.Popen(
            [sys.executable, str(COURSE / "divercite" / "main_divercite.py"), "-t",
             "human_vs_computer", "-l", "INFO", "-p", str(port), str(PLAYER)],
            cwd=tmp, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            timings = asyncio.run(play(port, tmp / "profile", args.moves, args.screenshot))
        finally:
            master.send_signal(signal.SIGINT)
            try:
                master.wait(timeout=10)
            except subprocess.TimeoutExpired:
                master.kill()
                master.wait()
            log.close()
        thinking = [line for line in (tmp / "master.log").read_text().splitlines()
                    if line.startswith("divercite_player: ") and "move name=" not in line]
    print("\n".join(thinking[:3]))
    print(f"pace {args.pace}, {len(timings)} moves: click -> human's move drawn max "
          f"{max(s for s, _ in timings):.2f} s, engine's reply drawn max "
          f"{max(a for _, a in timings):.2f} s; the last board in {args.screenshot}")
    if args.budget is not None and max(a for _, a in timings) > args.budget:
        sys.exit(f"gui_human_pace: a board was drawn more than {args.budget} s after its click")


if __name__ == "__main__":
    main()
