"""divercite._core's standings and cross tables (tools/common/standings_table.h, the one writer
of the match report's, the ladder's and the arena's): valid markup, the arena's classes and
headings, every text escaped, the column groups, and errors that name the row and the field."""

from html.parser import HTMLParser

import pytest

from divercite import _core

HOSTILE = "<script>alert(\"x\")</script>'"


class Cells(HTMLParser):
    """The text of each th and td, by row; and whether any <script> was opened."""

    def __init__(self, text):
        super().__init__()
        self.rows, self.cell, self.script = [], None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.script |= tag == "script"
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def line(**fields):
    return {"name": "alpha", "elo": 1500.4, "elo_low": 1420.5, "elo_high": 1580.3, "games": 4,
            "wins": 2, "draws": 1, "losses": 1, "points": 2.5, **fields}


def test_the_arenas_markup():
    html = _core.standings_table_html(
        [line(link="/teams/alpha/", row_class="team"),
         line(name="greedy", mark="house", row_class="house", elo=None, elo_low=None,
              elo_high=None, games=0, wins=0, draws=0, losses=0, points=0)],
        ("win_ratio", "divercites"))
    assert html.startswith('<div class="scroll">\n<table class="standings sortable">\n<thead>')
    assert '<th data-sort="text">Team</th>' in html
    assert '<tr class="team"><td>1</td><td><a href="/teams/alpha/">alpha</a></td>' in html
    assert '<tr class="house"><td>2</td><td>greedy <span class="house-mark">house</span>' in html
    heading, first, second = Cells(html).rows
    assert heading == ["#", "Team", "Elo", "95 %", "Games", "Wins", "Draws", "Losses", "W/L",
                       "Divercités", "Divercités a game", "Points scored", "Points conceded",
                       "Scored / conceded", "Scored a game", "Conceded a game"]
    assert first[:9] == ["1", "alpha", "1500", "1421 … 1580", "4", "2", "1", "1", "2.00"]
    assert first[9:] == ["0", "0.00", "0", "0", "–", "0.00", "0.00"]
    assert second[2:4] == ["–", "–"] and second[8:] == ["–", "0", "–", "0", "0", "–", "–", "–"]
    assert '<th data-sort="number" title="Wins per loss (∞ without a loss)">W/L</th>' in html


def test_ratio_text_as_the_table_shows_it():
    assert [_core.ratio_text(*pair) for pair in ((10, 3), (1, 8), (3, 0), (0, 0), (0, 2))] == [
        "3.33", "0.12", "∞", "–", "0.00"]


def test_hostile_text_is_escaped():
    html = _core.standings_table_html([line(name=HOSTILE, link=HOSTILE, mark=HOSTILE,
                                            row_class=HOSTILE)],
                                      table_id=HOSTILE, name_heading=HOSTILE, sortable=False)
    parsed = Cells(html)
    assert not parsed.script
    assert parsed.rows[0][1] == HOSTILE and parsed.rows[1][1] == f"{HOSTILE} {HOSTILE}"
    cell = {"text": HOSTILE, "note": HOSTILE, "link": HOSTILE}
    cross = _core.cross_table_html([HOSTILE, "b"], [[None, cell], [None, None]],
                                   name_heading=HOSTILE)
    parsed = Cells(cross)
    assert not parsed.script
    assert parsed.rows[1] == ["1", HOSTILE, "", HOSTILE + HOSTILE]
    page = _core.table_page_html(HOSTILE, "<p>body</p>")
    assert "<script>" not in page and "<p>body</p>" in page and "table.sortable" in page


def test_column_groups():
    rows = [line(version=3, divercites=2, points_for=60, points_against=40, ms_per_move=12.25,
                 time_losses=1)]
    assert len(Cells(_core.standings_table_html(rows)).rows[0]) == 8
    every = Cells(_core.standings_table_html(
        rows, ["version", "points", "win_ratio", "score", "divercites", "clock"],
        name_heading="Engine")).rows
    assert every[0][:4] == ["#", "Engine", "Version", "Points"]
    assert every[0][-3:] == ["Conceded a game", "ms/move", "Losses on time"]
    assert every[1][2:4] == ["3", "2.5"] and every[1][10:] == [
        "2.00", "62.5%", "2", "0.50", "60", "40", "1.50", "15.00", "10.00", "12.2", "1"]
    empty = _core.standings_table_html([], ["version"], empty="No entry.")
    assert '<td colspan="9">No entry.</td>' in empty


def test_cross_table():
    html = _core.cross_table_html(
        ["a", "b"], [[None, {"text": "1.5/2", "link": "pairs/a--b/index.html"}],
                     [{"text": "0.5/2", "note": "-190 ± 300"}, None]], table_id="cross-table")
    assert '<table class="cross" id="cross-table">' in html
    rows = Cells(html).rows
    assert rows[0] == ["#", "Team", "1", "2"]
    assert rows[1] == ["1", "a", "", "1.5/2"] and rows[2] == ["2", "b", "0.5/2-190 ± 300", ""]
    assert '<a href="pairs/a--b/index.html">1.5/2</a>' in html
    assert '<th title="b">2</th>' in html


@pytest.mark.parametrize("call, error, words", [
    (lambda: _core.standings_table_html([{"elo": 3}]), ValueError, "row 1: no 'name'"),
    (lambda: _core.standings_table_html([line(), line(wins=1.0)]), TypeError,
     "row 2: 'wins' must be an int, not float"),
    (lambda: _core.standings_table_html([line(nmae="x")]), ValueError, "row 1: no field 'nmae'"),
    (lambda: _core.standings_table_html([line(points_for_per_game=1.0)]), ValueError,
     "no field 'points_for_per_game'"),
    (lambda: _core.standings_table_html([line(elo="1500")]), TypeError, "'elo' must be a number"),
    (lambda: _core.standings_table_html(["alpha"]), TypeError, "row 1: 'row' must be a dict"),
    (lambda: _core.standings_table_html([], "points"), TypeError, "not one str"),
    (lambda: _core.standings_table_html([], ["elo"]), ValueError, "no column group 'elo'"),
    (lambda: _core.cross_table_html(["a", "b"], [[None, None]]), ValueError, "1 rows, not 2"),
    (lambda: _core.cross_table_html(["a"], [[{"txt": "1"}]]), ValueError, "no field 'txt'"),
])
def test_errors_name_the_row_and_field(call, error, words):
    with pytest.raises(error, match=words):
        call()
