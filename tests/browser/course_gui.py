"""The course's web GUI page in Debian's headless Chromium, driven by Selenium
(tests/browser/selenium_page.py).

The page is the course's own (divercite/GUI/index.html of DIVERCITE_COURSE_DIR, default
../shared/course beside the checkout), opened in place from disk. It loads jQuery and the
socket.io client from CDNs; the browser resolves every name but localhost to nothing, except
those two hosts, which it finds on a local HTTPS server (a certificate made for the run with
openssl, which the browser is told to accept) that answers with Debian's jQuery
(libjs-jquery) and the socket.io client the page names, with its SRI hash
(tests/browser/gui_page/, from npm: `npm ci --prefix tests/browser/gui_page`).

    with open_page() as page:
        page.open(PAGE.as_uri())
        page.next_board(60)    # the time the page drew its next board (its `play`)

Used by bench/gui_human_pace.py (a human's game against our player) and
tests/python/test_course_export.py (our games replayed with the page's "Load JSON").
"""

from __future__ import annotations

import contextlib
import http.server
import math
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Iterator, Optional
from urllib.parse import urlsplit

import selenium_page  # beside this file, on the importer's path

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
    if not selenium_page.chromium():
        return "no chromium or chromedriver: apt-get install chromium chromium-driver"
    if not shutil.which("openssl"):
        return "no openssl (the local CDN's certificate): apt-get install openssl"
    if not PAGE.is_file():
        return f"no course page {PAGE} (set DIVERCITE_COURSE_DIR)"
    return None


class Page(selenium_page.Page):
    """The course's page: the boards it draws (it logs `play` as it draws each board the
    master sends it), clicked where a person clicks."""

    def __init__(self, driver):
        super().__init__(driver)
        self.boards_taken = 0  # the `play` messages next_board() has given

    def next_board(self, timeout: float) -> float:
        """The time (ms since the epoch) of the next board the page drew, in the order drawn
        (TimeoutError after `timeout` seconds)."""
        deadline = time.monotonic() + timeout
        while True:
            plays = [entry["timestamp"] for entry in self.console()
                     if entry["message"].endswith('"play"')]
            if len(plays) > self.boards_taken:
                self.boards_taken += 1
                return plays[self.boards_taken - 1]
            if time.monotonic() > deadline:
                raise TimeoutError(f"no board drawn in {timeout:.0f} s")
            time.sleep(0.02)

    def click_in(self, element: str, x: Optional[float] = None,
                 y: Optional[float] = None) -> float:
        """Clicks the element of id `element` at (x, y) inside it (its centre by default);
        returns the time (ms since the epoch) just before the click."""
        box = self.evaluate(f"(r => [r.left, r.top, r.width, r.height])("
                            f"document.getElementById('{element}').getBoundingClientRect())")
        clicked = time.time() * 1000
        self.click_at(box[0] + (box[2] / 2 if x is None else x),
                      box[1] + (box[3] / 2 if y is None else y))
        return clicked

    def uncaught(self) -> list[str]:
        """The page's uncaught exceptions so far."""
        return [message for message in self.errors() if "Uncaught" in message]


class CdnHandler(http.server.BaseHTTPRequestHandler):
    """The CDN scripts from their local files; anything else 404."""

    def do_GET(self):
        host = (self.headers.get("Host") or "").split(":")[0]
        local = SCRIPTS.get(f"https://{host}{self.path}")
        if local is None:
            self.send_error(404)
            return
        body = local.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", "application/javascript")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextlib.contextmanager
def cdn_server() -> Iterator[int]:
    """The local CDN on a free port of 127.0.0.1, over HTTPS with a certificate of its own;
    yields the port."""
    with tempfile.TemporaryDirectory(prefix="divercite_cdn_") as folder:
        key, certificate = Path(folder) / "key.pem", Path(folder) / "certificate.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", "/CN=localhost", "-keyout", key, "-out", certificate],
                       check=True, capture_output=True)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), CdnHandler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield server.server_address[1]
        finally:
            server.shutdown()
            server.server_close()
            thread.join()


@contextlib.contextmanager
def open_page() -> Iterator[Page]:
    """A blank page of a new headless Chromium whose only hosts are localhost and the local
    CDN; Chromium and the CDN end on exit."""
    with cdn_server() as port:
        hosts = {urlsplit(url).hostname for url in SCRIPTS}
        rules = [f"MAP {host} 127.0.0.1:{port}" for host in sorted(hosts)]
        rules += ["MAP * ~NOTFOUND", "EXCLUDE localhost", "EXCLUDE 127.0.0.1"]
        with selenium_page.open_page(window=(1500, 760), page_class=Page, flags=[
                f"--host-resolver-rules={', '.join(rules)}",
                "--ignore-certificate-errors"]) as page:
            yield page
