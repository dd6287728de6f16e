"""The course's web GUI page in Debian's headless Chromium, driven over the DevTools protocol.

The page is the course's own (divercite/GUI/index.html of DIVERCITE_COURSE_DIR, default
../shared/course beside the checkout), opened in place from disk. It loads jQuery and the
socket.io client from CDNs; the browser gets no network but localhost, and `open_page`
answers those two requests with Debian's jQuery (libjs-jquery) and the socket.io client the
page names, with its SRI hash (tests/browser/gui_page/, from npm: `npm ci --prefix
tests/browser/gui_page`).

    async with open_page(profile_folder) as page:
        await page.call("Page.navigate", url=PAGE.as_uri())
        exceptions = page.listen("Runtime.exceptionThrown")

Used by bench/gui_human_pace.py (a human's game against our player) and
tests/python/test_course_export.py (our games replayed with the page's "Load JSON").
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import math
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Optional

import chromium_devtools  # beside this file, on the importer's path
from chromium_devtools import DevToolsPage

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/
from course_master import free_port, listening  # noqa: E402,F401  (for the importers)

REPO = Path(__file__).resolve().parents[2]
COURSE = Path(os.environ.get("DIVERCITE_COURSE_DIR") or REPO.parent / "shared" / "course")
PAGE = COURSE / "divercite" / "GUI" / "index.html"
SCRIPTS = {  # what the page loads from CDNs, and the local file that answers it
    "https://cdn.socket.io/4.6.0/socket.io.min.js":
        REPO / "tests" / "browser" / "gui_page" / "node_modules" / "socket.io-client" / "dist" /
        "socket.io.min.js",
    "https://cdnjs.cloudflare.com/ajax/libs/jquery/3.6.0/jquery.min.js":
        Path("/usr/share/javascript/jquery/jquery.min.js"),
}

# The page's geometry (GUI/main.js): the board canvas is 600 px, its cells on a grid turned
# by 45 degrees; a player's canvas lists the pieces left two a row.
_BOARD, _MARGIN = 600, 0.12 * 600
CELL = (_BOARD - 2 * _MARGIN) / 9
_GAP = _BOARD * 0.032


def cell_centre(row: int, column: int) -> tuple[float, float]:
    """The centre of a cell on the page's board canvas."""
    x, y = (column - 4) * (CELL + _GAP), (row - 4) * (CELL + _GAP)
    turn = math.pi / 4
    return (_BOARD / 2 + x * math.cos(turn) - y * math.sin(turn),
            _BOARD / 2 + x * math.sin(turn) + y * math.cos(turn))


def piece_centre(index: int, canvas_width: float = 400, canvas_height: float = 600):
    """The centre of the `index`-th entry of a player's pieces_left in its canvas."""
    x = canvas_width / 5 + (index % 2) * CELL * 3
    y = canvas_height / 4 + (index // 2 + 1) * (CELL + 20)
    return x + CELL / 2, y + CELL / 2


def missing() -> Optional[str]:
    """What the page needs and this machine lacks, with how to install it; None if nothing."""
    for url, path in SCRIPTS.items():
        if not path.is_file():
            return (f"{path} is missing (for {url}): apt-get install libjs-jquery; "
                    f"npm ci --prefix {REPO / 'tests' / 'browser' / 'gui_page'}")
    if not shutil.which("chromium"):
        return "no chromium: apt-get install chromium"
    if not PAGE.is_file():
        return f"no course page {PAGE} (set DIVERCITE_COURSE_DIR)"
    return None


class Page(DevToolsPage):
    """The course's page: the boards it draws (it logs `play` as it draws each board the
    master sends it), and the CDN scripts it asks for answered from local files."""

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


async def wait_for(predicate, seconds: float, what: str):
    """The first true value of the coroutine function `predicate`, polled every 0.1 s;
    TimeoutError(`what` after `seconds` s) if none comes."""
    deadline = time.monotonic() + seconds
    while not (value := await predicate()):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} after {seconds:.0f} s")
        await asyncio.sleep(0.1)
    return value


@contextlib.asynccontextmanager
async def open_page(profile: Path):
    """A blank page of a new headless Chromium (its profile in `profile`), with the page's
    runtime, page events and the answers to the CDN requests on; Chromium ends on exit."""
    async with chromium_devtools.open_page(Path(profile), Page, window=(1500, 760)) as page:
        await page.call("Runtime.enable")
        await page.call("Page.enable")
        await page.call("Fetch.enable", patterns=[{"urlPattern": "https://*"}])
        yield page
