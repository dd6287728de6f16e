"""What the browser test checks of a page at a phone's width (390 x 844, mobile), logged in or
out: laid out at the screen's width and no wider (`document.documentElement.scrollWidth <=
390`: no sideways scroll of the page), every table scrolled inside its own box, no clickable
target (a, button, input, select, summary, as shown) under 44 px tall, and what a page holds
within the screen: the board (a game's page, its review page), the Elo plot, a reason wrapped
in the screen's width; the whole page's screenshot written."""

from __future__ import annotations

from pathlib import Path

PHONE = (390, 844)
TOUCH_PX = 44

# Every clickable element shown (a hidden input, a template's content are not), with its
# height: [what it is, height].
TARGETS = """Array.from(document.querySelectorAll('a, button, input, select, summary'))
  .filter(e => e.type !== 'hidden' && e.getClientRects().length)
  .map(e => [e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' "' +
             (e.textContent || e.name || e.type || '').trim().slice(0, 30) + '"',
             e.getBoundingClientRect().height])"""

# Each table: [its class, its box's overflow-x, the box's left and right].
TABLES = """Array.from(document.querySelectorAll('table')).map(t => {
  const box = t.parentElement; const r = box.getBoundingClientRect();
  return [t.className || t.id, getComputedStyle(box).overflowX, r.left, r.right,
          box.scrollWidth > box.clientWidth]; })"""


def within(rect, width: int) -> bool:
    return rect is not None and rect[0] >= 0 and rect[1] <= width + 0.5


def rect_of(page, selector: str):
    """[left, right, width, height] of the first `selector`, or None."""
    return page.evaluate(f"(e => e && (r => [r.left, r.right, r.width, r.height])"
                         f"(e.getBoundingClientRect()))(document.querySelector({selector!r}))")


def check_phone_page(page, check, name: str, out: Path) -> list:
    """Checks the page loaded now, `name` in the report and in its screenshot's name (phone-
    NAME.png in `out`); its tables' rows [class, overflow, left, right, scrolls]."""
    width, _ = PHONE
    inner = page.evaluate("window.innerWidth")
    check(inner == width, f"phone: {name} is laid out {inner} px wide (the viewport's {width})")
    wide = page.evaluate("document.documentElement.scrollWidth")
    check(wide <= width, f"phone: {name} is {wide} px wide, within {width}: no sideways scroll")
    targets = page.evaluate(TARGETS) or []
    small = [(what, round(height, 1)) for what, height in targets if height < TOUCH_PX]
    check(targets and not small,
          f"phone: {name}'s {len(targets)} links, buttons and fields are {TOUCH_PX} px tall or "
          f"more{f': not {small[:6]}' if small else ''}")
    tables = page.evaluate(TABLES) or []
    for kind, overflow, left, right, _ in tables:
        check(overflow in ("auto", "scroll") and left >= 0 and right <= width + 0.5,
              f"phone: {name}'s table {kind.split()[0] if kind else '?'} scrolls inside its "
              f"box ({overflow}, {left:.0f}…{right:.0f} px)")
    for selector, what in (("#board svg", "board"), ("svg.elo-plot", "Elo plot")):
        shown = rect_of(page, selector)
        if shown is not None:
            check(within(shown, width) and shown[2] >= 0.8 * (width - 32),
                  f"phone: {name}'s {what} fits the screen ({shown[0]:.0f}…{shown[1]:.0f} px)")
    page.evaluate("window.scrollTo(0, 0)")
    page.whole_page_shot(out / f"phone-{name}.png")
    return tables
