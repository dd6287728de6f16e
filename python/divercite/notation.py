"""The notation of cells, moves and position strings, in pure Python (no rules, no compiled code).

A cell is `(row, col)` on the 9x9 grid's diamond |row-4| + |col-4| <= 4: the 41 `CELLS`. A
move is `<colour><kind><row><col>` (`GR04`: a green resource on cell (0,4)), whoever plays
it. A position string is `<rows> <side>`: the diamond's nine rows from row 0, `/`-separated,
each from its lowest column, an upper-case colour letter for a first player's piece, lower
case for the second player's, a digit for that many empty cells; then `w` or `b`, the side to
move. `START_FEN` is the empty board.

>>> from divercite import notation
>>> len(notation.CELLS), notation.PLIES, notation.START_FEN
(41, 40, '1/3/5/7/9/7/5/3/1 w')
>>> notation.move_format_problem("rr04")
"unknown colour 'r' (expected R, G, B or Y)"
>>> board = notation.parse_position_string("r/1R1/5/7/9/7/5/3/1", "w")
>>> board
{(0, 4): ('R', 1), (1, 4): ('R', 0)}
>>> notation.position_string(board)
'r/1R1/5/7/9/7/5/3/1 w'

Whether a move is legal is the rules' business (`divercite.Position`, compiled; or the
course's own code, `divercite.course.bridge.rules`): this module reads and writes text only,
so that the course's player and the bridge run on any Python the course runs on.
"""

from typing import Dict, List, Optional, Tuple

Cell = Tuple[int, int]
# {cell: (colour, owner)}, owner 0 for the first player, 1 for the second.
Board = Dict[Cell, Tuple[str, int]]

GRID = 9
# Each row's cells from its lowest column up: the order of position strings.
ROW_CELLS: List[List[Cell]] = [[(i, j) for j in range(GRID) if abs(i - 4) + abs(j - 4) <= 4]
                               for i in range(GRID)]
CELLS: List[Cell] = [cell for row in ROW_CELLS for cell in row]
COLOURS = "RGBY"
KINDS = "CR"  # city, resource
KIND_NAMES = {"C": "city", "R": "resource"}
SIDES = "wb"  # the first player's and the second's, as position strings name them
PLAYER_NAMES = ("first", "second")
PLIES = len(CELLS) - 1  # a game fills every cell but one: 20 moves a player
START_FEN = "1/3/5/7/9/7/5/3/1 w"


def move_format_problem(text: str) -> Optional[str]:
    """Why `text` is not written like a move (None if it is), in the engine's words."""
    if len(text) != 4:
        return "must be 4 characters <colour><kind><row><col>, like GR04"
    colour, kind, row, column = text
    if colour not in COLOURS:
        return f"unknown colour '{colour}' (expected R, G, B or Y)"
    if kind not in KINDS:
        return f"unknown kind '{kind}' (expected C for city or R for resource)"
    if not ("0" <= row <= "8" and "0" <= column <= "8"):
        return "row and column must be digits 0-8"
    return None


def move_cell(text: str) -> Cell:
    """The (row, col) of a well-formed move."""
    return int(text[2]), int(text[3])


def move_text(piece: str, cell: Cell) -> str:
    """The move of `piece` (`<colour><kind>`, as the course names a piece without its owner)
    on `cell`."""
    return f"{piece[:2]}{cell[0]}{cell[1]}"


def side_to_move(board: Board) -> int:
    """0 for the first player, 1 for the second: the players alternate from an empty board."""
    return len(board) % 2


def parse_position_string(rows_text: str, side_text: str) -> Board:
    """The board of `<rows> <side>`; raises ValueError with the reason.

    Only the text is checked here, and that the players' piece counts can come from
    alternating moves; the rules check the rest (the cells' kinds, each player's supply)."""
    rows = rows_text.split("/")
    if len(rows) != GRID:
        raise ValueError(f"position string: {len(rows)} rows separated by '/', expected {GRID}")
    board: Board = {}
    for i, row in enumerate(rows):
        width = len(ROW_CELLS[i])
        filled = 0
        for k, ch in enumerate(row):
            if filled >= width:
                raise ValueError(f"position string: row {i} '{row}' describes more than its "
                                 f"{width} cells")
            if "1" <= ch <= "9":
                filled += int(ch)
                continue
            if ch.upper() not in COLOURS:
                raise ValueError(f"position string: row {i}, character {k + 1}: unknown "
                                 f"character '{ch}' (expected RGBY, rgby or a digit 1-9)")
            board[ROW_CELLS[i][filled]] = (ch.upper(), 0 if ch.isupper() else 1)
            filled += 1
        if filled != width:
            raise ValueError(f"position string: row {i} '{row}' describes {filled} cells, "
                             f"expected {width}")
    if side_text not in SIDES:
        raise ValueError(f"position string: side to move '{side_text}' must be 'w' or 'b'")
    counts = [sum(1 for _, owner in board.values() if owner == p) for p in (0, 1)]
    if counts[0] != counts[1] and counts[0] != counts[1] + 1:
        raise ValueError(f"position string: the first player has {counts[0]} pieces and the "
                         f"second {counts[1]}: alternating moves give the first player as many "
                         "as the second, or one more")
    expected = SIDES[side_to_move(board)]
    if side_text != expected:
        raise ValueError(f"position string: side to move is '{side_text}' but with "
                         f"{len(board)} pieces on the board it must be '{expected}'")
    return board


def position_string(board: Board) -> str:
    """`<rows> <side>` of the board."""
    rows = []
    for row_cells in ROW_CELLS:
        text, empty = "", 0
        for cell in row_cells:
            if cell not in board:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            colour, owner = board[cell]
            text += colour if owner == 0 else colour.lower()
        rows.append(text + (str(empty) if empty else ""))
    return "/".join(rows) + " " + SIDES[side_to_move(board)]
