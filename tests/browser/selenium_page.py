"""Debian's Chromium, headless, driven by Selenium (Debian's python3-selenium) through Debian's
chromedriver: a page as a person uses it, and what the browser logged on the way.

    with open_page() as page:                      # a Page; Chromium ends on the way out
        page.open("file:///.../game-0.html", ready="document.body.dataset.ready")
        page.click("#next")
        assert not page.errors()

What the tests must find empty comes from the browser's own logs, which chromedriver keeps
(goog:loggingPrefs): `errors()` every console error, uncaught exception and failed load, as
Chromium words them; `requests()` every URL the page asked for (the DevTools events of the
performance log); `console()` every entry of the browser's log, with its time.
"""

from __future__ import annotations

import json
import shutil
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]

# The keys a page's navigation listens to, by the name its keydown handler reads.
KEYS = {"ArrowLeft": Keys.ARROW_LEFT, "ArrowRight": Keys.ARROW_RIGHT, "Home": Keys.HOME,
        "End": Keys.END}


class Page:
    """One Chromium window: what the page says, a person's clicks and keys, what it logged."""

    def __init__(self, driver: webdriver.Chrome):
        self.driver = driver
        self.logged: list[dict] = []
        self.errors_from = 0  # the first entry of `logged` that errors() reads
        self.logged_requests: list[str] = []

    def evaluate(self, expression: str):
        """The value of JavaScript in the page (statements too: the last one's value), read in
        the page's global scope as its console reads it."""
        return self.driver.execute_script("return (0, eval)(arguments[0]);", expression)

    def run(self, expression: str, timeout: float = 120.0):
        """Awaits a JavaScript expression's promise: (its value, None), or (None, the text of
        the error it was rejected with)."""
        self.driver.set_script_timeout(timeout)
        outcome = self.driver.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "Promise.resolve().then(() => (0, eval)(arguments[0]))"
            ".then((value) => done([value, null]),"
            " (error) => done([null, String(error && error.stack || error)]));", expression)
        return outcome[0], outcome[1]

    def wait_for(self, expression: str, timeout: float = 30.0, what: str = ""):
        """Polls a JavaScript expression until it is truthy; returns its value. RuntimeError
        after `timeout` seconds, naming `what` (or the expression)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.evaluate(expression)
            except WebDriverException:  # asked while the page navigates
                value = None
            if value:
                return value
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what or expression}: not so after {timeout:.0f} s")
            time.sleep(0.05)

    def open(self, url: str, ready: str = "true", timeout: float = 20.0):
        """Loads `url` afresh (not a same-document jump, even to another #fragment of the page
        shown) and waits until the page has loaded and `ready` (JavaScript) is truthy."""
        if self.driver.current_url.split("#")[0] == url.split("#")[0]:
            self.driver.get("about:blank")  # else only the fragment would change
        self.driver.get(url)
        self.wait_for(f"document.readyState === 'complete' && ({ready})", timeout,
                      f"{url}: ready")

    def click(self, selector: str):
        """A person's click at the middle of the first element `selector` finds."""
        element = self.driver.find_element(By.CSS_SELECTOR, selector)
        ActionChains(self.driver).move_to_element(element).click().perform()

    def click_at(self, x: float, y: float):
        """A person's click at (x, y) of the page's viewport (CSS pixels)."""
        actions = ActionBuilder(self.driver)
        actions.pointer_action.move_to_location(round(x), round(y)).click()
        actions.perform()

    def choose_file(self, selector: str, path: Path):
        """The file input's file, as a person picks it in the file chooser."""
        self.driver.find_element(By.CSS_SELECTOR, selector).send_keys(str(path))

    def key(self, name: str):
        """A key pressed and released on the page (`name` as KeyboardEvent.key says it)."""
        ActionChains(self.driver).send_keys(KEYS[name]).perform()

    def set_viewport(self, width: int, height: int, scale: float = 1, mobile: bool = False):
        """The page's size in CSS pixels and its pixel ratio, as a screen of that size has."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile})

    def clear_viewport(self):
        """The window's own size and pixel ratio again."""
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})

    def screenshot(self, path: Path):
        Path(path).write_bytes(self.driver.get_screenshot_as_png())

    def console(self) -> list[dict]:
        """Every entry of the browser's log so far (console messages, uncaught exceptions,
        failed loads), as chromedriver gives them: level, message, timestamp (ms since the
        epoch)."""
        self.logged.extend(self.driver.get_log("browser"))
        return self.logged

    def errors(self) -> list[str]:
        """Every error the browser has logged: console errors, uncaught exceptions, failed
        loads (a resource the page asked for and did not get)."""
        return [entry["message"] for entry in self.console()[self.errors_from:]
                if entry["level"] == "SEVERE"]

    def clear_errors(self):
        """The errors logged so far are no longer errors() (a probe's, say)."""
        self.errors_from = len(self.console())

    def requests(self) -> list[str]:
        """Every URL the page has asked for."""
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                self.logged_requests.append(message["params"]["request"]["url"])
        return self.logged_requests


def chromium() -> Optional[str]:
    """Debian's Chromium, if installed (with its chromedriver)."""
    found = shutil.which("chromium")
    return found if found and shutil.which("chromedriver") else None


@contextmanager
def open_page(window=(1300, 1000), page_class=Page, flags=()) -> Iterator[Page]:
    """Starts Chromium (a fresh profile of chromedriver's, `flags` added to its own) at
    `window` size and yields its page, a `page_class`; on the way out Chromium and
    chromedriver are ended."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "chromium"
    for flag in [*CHROMIUM_FLAGS, f"--window-size={window[0]},{window[1]}", *flags]:
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(
        service=Service(shutil.which("chromedriver") or "chromedriver"), options=options)
    try:
        yield page_class(driver)
    finally:
        driver.quit()
