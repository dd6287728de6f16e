"""Debian's Chromium, headless, driven over the Chrome DevTools protocol (a websocket).

Shared by bench/course_gui.py (the course's GUI page: bench/gui_human_pace.py and
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
import shutil
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
        self.count = 0

    def listen(self, method: str) -> asyncio.Queue:
        """The queue of the params of every event `method` from now on."""
        return self.listeners.setdefault(method, asyncio.Queue())

    async def call(self, method: str, **params):
        self.count += 1
        answer = asyncio.get_running_loop().create_future()
        self.calls[self.count] = answer
        await self.websocket.send_json({"id": self.count, "method": method, "params": params})
        return await asyncio.wait_for(answer, 30)

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
                self.on_event(data["method"], params)

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


@contextlib.asynccontextmanager
async def open_page(profile: Path, page_class=DevToolsPage, window=(1300, 1000)):
    """Starts Chromium with a fresh profile in `profile`, and yields its first page as a
    `page_class`, its events pumped; Chromium is stopped on the way out."""
    chromium = subprocess.Popen(
        [shutil.which("chromium") or "chromium", *CHROMIUM_FLAGS,
         f"--window-size={window[0]},{window[1]}", f"--user-data-dir={profile}",
         "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        active = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not active.exists():
            if time.monotonic() > deadline or chromium.poll() is not None:
                raise RuntimeError("Chromium did not start (no DevToolsActivePort in 30 s)")
            await asyncio.sleep(0.1)
        port = active.read_text().split()[0]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"http://127.0.0.1:{port}/json/list") as answer:
                target = next(t for t in await answer.json() if t["type"] == "page")
            async with session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as ws:
                page = page_class(ws)
                pump = asyncio.create_task(page.pump())
                try:
                    yield page
                finally:
                    pump.cancel()
    finally:
        chromium.terminate()
        chromium.wait()
