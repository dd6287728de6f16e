"""divercite.Position against the course code's reference games and perft counts, and its
answers to bad input: a Python exception with the reason, the position unchanged."""

import copy
import os
import pickle
import re

import pytest

import divercite
from reference_data import REPO, reference_games, reference_perft


def walk(position, depth):
    """Perft walked in Python through legal_moves(), copy() and play()."""
    if depth == 0:
        return 1
    nodes = 0
    for move in position.legal_moves():
        child = position.copy()
        child.play(move)
        nodes += walk(child, depth - 1)
    return nodes


def walk_back(position, depth):
    """Perft walked in Python through legal_moves(), push() and pop()."""
    if depth == 0:
        return 1
    nodes = 0
    for move in position.legal_moves():
        position.push(move)
        nodes += walk_back(position, depth - 1)
        position.pop()
    return nodes


START = "1/3/5/7/9/7/5/3/1 w"
GAMES = reference_games()
PERFT = reference_perft()
RESULTS = {(1,): "1-0", (2,): "0-1", (1, 2): "1/2-1/2"}


def state(position):
    """Everything a position shows, to check that a failed call changed nothing."""
    return (position.fen(), position.scores, position.ply, position.side_to_move,
            position.pieces_left(), position.legal_moves(), position.result(), hash(position))


# -- the reference games and perft counts (the course code's own figures)

@pytest.mark.parametrize("game", GAMES, ids=[f"{g['kind']}-{g['seed']}" for g in GAMES])
def test_reference_game_scores_after_every_move(game):
    position = divercite.Position()
    for ply, (move, scores) in enumerate(zip(game["moves"], game["scores"]), start=1):
        assert move in position.legal_moves(), f"ply {ply}"
        position.play(move)
        assert position.scores == tuple(scores), f"ply {ply}: {move}"
        assert position.ply == ply
        # The board alone gives the scores (the tie-break included): a position string
        # read back is the same position.
        assert divercite.Position(position.fen()) == position
        assert divercite.Position(position.fen()).scores == position.scores
    assert position.is_over()
    assert position.scores == tuple(game["final"])
    assert position.result() == RESULTS[tuple(game["winners"])]
    assert position.legal_moves() == []
    assert all(n == 0 for side in position.pieces_left().values() for n in side.values())
    assert divercite.Position.from_moves(game["moves"]) == position


@pytest.mark.parametrize("entry", PERFT, ids=[p["name"] for p in PERFT])
def test_reference_perft(entry):
    position = divercite.Position.from_moves(entry["moves"])
    assert position.ply == entry["plies"]
    assert position.scores == tuple(entry["scores"])
    assert position.side_to_move == ("w" if entry["side_to_move"] == 1 else "b")
    for depth, count in entry["perft"].items():
        assert position.perft(int(depth)) == count, f"depth {depth}"


@pytest.mark.parametrize("entry", PERFT, ids=[p["name"] for p in PERFT])
def test_python_walk_agrees_with_perft(entry):
    position = divercite.Position.from_moves(entry["moves"])
    depth = 3 if position.ply >= 30 else 2
    assert walk(position, depth) == position.perft(depth) == entry["perft"][str(depth)]
    assert walk_back(position, depth) == position.perft(depth)


def test_perft_edges():
    assert divercite.Position().perft(0) == 1
    assert divercite.Position().perft(1) == 164
    finished = divercite.Position.from_moves(GAMES[0]["moves"])
    assert finished.perft(0) == 1
    assert finished.perft(1) == finished.perft(3) == 0
    with pytest.raises(ValueError, match="perft depth -1 is negative"):
        divercite.Position().perft(-1)
    position = divercite.Position.from_moves(["RC14"])
    before = state(position)
    assert position.perft(2) == walk(position, 2)
    assert state(position) == before


# -- the start and what a position shows

def test_start():
    position = divercite.Position()
    assert position.fen() == START == divercite.START_FEN
    assert position == divercite.Position(START) == divercite.Position.from_moves([])
    assert (position.ply, position.side_to_move, position.scores) == (0, "w", (0, 0))
    assert not position.is_over() and position.result() == "*"
    moves = position.legal_moves()
    assert len(moves) == len(set(moves)) == 164
    # The course code's order: red cities (rows, then columns), red resources, green...
    assert moves[:3] == ["RC14", "RC23", "RC25"] and moves[16] == "RR04"
    assert moves[-1] == "YR84"


def test_pieces_left():
    position = divercite.Position()
    full = {"RC": 2, "RR": 3, "GC": 2, "GR": 3, "BC": 2, "BR": 3, "YC": 2, "YR": 3}
    assert position.pieces_left() == {"w": full, "b": full}
    assert list(position.pieces_left()["w"]) == list(full)  # the course's order
    position.play("RC14")
    position.play("GR04")
    assert position.pieces_left() == {"w": dict(full, RC=1), "b": dict(full, GR=2)}


def test_scores_side_and_result_as_the_game_goes():
    position = divercite.Position()
    position.play("RC14")
    assert position.side_to_move == "b"
    position.play("RR04")  # the second player's red resource scores for the red city
    assert position.scores == (1, 0) and position.side_to_move == "w" and position.ply == 2


def test_repr_str():
    position = divercite.Position.from_moves(["RC14", "RR04"])
    assert repr(position) == "Position('r/1R1/5/7/9/7/5/3/1 w')"
    assert eval(repr(position), {"Position": divercite.Position}) == position
    picture = str(position)
    assert re.search(r"^  0 +r$", picture, re.M)
    assert re.search(r"^  1 +\.  \[R\]  \.$", picture, re.M)
    assert "ply 2/40, first player (w) to move" in picture


def test_version_is_the_projects():
    with open(os.path.join(REPO, "CMakeLists.txt")) as cmake:
        version = re.search(r"project\(divercite VERSION ([0-9.]+)", cmake.read()).group(1)
    assert divercite.__version__ == version


# -- illegal and malformed moves: ValueError (TypeError for a non-str), nothing changed

@pytest.mark.parametrize("moves, move, reason", [
    (["RC14"], "GC14", "illegal move GC14: cell (1,4) is occupied"),
    (["RC14", "GR04"], "YR04", "illegal move YR04: cell (0,4) is occupied"),
    (["RC14", "GR04", "RC23", "GR13"], "RC25", "the first player has no R city left"),
    (["RC14", "RR04", "GC23", "RR13", "GC25", "RR15"], "YC32", None),  # legal: the control
    (["RC14", "RR04", "GC23", "RR13", "GC25", "RR15", "YC32"], "RR22",
     "the second player has no R resource left"),
])
def test_illegal_move(moves, move, reason):
    position = divercite.Position.from_moves(moves)
    if reason is None:
        position.play(move)
        assert position.ply == len(moves) + 1
        return
    before = state(position)
    with pytest.raises(ValueError, match=re.escape(reason)):
        position.play(move)
    assert state(position) == before


@pytest.mark.parametrize("move, reason", [
    ("", "move '' must be 4 characters"),
    ("XX99", "move 'XX99': unknown colour 'X'"),
    ("RC1", "move 'RC1' must be 4 characters"),
    ("RC140", "move 'RC140' must be 4 characters"),
    ("RX14", "move 'RX14': unknown kind 'X'"),
    ("rc14", "move 'rc14': unknown colour 'r'"),
    ("RC19", "row and column must be digits 0-8"),
    ("RC00", "(0,0) is not a cell of the board"),
    ("RR14", "(1,4) is a city cell, not a resource cell"),
    ("RC04", "(0,4) is a resource cell, not a city cell"),
])
def test_malformed_move(move, reason):
    position = divercite.Position.from_moves(["BR44"])
    before = state(position)
    with pytest.raises(ValueError, match=re.escape(reason)):
        position.play(move)
    assert state(position) == before


@pytest.mark.parametrize("move", [None, 14, b"RC14", ["RC14"]])
def test_move_that_is_not_a_str(move):
    position = divercite.Position()
    with pytest.raises(TypeError, match="a move must be a str, not "):
        position.play(move)
    assert position == divercite.Position()


def test_move_after_the_end():
    position = divercite.Position.from_moves(GAMES[1]["moves"])
    before = state(position)
    with pytest.raises(ValueError, match="illegal move RC14: the game is over"):
        position.play("RC14")
    assert state(position) == before


# -- bad position strings: ValueError naming the problem

@pytest.mark.parametrize("fen, reason", [
    ("", "must have 2 fields"),
    ("1/3/5/7/9/7/5/3/1", "must have 2 fields, '<rows> <side>', not 1"),
    ("1/3/5/7/9/7/5/3/1 w extra", "not 3"),
    ("1/3/5/7/9/7/5/3 w", "8 rows separated by '/', expected 9"),
    ("1/3/5/7/9/7/5/3/1/1 w", "10 rows"),
    ("1/3/5/7/9/7/5/3/2 w", "row 8 '2' describes 2 cells, expected 1"),
    ("1/2/5/7/9/7/5/3/1 w", "row 1 '2' describes 2 cells, expected 3"),
    ("1/3/5/7/9/7/5/3/11 w", "row 8 '11' describes more than its 1 cells"),
    ("1/3/5/7/9/7/5/3/x w", "row 8, character 1: unknown character 'x'"),
    ("1/3/5/7/9/7/5/3/0 w", "unknown character '0'"),
    ("1/3/5/7/9/7/5/3/1 x", "side to move 'x' must be 'w' or 'b'"),
    ("1/3/5/7/9/7/5/3/1 b", "side to move is 'b' but with 0 pieces on the board it must be 'w'"),
    ("R/3/5/7/9/7/5/3/1 w", "with 1 pieces on the board it must be 'b'"),
    ("r/3/5/7/9/7/5/3/1 b", "the first player has 0 pieces and the second 1"),
    ("R/R1R/R4/7/9/7/5/3/1 b", "the first player has more than 3 R resources"),
    ("1/1R1/1R1R1/7/9/7/5/3/1 w", "the first player has more than 2 R cities"),
])
def test_bad_position_string(fen, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        divercite.Position(fen)


@pytest.mark.parametrize("fen", [14, b"1/3/5/7/9/7/5/3/1 w", ["1/3/5/7/9/7/5/3/1 w"]])
def test_position_string_that_is_not_a_str(fen):
    with pytest.raises(TypeError, match="a position string must be a str, not "):
        divercite.Position(fen)


def test_position_strings_read_back():
    for game in GAMES[:20]:
        for ply in (1, 7, 20, 39, 40):
            position = divercite.Position.from_moves(game["moves"][:ply])
            assert divercite.Position(position.fen()).fen() == position.fen()
    assert divercite.Position(fen=START) == divercite.Position(None) == divercite.Position()


# -- from_moves

@pytest.mark.parametrize("moves, reason", [
    (["RC14", "RC14"], "move 2 of 2: illegal move RC14: cell (1,4) is occupied"),
    (["RC14", "GR04", "XX99"], "move 3 of 3: move 'XX99': unknown colour 'X'"),
    (["RC1"], "move 1 of 1: move 'RC1' must be 4 characters"),
    (["RC14", "GR04", "RC23", "GR13", "RC25", "BR55"], "move 5 of 6: illegal move RC25: "
     "the first player has no R city left"),
    (GAMES[0]["moves"] + ["RC14"], "move 41 of 41: the game is over"),
])
def test_from_moves_errors(moves, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        divercite.Position.from_moves(moves)


def test_from_moves_takes_any_iterable_of_str():
    expected = divercite.Position.from_moves(["RC14", "GR04"])
    assert divercite.Position.from_moves(("RC14", "GR04")) == expected
    assert divercite.Position.from_moves(m for m in "RC14 GR04".split()) == expected
    with pytest.raises(TypeError, match="move 2 must be a str, not int"):
        divercite.Position.from_moves(["RC14", 4])
    with pytest.raises(TypeError, match=re.escape("not one string (split it")):
        divercite.Position.from_moves("RC14 GR04")
    with pytest.raises(TypeError):
        divercite.Position.from_moves(None)


# -- copies, equality, hashing, pickling

def test_copy_is_independent():
    position = divercite.Position.from_moves(["RC14", "RR04"])
    before = state(position)
    for twin in (position.copy(), copy.copy(position), copy.deepcopy(position)):
        assert twin == position and twin is not position
        twin.play("GC23")
        assert twin.ply == 3 and twin != position
        assert state(position) == before


def test_equality_and_hash():
    # The same pieces on the same cells reached in two orders: one position.
    one = divercite.Position.from_moves(["RC14", "RR04", "GC23", "GR13"])
    two = divercite.Position.from_moves(["GC23", "GR13", "RC14", "RR04"])
    other = divercite.Position.from_moves(["RC14", "RR04", "GC23", "YR13"])
    assert one == two and hash(one) == hash(two) and not one != two
    assert one != other and hash(one) != hash(other)
    assert len({one, two, other, divercite.Position()}) == 3
    assert one != one.fen() and not one == 3 and one != None  # noqa: E711


def test_pickle():
    finished = divercite.Position.from_moves(GAMES[-1]["moves"])  # a tie-break game
    assert GAMES[-1]["kind"] == "tie"
    for position in (divercite.Position(), divercite.Position.from_moves(["RC14"]), finished):
        back = pickle.loads(pickle.dumps(position))
        assert back == position and back.scores == position.scores
        assert back.result() == position.result()


# -- the board in the course's names, and the last move

def test_board_and_from_board_along_a_game():
    position = divercite.Position()
    for move in GAMES[3]["moves"]:
        position.play(move)
        board = position.board()
        assert board[(int(move[2]), int(move[3]))][:2] == move[:2]
        back = divercite.Position.from_board(board)
        assert back == position and back.scores == position.scores and back.last_move is None
    assert len(board) == 40


@pytest.mark.parametrize("board, message", [
    ({(0, 0): "RCW"}, "not a cell"), ({(1, 4): "RRW"}, "resource on a city cell"),
    ({(1, 4): "RCX"}, "like RCW"), ({(1, 4): "RCB"}, "alternating moves"),
    ({(1, 4): "RCW", (2, 3): "RCW", (3, 4): "RCW"}, "more than 2 R cities")])
def test_from_board_refuses_what_no_game_has(board, message):
    with pytest.raises(ValueError, match=message):
        divercite.Position.from_board(board)
    with pytest.raises(TypeError):
        divercite.Position.from_board([((1, 4), "RCW")])


def test_last_move():
    assert divercite.Position().last_move is None
    position = divercite.Position.from_moves(["RC14", "RR04"])
    assert position.last_move == "RR04" and position.copy().last_move == "RR04"
    assert pickle.loads(pickle.dumps(position)).last_move == "RR04"
    with pytest.raises(ValueError):
        position.play("RR04")
    assert position.last_move == "RR04"
    position.play("GC23")
    assert position.last_move == "GC23"
    assert divercite.Position(position.fen()).last_move is None
    assert divercite.Position(position.fen()) == position


def test_push_and_pop_walk_a_game_back_to_its_start():
    moves = GAMES[0]["moves"]
    position, states = divercite.Position(), []
    for move in moves:
        states.append(state(position))
        position.push(move)
        assert position.peek() == move == position.last_move
    assert position.move_stack == moves and position.is_over()
    for move, before in zip(reversed(moves), reversed(states)):
        assert position.pop() == move
        assert state(position) == before
    assert position.move_stack == [] and position.last_move is None
    with pytest.raises(IndexError, match="empty move stack"):
        position.pop()
    with pytest.raises(IndexError, match="empty move stack"):
        position.peek()


def test_a_push_pop_walk_leaves_the_stack_as_it_was():
    position = divercite.Position.from_moves(GAMES[1]["moves"][:30])
    before = state(position)
    assert walk_back(position, 3) == position.perft(3)
    assert position.move_stack == GAMES[1]["moves"][:30] and state(position) == before


def test_the_move_stack_is_copied_pickled_and_not_compared():
    position = divercite.Position.from_moves(GAMES[2]["moves"][:5])
    copy = position.copy()
    copy.pop()
    assert position.move_stack == GAMES[2]["moves"][:5] and len(copy.move_stack) == 4
    again = pickle.loads(pickle.dumps(position))
    assert again.move_stack == position.move_stack and again.last_move == position.last_move
    assert again.pop() == position.pop() and again == position
    read = divercite.Position(position.fen())
    assert read == position and read.move_stack == [] and read.last_move is None
    # A pickle of the former (position string, last move) form still reads.
    assert pickle.loads(pickle.dumps(read)) == read
    assert state(position) == state(copy)
