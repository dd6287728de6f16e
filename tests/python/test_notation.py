"""divercite.notation, the pure-Python notation, against the compiled rules: the same cells,
start, position strings of every position of the reference games, and the same reasons for a
badly written move."""

import pytest

import divercite
from divercite import notation
from reference_data import reference_games


def test_the_constants_are_the_rules():
    assert notation.START_FEN == divercite._core.START_FEN == divercite.Position().fen()
    assert notation.PLIES == 40 and len(notation.CELLS) == 41
    assert divercite.PLIES is notation.PLIES and divercite.CELLS is notation.CELLS
    assert {notation.move_cell(move) for move in divercite.Position().legal_moves()} == \
        set(notation.CELLS)
    assert sorted({move[0] for move in divercite.Position().legal_moves()}) == \
        sorted(notation.COLOURS)
    assert sorted({move[1] for move in divercite.Position().legal_moves()}) == \
        sorted(notation.KINDS)


def test_position_strings_read_and_write_as_the_rules_do():
    checked = 0
    for game in reference_games():
        position = divercite.Position()
        for move in game["moves"]:
            position.play(move)
            fen = position.fen()
            board = notation.parse_position_string(*fen.split())
            assert notation.position_string(board) == fen
            owners = {cell: "WB".index(piece[2]) for cell, piece in position.board().items()}
            assert board == {cell: (position.board()[cell][0], owners[cell]) for cell in owners}
            checked += 1
    assert checked >= 5 * notation.PLIES


@pytest.mark.parametrize("move", ["RC1", "rr04", "XC14", "RX14", "RC9a", "RC1415"])
def test_a_badly_written_move_has_the_rules_reason(move):
    problem = notation.move_format_problem(move)
    assert problem is not None
    with pytest.raises(ValueError) as caught:
        divercite.Position().play(move)
    assert problem in str(caught.value)


@pytest.mark.parametrize("text", ["1/3/5/7/9/7/5/3 w", "1/3/5/7/9/7/5/3/1 x",
                                  "1/3/5/7/9/7/5/3/2 w", "X/3/5/7/9/7/5/3/1 b",
                                  "r/3/5/7/9/7/5/3/1 w", "R/3/5/7/9/7/5/3/1 w"])
def test_a_bad_position_string_is_refused_by_both(text):
    with pytest.raises(ValueError, match="position string"):
        notation.parse_position_string(*text.split())
    with pytest.raises(ValueError):
        divercite.Position(text)
