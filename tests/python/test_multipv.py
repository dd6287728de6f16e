"""divercite.engine's analyse(multipv=N) and searchmoves against our engine: N distinct legal
lines, best first; near the end each line's score is its own move's exact value."""

import pytest

import divercite
from divercite.engine import Engine, EngineError
from reference_data import build_binary

# 10 plies from the end (27 moves, none symmetric): line values 300, 200 and 100.
NEAR_END = divercite.Position("B/bG1/yy1B1/1by1rBy/2YY1rg1b/G1RYBrB/1RYyb/gR1/1 w")
for _move in ("GR44", "BC47"):
    NEAR_END.play(_move)
MIDDLE = divercite.Position.from_moves(["RC14", "RR04", "GC23"])


@pytest.fixture(scope="module")
def engine():
    with Engine.popen(build_binary("divercite"), {"Hash": 16}) as engine:
        yield engine


def test_engine_lists_multipv(engine):
    option = engine.options["MultiPV"]
    assert (option.type, option.default, option.min, option.max) == ("spin", "1", 1, 164)


def test_three_lines_best_first(engine):
    # Each search from an empty table: the table keeps one value for a position and its
    # symmetric images, which the network's evaluation tells apart by a few centipoints.
    engine.new_game()
    lines = engine.analyse(MIDDLE, depth=4, multipv=3)
    assert isinstance(lines, list) and len(lines) == 3
    moves = [line.move for line in lines]
    assert len(set(moves)) == 3 and set(moves) <= set(MIDDLE.legal_moves())
    scores = [line.score for line in lines]
    assert scores == sorted(scores, reverse=True)
    for rank, line in enumerate(lines, 1):
        assert line.multipv == rank and line.depth == 4
        assert line.pv[0] == line.move and line.bound == "exact"
        assert line.exact is False and line.proven is None
    # Back to one line: a SearchResult again, line 1's move.
    engine.new_game()
    assert engine.analyse(MIDDLE, depth=4).move == moves[0]


def test_each_line_near_the_end_is_its_moves_exact_value(engine):
    lines = engine.analyse(NEAR_END, depth=40, multipv=6)
    assert len(lines) == 6
    for line in lines:
        assert line.exact is True and line.bound == "exact" and line.depth == 10
        child = NEAR_END.copy()
        child.play(line.move)
        assert line.score == -engine.analyse(child, depth=40).score, line.move
    # Every move ranked: more lines asked for than there are moves.
    every = engine.analyse(NEAR_END, depth=40, multipv=164)
    assert len(every) == 27 == len({line.move for line in every})
    assert [line.score for line in every[:6]] == [line.score for line in lines]
    assert {line.score for line in every} == {300, 200, 100}


def test_proven_lines_are_bounds(engine):
    lines = engine.analyse(NEAR_END, movetime=5000, prove=True, multipv=3)
    assert len(lines) == 3
    for line in lines:
        assert line.proven == "win" and line.bound == "lower" and line.score >= 100
        child = NEAR_END.copy()
        child.play(line.move)
        assert line.score <= -engine.analyse(child, depth=40).score, line.move


def test_searchmoves(engine):
    assert engine.play(MIDDLE, depth=3, searchmoves=["YR84"]).move == "YR84"
    lines = engine.analyse(MIDDLE, depth=3, multipv=3, searchmoves=["YR84", "GR13", "BC36"])
    assert sorted(line.move for line in lines) == ["BC36", "GR13", "YR84"]
    with pytest.raises(EngineError, match="searchmoves: illegal move RC14"):
        engine.play(MIDDLE, depth=3, searchmoves=["GR13", "RC14"])
    with pytest.raises(ValueError, match="a non-empty list of moves"):
        engine.play(MIDDLE, depth=3, searchmoves=[])
    # The engine goes on after a refused go.
    assert engine.play(MIDDLE, depth=2).move in MIDDLE.legal_moves()


def test_multipv_refused_values(engine):
    with pytest.raises(ValueError, match="MultiPV: 0 is out of range"):
        engine.analyse(MIDDLE, depth=2, multipv=0)
    with pytest.raises(ValueError, match="MultiPV: 165 is out of range"):
        engine.configure({"MultiPV": 165})
    assert engine.analyse(MIDDLE, depth=2).move in MIDDLE.legal_moves()
