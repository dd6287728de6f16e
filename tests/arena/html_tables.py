"""The tables of a page as the Django tests read them: each table's rows as the text of their
cells (th or td, spaces collapsed), with each row's class."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Dict, List, Tuple


class Tables(HTMLParser):
    """tables[the table's first class, or its id] = [(row class, [cell texts])], the heading
    row first."""

    def __init__(self, page: str):
        super().__init__()
        self.tables: Dict[str, List[Tuple[str, List[str]]]] = {}
        self.rows = None
        self.cell = None
        self.feed(page)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            kind = (attributes.get("class") or attributes.get("id") or "").split()
            self.rows = self.tables.setdefault(kind[0] if kind else "", [])
        elif tag == "tr" and self.rows is not None:
            self.rows.append((attributes.get("class") or "", []))
        elif tag in ("td", "th") and self.rows is not None:
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1][1].append(re.sub(r"\s+", " ", self.cell).strip())
            self.cell = None
        elif tag == "table":
            self.rows = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def body_rows(page: str, kind: str) -> List[Tuple[str, List[str]]]:
    """The rows of the table of class `kind` below its heading row."""
    return Tables(page).tables[kind][1:]
