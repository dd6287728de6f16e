"""Debian's Chromium, headless, driven over the Chrome DevTools protocol (a websocket).

Shared by tests/browser/course_gui.py (the course's GUI page: bench/gui_human_pace.py and
tests/python/test_course_export.py) and tests/review_browser_test.py (divercite-analyze's
review pages):

    async with open_page(profile_folder) as page:   # a DevToolsPage, or a subclass given
        await page.call("Page.navigate", url="file:///...")
        title = await page.evaluate("document.title")

A subclass sees the browser's events (console, exceptions, paused requests) by overriding
`on_event(method, params)`; any caller can queue those of one kind with `listen(method)`.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Optional

import aiohttp

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync",
                  "--remote-debugging-port=0"]


class DevToolsPage:
    """One page: the protocol's calls, answered in turn, and its events."""

    def __init__(self, websocket):
        self.websocket = websocket
        self.calls: dict[int, asyncio.Future] = {}
        self.listeners: dict[str, asyncio.Queue] = {}
        self.pump_errors: list[str] = []
        self.count = 0

    def listen(self, method: str) -> asyncio.Queue:
        """The queue of the params of every event `method` from now on."""
        return self.listeners.setdefault(method, asyncio.Queue())

    async def call(self, method: str, answer_within: float = 30.0, **params):
        """The answer to one protocol call (TimeoutError after `answer_within` seconds)."""
        self.count += 1
        answer = asyncio.get_running_loop().create_future()
        self.calls[self.count] = answer
        await self.websocket.send_json({"id": self.count, "method": method, "params": params})
        return await asyncio.wait_for(answer, answer_within)

    async def pump(self):
        async for message in self.websocket:
            data = json.loads(message.data)
            if "id" in data:
                answer = self.calls.pop(data["id"])
                if "error" in data:
                    answer.set_exception(RuntimeError(f"{data['error']}"))
                else:
                    answer.set_result(data.get("result", {}))
            elif "method" in data:
                params = data.get("params", {})
                if data["method"] in self.listeners:
                    self.listeners[data["method"]].put_nowait(params)
                try:
                    self.on_event(data["method"], params)
                except Exception as error:  # a subclass's bug must not stop every answer
                    self.pump_errors.append(f"{data['method']}: {error!r}")

    def on_event(self, method: str, params: dict):
        """An event of a domain enabled (Runtime.enable, Log.enable, ...): none kept here."""

    async def evaluate(self, expression: str):
        """The value of a JavaScript expression in the page; None if it throws (an element
        not there yet, while a page loads)."""
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    async def click_at(self, x: float, y: float) -> float:
        """A left click at (x, y) of the page; returns the time (ms since the epoch)."""
        at = dict(x=x, y=y)
        await self.call("Input.dispatchMouseEvent", type="mouseMoved", **at)
        await self.call("Input.dispatchMouseEvent", type="mousePressed", button="left",
                        clickCount=1, **at)
        clicked = time.time() * 1000
        await self.call("Input.dispatchMouseEvent", type="mouseReleased", button="left",
                        clickCount=1, **at)
        return clicked

    async def click(self, element: str, x: Optional[float] = None,
                    y: Optional[float] = None) -> float:
        """Clicks the element of id `element` at (x, y) inside it (its centre by default);
        returns the time (ms since the epoch)."""
        box = await self.evaluate(f"(r => [r.left, r.top, r.width, r.height])("
                                  f"document.getElementById('{element}')"
                                  ".getBoundingClientRect())")
        return await self.click_at(box[0] + (box[2] / 2 if x is None else x),
                                   box[1] + (box[3] / 2 if y is None else y))

    async def screenshot(self, path: Path):
        shot = await self.call("Page.captureScreenshot", format="png")
        Path(path).write_bytes(base64.b64decode(shot["data"]))


def devtools_port(active: Path) -> Optional[int]:
    """The port in Chromium's DevToolsActivePort file once its first line is complete (the
    file is written in place, so it can be seen empty or cut short); None before."""
    try:
        text = active.read_text()
    except FileNotFoundError:
        return None
    port, newline, _ = text.partition("\n")
    return int(port) if newline and port.isdigit() else None


def living_members(group: int) -> list[int]:
    """The processes of process group `group` that have not exited (zombies left out: the
    container's init may never reap Chromium's orphaned helpers)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        state, process_group = fields[0], int(fields[2])
        if process_group == group and state not in ("Z", "X"):
            members.append(int(stat.parent.name))
    return members


async def stop_chromium(chromium: subprocess.Popen, grace: float = 10.0):
    """Ends Chromium and every helper process it started (its own process group), and waits
    until none is left: only then may its profile folder be removed."""
    group = chromium.pid
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while chromium.poll() is None or living_members(group):
        if time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
            deadline = time.monotonic() + grace
        await asyncio.sleep(0.05)


async def first_page_target(session: aiohttp.ClientSession, port: int, deadline: float) -> dict:
    """The first page target Chromium lists (its start page may be listed a moment after
    the DevTools port opens)."""
    while True:
        async with session.get(f"http://127.0.0.1:{port}/json/list") as answer:
            pages = [t for t in await answer.json() if t["type"] == "page"]
        if pages:
            return pages[0]
        if time.monotonic() > deadline:
            raise RuntimeError("Chromium opened no page in 30 s")
        await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def open_page(profile: Path, page_class=DevToolsPage, window=(1300, 1000)):
    """Starts Chromium with a fresh profile in `profile`, and yields its first page as a
    `page_class`, its events pumped; on the way out Chromium and all its helper processes
    are ended and waited for, so the caller may remove `profile` at once."""
    chromium = subprocess.Popen(
        [shutil.which("chromium") or "chromium", *CHROMIUM_FLAGS,
         f"--window-size={window[0]},{window[1]}", f"--user-data-dir={profile}",
         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    try:
        active = Path(profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while (port := devtools_port(active)) is None:
            if chromium.poll() is not None:
                raise RuntimeError(f"Chromium exited with status {chromium.returncode} "
                                   "before it opened its DevTools port")
            if time.monotonic() > deadline:
                raise RuntimeError("Chromium did not start (no DevToolsActivePort in 30 s)")
            await asyncio.sleep(0.05)
        async with aiohttp.ClientSession() as session:
            target = await first_page_target(session, port, deadline)
            async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = page_class(ws)
                pump = asyncio.create_task(page.pump())
                try:
                    yield page
                finally:
                    pump.cancel()
    finally:
        await stop_chromium(chromium)


class WatchedPage(DevToolsPage):
    """A page that keeps what a test must find empty: every error the browser logs (console
    errors, uncaught exceptions, failed loads), and every URL the page requested. Enable the
    domains Runtime, Log and Network to hear them."""

    def __init__(self, websocket):
        super().__init__(websocket)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.failed: list[str] = []

    def on_event(self, method: str, params: dict):
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append("exception: " + details.get("exception", {}).get(
                "description", details.get("text", "?")))
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            self.errors.append("console: " + " ".join(
                str(a.get("value", a.get("description"))) for a in params["args"]))
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            self.errors.append("log: " + params["entry"]["text"])
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Network.responseReceived" and params["response"]["status"] >= 400:
            self.failed.append(f"{params['response']['status']} {params['response']['url']}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            self.failed.append(f"{params.get('errorText', 'failed')} (request "
                               f"{params.get('requestId')})")

    async def watch(self):
        for domain in ("Runtime", "Page", "Log", "Network"):
            await self.call(f"{domain}.enable")

    async def wait_for(self, expression: str, timeout: float = 30.0, what: str = ""):
        """Polls a JavaScript expression until it is truthy; returns its value. RuntimeError
        after `timeout` seconds, naming `what` (or the expression)."""
        deadline = time.monotonic() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what or expression}: not so after {timeout:.0f} s")
            await asyncio.sleep(0.05)

    async def run(self, expression: str, timeout: float = 120.0):
        """Awaits a JavaScript expression's promise: (its value, None), or (None, the text of
        the error it was rejected with)."""
        result = await self.call("Runtime.evaluate", answer_within=timeout + 5,
                                 expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            return None, details.get("exception", {}).get("description", details.get("text"))
        return result["result"].get("value"), None
