"""What a new player meets in the app (tests/web/app_browser_test.py runs these on both
hosts): the how-to on a first visit only; at a phone's 390 px the board's top stays on screen
through 10 moves and a load (the page never scrolls by itself); with MultiPV 3 every line's
arrow has its numbered end visible (elementFromPoint finds it), the best on top, three arrows
onto one cell too; a side chosen applies at once; play on from ply 20 of a loaded game
against the engine, legal to the end; a link with a bad third move loads the first two and
keeps the address; lowercase links, and a fragment changed without a reload, load; copying
the link and the position is confirmed; a review page's ply opens the app there."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from review_browser_test import check
from selenium_page import Page

STATE = "divercite.state()"
PIECES = "document.querySelectorAll('#board .piece').length"
BOARD_TOP = "document.getElementById('board').getBoundingClientRect().top"
# Each numbered arrow end of `#board` (or another board's holder): its rank, and the rank of
# the arrow end elementFromPoint finds at its centre (null: something else is on top); and
# the ranks in the order drawn, the arrows' lines first.
HEADS = """(holder => {
  const heads = [...holder.querySelectorAll('.arrow-head')];
  return {
    seen: heads.map(h => { const r = h.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return [h.dataset.rank, top && top.closest('.arrow-head')?.dataset.rank]; }),
    lines: [...holder.querySelectorAll('.arrow')].map(a => a.dataset.move),
    order: heads.map(h => h.dataset.rank) }; })(HOLDER)"""
# Three arrows onto one cell (as three lines' RC41, BC41, GC41), on a board mounted from the
# page's own board picture.
SHARED_CELL = """(async () => {
  const { DiverciteBoard } = await import('./board.js');
  const holder = document.createElement('div');
  holder.id = 'probe-board';
  holder.style.cssText = 'position:fixed;left:0;top:0;width:360px;height:360px;z-index:9';
  document.body.append(holder);
  const picture = document.querySelector('#board svg').cloneNode(true);
  for (const placed of picture.querySelectorAll('.piece, .arrow, .arrow-head, .last-move')) {
    placed.remove();
  }
  for (const element of picture.querySelectorAll('[id]')) element.removeAttribute('id');
  DiverciteBoard.mount(holder, picture.outerHTML).show('1/3/5/7/9/7/5/3/1 w', { arrows: [
    { move: 'BC41', kind: 'best', rank: 1 }, { move: 'RC41', kind: 'alt', rank: 2 },
    { move: 'GC41', kind: 'alt', rank: 3 }] });
  return 1; })()"""


def wait_for(page: Page, expression: str, timeout: float, what: str):
    """page.wait_for, whose failure says what the page said (its message and status line)."""
    try:
        return page.wait_for(expression, timeout, what)
    except RuntimeError as error:
        said = page.evaluate("['message', 'status'].map(id => "
                             "document.getElementById(id).textContent).join(' / ')")
        raise RuntimeError(f"{error}; the page says '{said}'") from None


def choose(page: Page, select: str, value: str):
    """A choice in one of the page's select boxes, as a person makes it."""
    page.evaluate(f"(s => {{ s.value = {json.dumps(value)}; "
                  f"s.dispatchEvent(new Event('change')); }})"
                  f"(document.getElementById({json.dumps(select)}))")


def level_index(page: Page, name: str) -> str:
    return str(page.evaluate("[...document.getElementById('level').options]"
                             f".findIndex(o => o.textContent === {json.dumps(name)})"))


def first_visit(page: Page, name: str, open_app, url: str):
    """The how-to open on the first visit, folded on the next."""
    first = page.evaluate("document.getElementById('how-to').open")
    open_app(page, f"{url}index.html")
    again = page.evaluate("document.getElementById('how-to').open")
    board = page.evaluate("document.querySelectorAll('#how-to-board .piece').length")
    check(first is True and again is False and board == 5,
          f"{name}: the how-to open on a first visit ({first}), folded after ({again}), "
          f"its picture's {board} pieces")


def phone_moves(page: Page, name: str, Position, reference: list[str], ui_move, out: Path):
    """At 390 px: the board scrolled to the top of the screen stays there through 10 moves
    by hand against the engine and a loaded game; every control at least 44 px tall."""
    page.set_viewport(390, 844, scale=2, mobile=True)
    time.sleep(0.3)
    choose(page, "level", level_index(page, "Engine, 10 ms a move"))
    choose(page, "side", "first")
    page.click("#new-game")
    wait_for(page, f"{STATE}.ply === 0 && document.querySelector("
             "'.supply-piece.owner-first:not(:disabled)')", 10, f"{name}: a new game")
    page.evaluate(f"window.scrollTo(0, window.scrollY + {BOARD_TOP})")
    tops = []
    for turn in range(10):
        state = wait_for(page, f"(s => s.ply === {2 * turn} && s)({STATE})", 30,
                         f"{name}: our move {turn + 1} at 390 px")
        move = Position.from_moves(state["moves"]).legal_moves()[turn * 7]
        ui_move(page, "first", move)
        wait_for(page, f"{STATE}.ply > {2 * turn}", 10, f"{name}: {move} played")
        tops.append(round(page.evaluate(BOARD_TOP)))
    wait_for(page, f"{STATE}.ply === 20", 30, f"{name}: the engine's 10th move")
    tops.append(round(page.evaluate(BOARD_TOP)))
    page.screenshot(out / f"app_phone_game_{name.replace(' ', '_')}.png")  # a game under way
    page.run(f"divercite.load({{moves: {json.dumps(reference)}}})")
    tops.append(round(page.evaluate(BOARD_TOP)))
    small = page.evaluate("""[...document.querySelectorAll(
        '.supply-piece, #nav button, #controls button, #controls select, #move-input')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 44)
        .map(e => e.id || e.className)""")
    check(all(abs(top) <= 1 for top in tops) and not small,
          f"{name}: at 390 px the board's top stays at the screen's top through 10 moves and "
          f"a load ({sorted(set(tops))} px); controls under 44 px: {small[:4]}")
    page.clear_viewport()
    page.evaluate("window.scrollTo(0, 0)")


def arrows(page: Page, name: str, reference: list[str], out: Path):
    """Live analysis with MultiPV 3 (at 1250 px and at 390 px): each line's numbered arrow end
    is what the page shows at its centre, the best's drawn last; then three arrows onto one
    cell."""
    page.run(f"divercite.load({{moves: {json.dumps(reference[:24])}}})")
    page.click("#analyse")
    board_heads = HEADS.replace("HOLDER", "document.getElementById('board')")
    for width in (1250, 390):
        if width == 390:
            page.set_viewport(390, 844, scale=2, mobile=True)
        page.evaluate(f"window.scrollTo(0, window.scrollY + {BOARD_TOP})")
        shown = wait_for(page, f"(a => a.seen.length === 3 && a)({board_heads})", 30,
                         f"{name}: 3 arrows of the live analysis at {width} px")
        check(all(rank == top for rank, top in shown["seen"]) and shown["order"][-1] == "1",
              f"{name}, {width} px: every line's arrow end visible ({shown['seen']}), the best "
              f"drawn last ({shown['order']})")
        if width == 1250:
            page.screenshot(out / f"app_arrows_{name.replace(' ', '_')}.png")
    page.clear_viewport()
    page.click("#analyse")
    page.evaluate("window.scrollTo(0, 0)")
    page.run(SHARED_CELL)
    shared = page.evaluate(HEADS.replace("HOLDER", "document.getElementById('probe-board')"))
    page.evaluate("document.getElementById('probe-board').remove()")
    check(sorted(shared["seen"]) == [["1", "1"], ["2", "2"], ["3", "3"]] and
          shared["order"] == ["3", "2", "1"],
          f"{name}: three arrows onto cell 41, each end visible ({shared['seen']}), drawn "
          f"{shared['order']}")


def side_at_once(page: Page, name: str):
    """A new game as first, then "second" chosen: the engine plays first at once."""
    choose(page, "level", level_index(page, "Engine, 10 ms a move"))
    choose(page, "side", "first")
    page.click("#new-game")
    wait_for(page, f"{STATE}.ply === 0", 10, f"{name}: a new game")
    time.sleep(0.3)
    before = page.evaluate(f"{STATE}.ply")
    choose(page, "side", "second")
    state = wait_for(page, f"(s => s.ply === 1 && s)({STATE})", 30,
                     f"{name}: the engine's move once it plays first")
    check(before == 0 and state["ply"] == 1,
          f"{name}: 'second' chosen mid-game: the engine moved at once ({state['moves']})")


def play_from_here(page: Page, name: str, Position, reference: list[str]):
    """Reference game 0 loaded, shown at ply 20: played on from there as second against the
    engine (10 ms a move), every move legal to the end."""
    page.run(f"divercite.load({{moves: {json.dumps(reference)}}})")
    page.click('#moves li[data-ply="20"]')
    wait_for(page, f"{STATE}.ply === 20", 5, f"{name}: ply 20 shown")
    choose(page, "side", "second")
    choose(page, "level", level_index(page, "Engine, 10 ms a move"))
    check(page.evaluate(f"{STATE}.moves.length") == 40,
          f"{name}: choosing a side while looking at ply 20 drops no move")
    page.click("#play-here")
    for ply in range(21, 41, 2):
        state = wait_for(page, f"(s => s.ply === {ply} && s)({STATE})", 30,
                         f"{name}: the engine's move {ply} after ply 20")
        move = Position.from_moves(state["moves"]).legal_moves()[0]
        _, error = page.run(f"divercite.play({json.dumps(move)})")
        check(error is None, f"{name}: our move {move} at ply {ply} ({error})")
    state = wait_for(page, f"(s => s.result !== '*' && s)({STATE})", 30, f"{name}: the end")
    final = Position.from_moves(state["moves"])  # raises on an illegal move
    check(state["moves"][:20] == reference[:20] and len(state["moves"]) == 40 and
          state["result"] == final.result() and state["scores"] == list(final.scores),
          f"{name}: played on from ply 20 of a loaded game to the end, {state['result']} "
          f"{state['scores']}")


def links(page: Page, name: str, open_app, url: str, reference: list[str]):
    """A link with a bad third move, a lowercase link, a fragment changed in place."""
    bad = [*reference[:2], reference[0], *reference[3:5]]  # move 3 on an occupied cell
    address = f"{url}index.html#moves={','.join(bad)}"
    open_app(page, address)
    state = page.evaluate(STATE)
    message = page.evaluate("document.getElementById('message').textContent")
    check(state["moves"] == reference[:2] and page.evaluate("location.href") == address and
          "move 3 of 5" in message and message.count(reference[0]) == 1,
          f"{name}: a link with a bad third move: {state['moves']} loaded, the address kept, "
          f"'{message}'")
    lower = ",".join(move.lower() for move in reference[:6])
    open_app(page, f"{url}index.html#moves={lower}")
    state = page.evaluate(STATE)
    check(state["moves"] == reference[:6], f"{name}: a lowercase link loads {state['moves']}")
    page.evaluate(f"location.hash = '#moves={','.join(reference[:8])}'")
    state = wait_for(page, f"(s => s.moves.length === 8 && s)({STATE})", 10,
                     f"{name}: a fragment changed in place")
    check(state["moves"] == reference[:8], f"{name}: the fragment changed without a reload "
                                           f"loads its game ({len(state['moves'])} moves)")
    for button, what in (("#copy-link", "Link"), ("#copy-position", "Position")):
        page.click(button)
        # The confirmation of this copy, not the last one's (which stays a few seconds).
        said = wait_for(page, f"(t => t.startsWith('{what}') && t)"
                        "(document.getElementById('copied').textContent)", 5,
                        f"{name}: {button}'s confirmation")
        check(said.startswith(what), f"{name}: {button} confirmed: '{said}'")


def review_link(page: Page, name: str, open_app, url: str, analyze: Path,
                reference: list[str], out: Path):
    """A review page written with --app (divercite-analyze) links its ply 20 to the app,
    which opens the game there: 20 moves, shown at their end."""
    review = out / "review_with_app.html"
    subprocess.run([analyze, f"--moves={' '.join(reference)}", "--depth=1", "--solve-plies=4",
                    "--prove-plies=0", f"--html={review}", f"--app={url}index.html"],
                   check=True, capture_output=True)
    page.open(f"{review.as_uri()}#ply=20", "document.body.dataset.ready === 'true'")
    link = page.evaluate("document.getElementById('play-in-app')?.href")
    open_app(page, link)
    state = page.evaluate(STATE)
    check(link == f"{url}index.html#moves={','.join(reference[:20])}" and
          state["moves"] == reference[:20],
          f"{name}: the review page's ply 20 opens the app there ({len(state['moves'])} moves)")
