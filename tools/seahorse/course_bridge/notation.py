"""The engine protocol's notation: moves and position strings (text only, no rules).

A move is `<colour><kind><row><col>` (`GR04`: a green resource on cell (0,4)). A position
string is `<rows> <side>`: the diamond's nine rows from row 0, `/`-separated, each from its
lowest column, an upper-case colour letter for a first player's piece, lower case for the
second player's, a digit for that many empty cells; then `w` or `b`, the side to move.
Whether a move is legal is the course's business (course.py); this module only reads and
writes text.
"""

GRID = 9
# The notation walks the board row by row over the cells |i-4| + |j-4| <= 4; course.py checks
# at start-up that these are exactly the course's cells.
ROW_CELLS = [[(i, j) for j in range(GRID) if abs(i - 4) + abs(j - 4) <= 4] for i in range(GRID)]
CELLS = [cell for row in ROW_CELLS for cell in row]
COLOURS = "RGBY"
KINDS = "CR"
PLAYER_NAMES = ("first", "second")


def move_format_problem(text):
    """Why `text` is not written like a move (None if it is), in the engine's words."""
    if len(text) != 4:
        return "a move is 4 characters <colour><kind><row><col>, like GR04"
    colour, kind, row, column = text
    if colour not in COLOURS:
        return f"unknown colour '{colour}' (expected R, G, B or Y)"
    if kind not in KINDS:
        return f"unknown kind '{kind}' (expected C for city or R for resource)"
    if not ("0" <= row <= "8" and "0" <= column <= "8"):
        return "row and column must be digits 0-8"
    return None


def move_cell(text):
    """The (row, col) of a well-formed move."""
    return int(text[2]), int(text[3])


def side_to_move(board):
    """0 for the first player, 1 for the second: the players alternate from an empty board."""
    return len(board) % 2


def parse_position_string(rows_text, side_text):
    """The board {cell: (colour, owner)} of `<rows> <side>`; raises ValueError with the reason.

    Only the text is checked here, and that the players' piece counts can come from
    alternating moves; the course's code checks the rest when the board is set up
    (course.Course.state)."""
    rows = rows_text.split("/")
    if len(rows) != GRID:
        raise ValueError(f"position string: {len(rows)} rows separated by '/', expected {GRID}")
    board = {}
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
    if side_text not in ("w", "b"):
        raise ValueError(f"position string: side to move '{side_text}' must be 'w' or 'b'")
    counts = [sum(1 for _, owner in board.values() if owner == p) for p in (0, 1)]
    if counts[0] != counts[1] and counts[0] != counts[1] + 1:
        raise ValueError(f"position string: the first player has {counts[0]} pieces and the "
                         f"second {counts[1]}: alternating moves give the first player as many "
                         "as the second, or one more")
    expected = "wb"[side_to_move(board)]
    if side_text != expected:
        raise ValueError(f"position string: side to move is '{side_text}' but with "
                         f"{len(board)} pieces on the board it must be '{expected}'")
    return board


def position_string(board):
    """`<rows> <side>` of the board {cell: (colour, owner)}."""
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
    return "/".join(rows) + " " + "wb"[side_to_move(board)]


def parse_position_command(args):
    """(start board, moves) of a `position` command's arguments; raises ValueError with the
    reason. The moves are only split off here: the course's code checks them."""
    if not args:
        raise ValueError("position: expected 'startpos' or 'fen <rows> <side>', then "
                         "'moves ...'")
    if args[0] == "startpos":
        start, rest = {}, args[1:]
    elif args[0] == "fen":
        if len(args) < 3:
            raise ValueError("position fen: expected '<rows> <side>'")
        start, rest = parse_position_string(args[1], args[2]), args[3:]
    else:
        raise ValueError(f"position: unknown kind '{args[0]}', expected 'startpos' or 'fen'")
    if rest and rest[0] != "moves":
        raise ValueError(f"position: expected 'moves' but got '{rest[0]}'")
    return start, list(rest[1:])
