#!/usr/bin/python3
"""A human's game against our course player in the course's own web GUI, timed in Chromium.

Runs `main_divercite.py -t human_vs_computer tools/seahorse/divercite_player.py` (the
course's master, its default 900-s clock), opens the course's page (GUI/index.html, in
place) in headless Chromium, and plays the human's side by clicking as a person does: a
piece of the human's, then a cell of the board. For each move it reports the time from the
click to the page drawing the board with the human's move, and to the page drawing the
engine's reply (the page logs `play` as it draws each board it receives: the times are the
browser log's timestamps of those messages against the click's). The last board is saved as a PNG.

    /usr/bin/python3 bench/gui_human_pace.py [--moves 3] [--pace auto|human|clock]
                                             [--screenshot gui.png] [--budget SECONDS]

With --budget it exits 1 if a move's board (the human's or the engine's) was drawn later
than that after the click (ctest seahorse_gui_human_pace: 2 moves, 3.5 s).

--pace sets DIVERCITE_PACE (auto, the default: the player sees the human and answers at a
human's pace; clock: the full clock, as before the human pace, 42-45 s a move at first).

The page runs in Debian's chromium, driven by Selenium, as tests/browser/course_gui.py opens
it: no network but localhost, its two CDN scripts answered by a local HTTPS server from local
files (Debian's jQuery, and the socket.io client of tests/browser/gui_page/, `npm ci --prefix
tests/browser/gui_page`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The course's page in headless Chromium: the tests' helper, tests/browser/course_gui.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "browser"))
from course_gui import (COURSE, PAGE, REPO, Page, cell_centre, free_port,  # noqa: E402
                        listening, missing, open_page, piece_centre)
from course_master import interrupt  # noqa: E402  (tests/, which course_gui puts on the path)

PLAYER = REPO / "tools" / "seahorse" / "divercite_player.py"

sys.path[:0] = [str(COURSE / "divercite"), str(COURSE / "seahorse")]
from game_state_divercite import GameStateDivercite  # noqa: E402  (the course's rules)
from player_divercite import PlayerDivercite  # noqa: E402


def play(port: int, moves: int, screenshot: Path):
    with open_page() as page:
        return play_on(page, port, moves, screenshot)


def play_on(page: Page, port: int, moves: int, screenshot: Path):
    # The page connects to the port in its port box (16001) when loaded: as a person would
    # type it, this game's port.
    page.driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": (
        "document.addEventListener('DOMContentLoaded', () => "
        f"{{ document.getElementById('port').value = '{port}'; }});")})
    deadline = time.monotonic() + 30
    while not listening(port):
        if time.monotonic() > deadline:
            raise TimeoutError("the master does not listen after 30 s")
        time.sleep(0.1)
    page.open(PAGE.as_uri(), "document.getElementById('status').textContent.trim() === "
              "'Connected'", 30)
    page.next_board(60)  # the start
    timings = []
    for _ in range(moves):
        time.sleep(0.5)  # a human's look at the board
        board = json.loads(page.evaluate("JSON.stringify(json)"))  # the last board (main.js)
        human = PlayerDivercite.from_json(json.dumps(board["next_player"]))
        state = GameStateDivercite.from_json(json.dumps(board), next_player=human)
        action = sorted(state.generate_possible_light_actions(),
                        key=lambda a: (a.data["piece"], a.data["position"]))[0]
        kinds = list(board["players_pieces_left"][str(human.get_id())])
        page.click_in("player1", *piece_centre(kinds.index(action.data["piece"])))
        clicked = page.click_in("board", *cell_centre(*action.data["position"]))
        shown = page.next_board(900)
        answered = page.next_board(900)
        timings.append(((shown - clicked) / 1000, (answered - clicked) / 1000))
        print(f"move {len(timings)} ({action.data['piece']} at {action.data['position']}): "
              f"click -> the human's move drawn {timings[-1][0]:.2f} s, the engine's reply "
              f"drawn {timings[-1][1]:.2f} s", flush=True)
    page.screenshot(screenshot)
    return timings


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--pace", default="auto", choices=["auto", "human", "clock"])
    parser.add_argument("--screenshot", type=Path, default=Path("gui_human_pace.png"))
    parser.add_argument("--budget", type=float, help="seconds from a click to both boards")
    args = parser.parse_args()
    lacking = missing()
    if lacking:
        sys.exit(f"gui_human_pace: {lacking}")
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
            timings = play(port, args.moves, args.screenshot)
        except TimeoutError as error:
            sys.exit(f"gui_human_pace: {error or 'timed out'}")
        finally:
            interrupt(master)
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
