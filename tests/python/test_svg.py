"""divercite.svg: valid XML, the 41 cells, one element per piece, the last move, the arrow."""

import xml.etree.ElementTree as ET

import pytest

import divercite
from divercite import svg
from reference_data import reference_games

NS = "{http://www.w3.org/2000/svg}"
GAME = reference_games()[0]["moves"]


def elements(picture, name):
    root = ET.fromstring(picture)  # valid XML, or ParseError
    return [e for e in root.iter() if name in e.get("class", "").split()]


@pytest.mark.parametrize("ply", [0, 1, 2, 17, 40])
def test_cells_and_pieces(ply):
    position = divercite.Position.from_moves(GAME[:ply])
    picture = svg.board(position)
    cells = elements(picture, "cell")
    assert len(cells) == 41
    assert len([c for c in cells if "city" in c.get("class")]) == 16
    pieces = elements(picture, "piece")
    assert len(pieces) == ply
    for piece, (cell, name) in zip(pieces, sorted(position.board().items())):
        colour, kind, owner = name
        assert set(piece.get("class").split()) == \
            {"piece", "city" if kind == "C" else "resource", owner, colour}
    assert len(elements(picture, "last-move")) == (1 if ply else 0)
    if ply:
        assert elements(picture, "last-move")[0].get("data-move") == GAME[ply - 1]


def test_last_move_and_arrow():
    position = divercite.Position.from_moves(GAME[:5])
    assert not elements(svg.board(position, last_move=False), "last-move")
    marked = elements(svg.board(divercite.Position(position.fen()), last_move=GAME[2]),
                      "last-move")
    assert [m.get("data-move") for m in marked] == [GAME[2]]
    assert not elements(svg.board(divercite.Position(position.fen())), "last-move")
    move = position.legal_moves()[7]
    [arrow] = elements(svg.board(position, arrow=move), "arrow")
    assert arrow.get("data-move") == move
    assert arrow.find(f"{NS}line") is not None
    for bad in ("RC15", "XX11", 3):
        with pytest.raises(ValueError):
            svg.board(position, arrow=bad)


def test_size_and_jupyter():
    position = divercite.Position.from_moves(GAME[:3])
    root = ET.fromstring(svg.board(position, size=250))
    assert root.tag == f"{NS}svg" and root.get("width") == "250"
    assert ET.fromstring(svg.board(position, size=None)).get("width") is None
    assert position._repr_svg_() == svg.board(position)
    # What IPython shows: the picture itself, and its text is still the SVG.
    picture = svg.board(position)
    assert isinstance(picture, str) and picture._repr_svg_() == str(picture)
    assert type(position._repr_svg_()) is str


def test_cells_where_the_course_s_gui_draws_them():
    # main.js: centre (300, 300), (row 0, col 4) up and right, (4, 0) up and left.
    assert svg.cell_centre(4, 4) == pytest.approx((300, 300))
    x, y = svg.cell_centre(0, 4)
    assert x > 300 and y < 300 and x - 300 == pytest.approx(300 - y)
    x, y = svg.cell_centre(4, 0)
    assert x < 300 and y < 300


def test_skeleton_holds_the_cells_and_the_pieces_templates():
    picture = svg.skeleton()
    assert len(elements(picture, "cell")) == 41
    assert not elements(picture, "piece") and not elements(picture, "arrow")
    root = ET.fromstring(picture)
    looks = [e.get("data-piece") for e in root.iter() if e.get("data-piece")]
    assert len(looks) == 16 and len(set(looks)) == 16
    # A piece of svg.board is its look's template placed on its cell.
    position = divercite.Position.from_moves(GAME[:1])
    [piece] = elements(svg.board(position), "piece")
    [template] = [e for e in root.iter() if e.get("data-piece") == piece.get("class")[6:]]
    assert [ET.tostring(c) for c in piece] == [ET.tostring(c) for c in template]
    assert ET.fromstring(svg.skeleton(size=300)).get("width") == "300"
