#!/usr/bin/python3
"""web/board.js draws the boards that C++ draws: Debian's Chromium, headless, driven by Selenium
(tests/browser/selenium_page.py, with tests/review_browser_test.py's error checks).

A page inlines web/board.js (an ES module) and mounts the C++ skeleton (BoardSkeletonSvg, from
tests/board_svg_print.cc); then, for every ply of reference game 0 and of 3 random games, with
the move played outlined and an arrow (from either side), board.show() must leave the elements
that C++ BoardSvg draws for that position: the same pieces (one element of class `piece` per
piece, its classes, its elements and their attributes), the last move's outline and the arrow,
every coordinate within 0.1 unit; and, rendered to a canvas, the same pixels for a few of them.
Then: parsePosition's cells and its errors, a bad show() leaving the board as it was, the
`legal` and `selected` classes, the board turned by setFlipped, and onCellClick on empty and
occupied cells, turned or not. No error may be logged. A screenshot stays in --out.

    board_js_browser_test.py --print build/bin/board_svg_print --out DIR
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from review_browser_test import FAILURES, PASSED, READY, REFERENCE, check  # noqa: E402
from selenium_page import Page, chromium, open_page  # noqa: E402  (review_browser_test's path)

REPO = Path(__file__).resolve().parents[1]
SVG = "{http://www.w3.org/2000/svg}"
PLACED = ("piece", "last-move", "arrow")  # the classes of what board.js places
NUMBERS = re.compile(r"-?\d+(?:\.\d+)?")
TOLERANCE = 0.1

# Every element that board.js placed, as {tag, attrs, children}, in document order.
READ = """(() => {
  const read = (e) => ({tag: e.localName,
                        attrs: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])),
                        children: [...e.children].map(read)});
  return [...document.querySelectorAll('#board .piece, #board .last-move, #board .arrow')]
      .map(read);
})()"""

# Draws `cases` one after the other and reads each board back.
SHOW_ALL = """((cases) => cases.map((c) => {
  board.show(c.position, {lastMove: c.last_move,
                          arrows: [{move: c.arrow, mover: c.mover, kind: 'best'}]});
  return %s;
}))(%s)"""

# The C++ picture and board.js's, each rendered to a 600 x 600 canvas: how many pixels differ.
PIXELS = """(async (cpp) => {
  const pixels = async (text) => {
    const image = new Image();
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(text);
    image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 600;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, 600, 600);
    return context.getImageData(0, 0, 600, 600).data;
  };
  const a = pixels(cpp);
  const b = pixels(new XMLSerializer().serializeToString(board.svg));
  let differ = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) ++differ;
  }
  return differ;
})(%s)"""


def element_tree(element: ET.Element) -> dict:
    return {"tag": element.tag.removeprefix(SVG), "attrs": dict(element.attrib),
            "children": [element_tree(child) for child in element]}


def cpp_placed(svg: str) -> list[dict]:
    """The pieces, last move and arrow of a BoardSvg picture, as READ reads board.js's."""
    root = ET.fromstring(svg)
    return [element_tree(e) for e in root.iter()
            if set(e.get("class", "").split()) & set(PLACED)]


def differences(cpp: dict, js: dict, where: str) -> list[str]:
    """How board.js's element differs from C++'s: classes (board.js adds the arrow's kind),
    attributes, numbers within TOLERANCE, children."""
    found = []
    if cpp["tag"] != js["tag"]:
        return [f"{where}: <{js['tag']}> for <{cpp['tag']}>"]
    a, b = dict(cpp["attrs"]), dict(js["attrs"])
    if "class" in a or "class" in b:
        classes = set(a.pop("class", "").split()), set(b.pop("class", "").split())
        if classes[0] != classes[1] - {"best", "alt"}:
            found.append(f"{where}: class {sorted(classes[1])} for {sorted(classes[0])}")
    if set(a) != set(b):
        found.append(f"{where}: attributes {sorted(b)} for {sorted(a)}")
    for name in set(a) & set(b):
        x, y = NUMBERS.findall(a[name]), NUMBERS.findall(b[name])
        same_text = NUMBERS.sub("#", a[name]) == NUMBERS.sub("#", b[name])
        if a[name] != b[name] and not (
                name in ("transform", "x1", "y1", "x2", "y2", "points") and same_text and
                len(x) == len(y) and all(abs(float(p) - float(q)) <= TOLERANCE + 1e-9
                                         for p, q in zip(x, y))):
            found.append(f"{where}: {name}={b[name]!r} for {a[name]!r}")
    if len(cpp["children"]) != len(js["children"]):
        found.append(f"{where}: {len(js['children'])} children for {len(cpp['children'])}")
    for k, (c, j) in enumerate(zip(cpp["children"], js["children"])):
        found += differences(c, j, f"{where} > {c['tag']}[{k}]")
    return found


def piece_count(position: str) -> int:
    return sum(ch.isalpha() for ch in position.split()[0])


def check_boards(page: Page, boards: list[dict], name: str):
    shown = page.evaluate(SHOW_ALL % (READ, json.dumps(boards)))
    bad = []
    for board, js in zip(boards, shown):
        cpp = cpp_placed(board["svg"])
        where = f"{board['position']} (last {board['last_move']}, arrow {board['arrow']})"
        pieces = sum("piece" in e["attrs"].get("class", "").split() for e in js)
        if pieces != piece_count(board["position"]):
            bad.append(f"{where}: {pieces} pieces")
        if len(cpp) != len(js):
            bad.append(f"{where}: {len(js)} elements placed for {len(cpp)}")
        for k, (c, j) in enumerate(zip(cpp, js)):
            bad += differences(c, j, f"{where} #{k} {c['attrs'].get('class')}")
    check(len(shown) == len(boards) and not bad,
          f"{name}: {len(boards)} boards drawn as BoardSvg draws them" +
          "".join(f"\n      {b}" for b in bad[:10]))


def check_pixels(page: Page, boards: list[dict], name: str):
    for board in boards:
        page.evaluate(SHOW_ALL % ("0", json.dumps([board])))
        differ, error = page.run(PIXELS % json.dumps(board["svg"]))
        differ = error if error else differ
        check(differ == 0, f"{name} {board['position']}: rendered, {differ} pixels differ "
                           "from BoardSvg's")


PARSE_ERRORS = ["", "1/3/5/7/9/7/5/3/1", "1/3/5/7/9/7/5/3 w", "1/4/5/7/9/7/5/3/1 w",
                "1/2/5/7/9/7/5/3/1 w", "1/3/5/7/9/7/5/3/1 x", "1/3/5/7/9/7/5/3/X w",
                "R/3/5/7/9/7/5/3/1 w", "1/3/5/7/9/7/5/3/1 w extra"]


def check_api(page: Page, game: list[str], out: Path):
    cells = page.evaluate("DiverciteBoard.parsePosition('1/3/5/7/9/6B/5/3/1 b')")
    check(cells == {"cells": {"57": {"colour": "B", "owner": "first", "kind": "resource"}},
                    "side": "second"}, f"parsePosition: one piece ({cells})")
    cells = page.evaluate("DiverciteBoard.parsePosition('1/3/5/7/3g5/7/5/3/1 b').cells")
    check(cells == {"43": {"colour": "G", "owner": "second", "kind": "city"}},
          f"parsePosition: a second player's city ({cells})")
    errors = page.evaluate(f"""{json.dumps(PARSE_ERRORS)}.map((text) => {{
        try {{ DiverciteBoard.parsePosition(text); return null; }}
        catch (e) {{ return e instanceof Error ? e.message : 'not an Error'; }} }})""")
    check(all(e and e.startswith("position string") for e in errors),
          "parsePosition: an Error naming the problem for each bad string" +
          "".join(f"\n      {t!r}: {e}" for t, e in zip(PARSE_ERRORS, errors)))

    # A bad argument leaves the board as it was.
    position = page.evaluate("board.show('1/3/5/7/9/7/5/3/1 w').show("
                             "'1/3/5/7/9/6B/5/3/1 b', {lastMove: 'BR57'}).position")
    kept = page.evaluate("""['1/3/5/7/9/7/5/3/1 x', null].map((text) => {
        try { board.show(text || '1/3/5/7/9/7/5/3/1 w', {lastMove: text ? null : 'XX99'}); }
        catch (e) { return [board.position,
                            document.querySelectorAll('#board .piece, #board .last-move').length]; }
        return null; })""")
    check(kept == [[position, 2], [position, 2]], f"show: a bad string or move changes nothing "
                                                  f"({kept})")

    # Legal and selected cells; an alternative's arrow.
    marked = page.evaluate("""(board.show('1/3/5/7/9/7/5/3/1 w',
          {legal: ['RC14', '23'], selected: 'RC14',
           arrows: [{move: 'GR13', mover: 'second', kind: 'alt'}]}),
        [[...document.querySelectorAll('#board .cell.legal')].map((c) => c.dataset.cell),
         [...document.querySelectorAll('#board .cell.selected')].map((c) => c.dataset.cell),
         document.querySelector('#board .arrow').getAttribute('class')])""")
    check(marked == [["14", "23"], ["14"], "arrow alt"], f"show: legal, selected, kind ({marked})")

    # Turned, clicked: a cell at its place on the screen, empty or under a piece.
    page.evaluate(f"board.show({json.dumps(game['positions'][12])}, "
                  f"{{lastMove: {json.dumps(game['moves'][11])}}}); "
                  "window.clicked = []; board.onCellClick = (cell) => clicked.push(cell)")
    occupied = game["moves"][11][2:]
    for flipped in (False, True):
        state = page.evaluate(f"""(board.setFlipped({json.dumps(flipped)}), (() => {{
            const box = (e) => {{ const r = e.getBoundingClientRect();
                                  return [r.left + r.width / 2, r.top + r.height / 2]; }};
            const svg = box(board.svg);
            const cell = (id) => box(document.querySelector(`#board .cell[data-cell="${{id}}"]`));
            const taken = DiverciteBoard.parsePosition(board.position).cells;
            const empty = [...board.cells.keys()].find((id) => !taken[id]);
            return {{transform: board.view.getAttribute('transform'), centre: svg,
                     empty_cell: empty, empty: cell(empty), occupied: cell('{occupied}'),
                     top: cell('04')}};
        }})())""")
        top, centre = state["top"], state["centre"]
        turned = top[1] > centre[1] if flipped else top[1] < centre[1]
        check(state["transform"] == ("rotate(180 300 300)" if flipped else None) and turned,
              f"setFlipped({flipped}): {state['transform']}, cell 04 at {top} "
              f"(centre {centre})")
        page.evaluate("clicked.length = 0")
        for at in ("empty", "occupied"):
            page.click_at(*state[at])
        clicked = page.evaluate("clicked")
        check(clicked == [state["empty_cell"], occupied],
              f"onCellClick (flipped {flipped}): an empty cell, a piece's cell: {clicked}")
    page.evaluate("board.setFlipped(false)")
    page.screenshot(out / "board_js.png")


def page_html(skeleton: str) -> str:
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>board.js against BoardSvg</title>
<style>body {{ margin: 0; }} #board {{ width: 600px; height: 600px; }}</style></head>
<body><div id="board"></div>
<script type="module">{(REPO / 'web' / 'board.js').read_text()}
window.DiverciteBoard = DiverciteBoard;
window.board = DiverciteBoard.mount(document.getElementById('board'), {json.dumps(skeleton)});
document.body.dataset.ready = 'true';</script>
</body></html>
"""


def run(page: Page, url: str, boards: list[dict], game: dict, out: Path):
    page.set_viewport(700, 700)
    page.open(url, READY)
    size = page.evaluate("[board.svg.getAttribute('width'), "
                         "document.getElementById('board').querySelectorAll('svg').length,"
                         "Math.round(board.svg.getBoundingClientRect().width)]")
    check(size == [None, 1, 600], f"mount: one SVG sized by its container ({size})")
    reference = [b for b in boards if b["game"] == "reference"]
    check_boards(page, reference, "reference game 0")
    check_boards(page, [b for b in boards if b["game"] != "reference"], "3 random games")
    check_pixels(page, [reference[0], reference[17], reference[40], boards[-1]], "pixels:")
    check_api(page, game, out)
    errors = page.errors()
    check(not errors, "no error logged by the browser" + "".join(f"\n      {e}" for e in errors))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--print", required=True, type=Path, help="board_svg_print")
    parser.add_argument("--out", required=True, type=Path, help="the page and its screenshot")
    args = parser.parse_args()
    if not chromium():
        sys.exit("board_js_browser_test: no chromium or chromedriver: apt-get install chromium "
                 "chromium-driver python3-selenium (scripts/install-deps.sh tests)")
    out = args.out.resolve()
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    moves = json.loads((REFERENCE / "games.jsonl").open().readline())["moves"]
    skeleton = subprocess.run([args.print, "skeleton"], capture_output=True, text=True,
                              check=True).stdout
    lines = [f"moves {' '.join(moves)}", "random 1", "random 2", "random 3"]
    printed = subprocess.run([args.print, "boards"], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, check=True).stdout
    boards = [json.loads(line) for line in printed.splitlines()]
    for k, board in enumerate(boards):
        board["game"] = "reference" if k <= len(moves) else "random"
    game = {"moves": moves, "positions": [b["position"] for b in boards[:len(moves) + 1]]}
    (out / "board.html").write_text(page_html(skeleton))
    with open_page() as page:
        run(page, (out / "board.html").as_uri(), boards, game, out)
    print(f"screenshot: {out / 'board_js.png'}")
    print(f"{len(PASSED)} passed, {len(FAILURES)} failed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
