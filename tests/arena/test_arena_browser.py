#!/usr/bin/python3
"""The arena's pages in a real browser (issue 43): Debian's Chromium, headless, over the
DevTools protocol (tests/browser/chromium_devtools.py), against a real `divercite-arena serve`.

Checks: the standings page lists the house opponents and sorts by a clicked heading; a team
logs in with its token and uploads its agent through the form, lands on its page where the
version's status appears (checking, then ready once its check game is played); a game's page
replays the game with the keys (Home, the arrows, End: the board's pieces, the ply and the
current move follow); at a phone's width (390 px) no page is wider than the screen and the
board fits; every request stays on the arena's own address; the browser logged no error.
Screenshots in --out.

    test_arena_browser.py --out DIR
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
from pathlib import Path

from arena_process import Server, add_teams, init, poll
from arena_support import COURSE, REPO

sys.path.insert(0, str(REPO / "tests" / "browser"))
from chromium_devtools import WatchedPage, open_page  # noqa: E402

HOUSE = ("random", "greedy", "skypiea_v5", "engine-0.1s", "engine-1s", "engine-10s")
KEYS = {"Home": 36, "End": 35, "ArrowLeft": 37, "ArrowRight": 39}
FAILURES: list[str] = []


def check(condition, what: str):
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        FAILURES.append(what)


async def go(page: WatchedPage, url: str):
    await page.call("Page.navigate", url=url)
    await page.wait_for(f"location.href === {url!r} && document.readyState === 'complete'",
                        what=f"{url} loaded")


async def press(page: WatchedPage, key: str):
    for kind in ("keyDown", "keyUp"):
        await page.call("Input.dispatchKeyEvent", type=kind, key=key, code=key,
                        windowsVirtualKeyCode=KEYS[key])


async def standings(page: WatchedPage, server: Server, out: Path):
    await go(page, server.address)
    teams = await page.evaluate(
        "Array.from(document.querySelectorAll('table.standings tbody tr td:nth-child(2) a'))"
        ".map(a => a.textContent)")
    check(set(HOUSE) <= set(teams or []), f"the standings list the house opponents: {teams}")
    elo_column = "Array.from(document.querySelectorAll('table.standings tbody tr'))" \
                 ".map(r => parseFloat(r.cells[2].textContent)).filter(x => !isNaN(x))"
    for order in ("descending", "ascending"):
        await page.evaluate("document.querySelectorAll('table.standings th')[2].click()")
        values = await page.evaluate(elo_column)
        expected = sorted(values, reverse=order == "descending")
        check(values == expected and len(values) >= 2,
              f"a click on Elo sorts the table, {order}: {values}")
    await page.screenshot(out / "standings.png")


async def log_in_and_upload(page: WatchedPage, server: Server, token: str, agent: Path,
                            out: Path):
    await go(page, server.address + "login/")
    await page.evaluate(f"document.querySelector('input[name=username]').value = 'alpha';"
                        f"document.querySelector('input[name=password]').value = {token!r};"
                        "document.querySelector('form.login').submit()")
    await page.wait_for(f"location.href === {server.address!r}", what="logged in")
    check(await page.evaluate("document.body.textContent.includes('Log out alpha')"),
          "logged in with the team's token")
    await go(page, server.address + "upload/")
    document = await page.call("DOM.getDocument")
    node = await page.call("DOM.querySelector", nodeId=document["root"]["nodeId"],
                           selector="input[type=file]")
    await page.call("DOM.setFileInputFiles", files=[str(agent)], nodeId=node["nodeId"])
    await page.evaluate("document.querySelector('form.upload').submit()")
    team_page = server.address + "teams/alpha/"
    await page.wait_for(f"location.href === {team_page!r} && document.readyState === 'complete'",
                        what="the team's page after the upload")
    first = await page.evaluate("document.querySelector('tr.version .status')?.textContent")
    check(first in ("checking", "ready"), f"the version's status appears: {first}")
    check(await page.evaluate("document.querySelector('.message.success')?.textContent"
                              ".includes('Version 1 received')"), "the upload is confirmed")
    await page.screenshot(out / "uploaded.png")

    async def status():
        await go(page, team_page)
        return await page.evaluate("document.querySelector('tr.version .status').textContent")
    deadline = asyncio.get_running_loop().time() + 120
    while (now := await status()) == "checking" and \
            asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(1)
    check(now == "ready", f"the version is ready after its check game: {now}")


async def replay(page: WatchedPage, server: Server, out: Path) -> str:
    games = server.json("/api/games?team=alpha")["games"] + server.json("/api/games")["games"]
    game = next(g for g in games if g["result"] is not None)
    url = f"{server.address}games/{game['id']}/"
    await go(page, url)
    moves = await page.wait_for("document.querySelectorAll('#moves button.move').length",
                                what="the move list")
    pieces = "document.querySelectorAll('#board .piece').length"

    async def at(what):
        return await page.evaluate(f"[{pieces}, document.getElementById('ply').textContent, "
                                   "document.querySelector('button.move.current')?.textContent"
                                   " ?? null]")
    check((await at("end"))[0] == moves, f"the game's page shows its last board ({moves} pieces)")
    await press(page, "Home")
    check(await at("start") == [0, f"0 / {moves}", None], "Home: the empty board")
    for _ in range(3):
        await press(page, "ArrowRight")
    third = await page.evaluate("document.querySelectorAll('button.move')[2].textContent")
    check(await at("third") == [3, f"3 / {moves}", third], f"→ three times: ply 3, {third}")
    await press(page, "ArrowLeft")
    check((await at("second"))[:2] == [2, f"2 / {moves}"], "←: ply 2")
    await press(page, "End")
    check((await at("end"))[:2] == [moves, f"{moves} / {moves}"], "End: the last board")
    await page.screenshot(out / "game.png")
    return url


async def phone(page: WatchedPage, server: Server, game_url: str, out: Path):
    await page.call("Emulation.setDeviceMetricsOverride", width=390, height=844,
                    deviceScaleFactor=2, mobile=True)
    for name, url in (("standings", server.address), ("team", server.address + "teams/alpha/"),
                      ("game", game_url)):
        await go(page, url)
        width = await page.evaluate("document.documentElement.scrollWidth")
        check(width <= 391, f"phone: the {name} page is {width} px wide, within 390")
        if name == "game":
            board = await page.evaluate(
                "document.querySelector('#board svg').getBoundingClientRect().right")
            check(0 < board <= 390, f"phone: the board fits ({board:.0f} px)")
            tap = await page.evaluate(
                "document.querySelector('.controls button').getBoundingClientRect().height")
            check(tap >= 44, f"phone: the replay's buttons are {tap:.0f} px tall")
        await page.screenshot(out / f"phone-{name}.png")
    await page.call("Emulation.clearDeviceMetricsOverride")


async def session(server: Server, token: str, agent: Path, out: Path, profile: Path):
    async with open_page(profile, WatchedPage) as page:
        await page.watch()
        await standings(page, server, out)
        await log_in_and_upload(page, server, token, agent, out)
        game_url = await replay(page, server, out)
        await phone(page, server, game_url, out)
        origin = server.address.rstrip("/")
        outside = [url for url in page.requests
                   if not url.startswith((origin + "/", "data:", "blob:"))]
        check(not outside, f"every request to the arena itself: {outside[:5]}")
        check(not page.errors, f"no error in the browser: {page.errors[:5]}")
        check(not page.failed, f"no failed load: {page.failed[:5]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="screenshots")
    arguments = parser.parse_args()
    arguments.out.mkdir(parents=True, exist_ok=True)
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
        # Some games of the house opponents first: the table has ratings to sort.
        poll(lambda: sum(g["result"] is not None for g in server.json("/api/games")["games"])
             >= 3, 180, "three games played")
        asyncio.run(session(server, token, agent, arguments.out, temp / "profile"))
        check(server.stop() == 0, "the arena stops cleanly on SIGTERM")
    except Exception as error:  # noqa: BLE001 - reported as a failure with the arena's output
        check(False, f"{type(error).__name__}: {error}")
        if server is not None:
            print(server.output(), file=sys.stderr)
    finally:
        if server is not None and server.process.poll() is None:
            server.kill()
        shutil.rmtree(temp, ignore_errors=True)
    print(f"{'FAILED' if FAILURES else 'passed'}: screenshots in {arguments.out}")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
