"""Type hints and the contract of divercite._core (the C++ bindings, python/src/core.cc and
standings_tables.cc)."""

from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

__version__: str
START_FEN: str  # "1/3/5/7/9/7/5/3/1 w"
BOARD_SVG_CANVAS: float  # 600.0: the side of the board picture, in its units

class Position:
    """A Divercité position: the pieces on the board, the pieces each player has left, the
    scores (the course code's, with its last-move tie-break once the board is full) and the
    side to move. Mutable: `play` changes it, `copy` gives an independent one.

    Equal positions (same pieces on the same cells) compare equal and hash alike; the hash
    changes with every move played, so do not play a position while it is in a set or a
    dict's key (play a copy). Positions pickle as their position string and last move.
    """

    def __init__(self, fen: str | None = None) -> None:
        """The start position, or the position a position string `<rows> <side>` describes.

        Raises ValueError naming the problem (number of fields or rows, a row's length, an
        unknown character, too many pieces of a kind, counts alternating moves cannot give,
        a side to move that does not match the pieces), TypeError if `fen` is not a str.
        """
    @staticmethod
    def from_moves(moves: Iterable[str]) -> Position:
        """The position after `moves` (move strings) played from the start.

        Raises ValueError `move K of N: <reason>` (K counted from 1) on the first malformed
        or illegal move; TypeError if `moves` is one str or holds something else than str.
        """
    @staticmethod
    def from_board(board: Dict[Tuple[int, int], str]) -> Position:
        """The position with these pieces, {(row, col): piece}, each piece named as the course
        names it: colour, kind, owner ("RCW": a red city of the first player, "GRB": a green
        resource of the second); the side to move follows from their number. `board()`'s
        inverse.

        Raises ValueError naming a key that is not a cell, a piece that is not so named, a
        kind that does not match its cell, or counts no game has (more pieces of a colour
        and kind than a player gets, counts alternating moves cannot give); TypeError if
        `board` is not a dict or a piece not a str. The result has no `last_move`.
        """
    @staticmethod
    def from_course_state(state: object) -> Position:
        """The position of a course GameStateDivercite (divercite.course, which attaches it)."""
    def legal_moves(self) -> List[str]:
        """The legal moves as move strings, in the course code's order (colours R, G, B, Y;
        for each its cities then its resources; cells by row, then column); [] once the game
        is over."""
    def play(self, move: str) -> None:
        """Plays `move` for the side to move.

        Raises ValueError with the reason on a malformed move ("XX99", "RC1"), a kind that
        does not match the cell, an occupied cell, a piece the player has none left of, or a
        finished game; TypeError if `move` is not a str. The position is then unchanged.
        The move goes on `move_stack`, which `pop` takes back.
        """
    def push(self, move: str) -> None:
        """play(move), as python-chess names it."""
    def pop(self) -> str:
        """Takes back the last move of `move_stack` (the position, scores, last move and
        hash are again what they were before it) and returns it; IndexError when the stack
        is empty. Keeps no copy of the caller's: a walk of the move tree is push/pop."""
    def peek(self) -> str:
        """The last move of `move_stack`; IndexError when the stack is empty."""
    @property
    def move_stack(self) -> List[str]:
        """The moves played on this object (play, push, from_moves), oldest first, as a new
        list; [] for a position read from a string or a board. Kept by copies and
        pickling; positions compare equal whatever their stacks."""
    def copy(self) -> Position:
        """An independent copy, its move stack too (so are copy.copy and copy.deepcopy)."""
    @property
    def scores(self) -> Tuple[int, int]:
        """(first player's score, second player's score), as the course code keeps them."""
    def is_over(self) -> bool:
        """True once the 40 plies have been played."""
    def result(self) -> str:
        """"1-0" (first player wins), "0-1", "1/2-1/2", or "*" while the game goes on."""
    def fen(self) -> str:
        """The position string `<rows> <side>`; Position(p.fen()) == p."""
    def board(self) -> Dict[Tuple[int, int], str]:
        """The pieces on the board: {(row, col): piece} in the course's names (from_board)."""
    @property
    def last_move(self) -> str | None:
        """The move this object played last (play, or the last of from_moves), kept by copies
        and pickling; None for a position read from a string or a board (it does not say
        how it was reached). Positions compare equal whatever their last moves."""
    @property
    def ply(self) -> int:
        """Plies played so far (the pieces on the board), 0 to 40."""
    @property
    def side_to_move(self) -> str:
        """"w" (the first player) or "b" (the second), as in position strings."""
    def pieces_left(self) -> Dict[str, Dict[str, int]]:
        """The pieces each player still has: {"w": {...}, "b": {...}}, each mapping the
        course's piece names, colour then kind ("RC" red city, "RR" red resource, "GC", "GR",
        "BC", "BR", "YC", "YR", in that order), to a count (2 cities and 3 resources of each
        colour at the start)."""
    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies from here (sequences running past
        the end of the game count 0), walked in C++ without the GIL. ValueError if negative."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __repr__(self) -> str:
        """Position('<position string>')."""
    def __str__(self) -> str:
        """A text picture of the board (cities in brackets, the first player's pieces in
        upper case), the side to move and the pieces left."""

def board_svg(position: Position, arrow: Optional[str] = None, last_move: Optional[str] = None,
              size: Optional[int] = 400) -> str:
    """The SVG picture of `position` (tools/board_svg/, the drawing of divercite.svg.board,
    whose pieces are the review pages' board.js templates): `arrow` a move string drawn as an arrow from the
    side to move's edge, `last_move` a move string whose cell is outlined, `size` the width
    and height in pixels (None: none, the picture scales). ValueError if `arrow` or
    `last_move` is neither None nor a move string."""

def board_skeleton_svg(size: Optional[int] = None) -> str:
    """The board without pieces, with the templates web/board.js places (tools/board_svg/'s
    BoardSkeletonSvg); `size` the width and height in pixels (None: the picture scales)."""

def cell_centre(row: int, col: int) -> Tuple[float, float]:
    """The centre of the cell (row, col) in the board picture's units (0 to 600)."""

def read_course_recording(
        text: str) -> Tuple[Tuple[str, str], List[str], List[Tuple[int, int]]]:
    """The game of a course recording's JSON text (tools/records/course_recording.h, the one
    reader): the names (first, second), the moves, and every state's scores (first, second);
    ValueError naming the state at fault."""


def write_course_recording(moves: Sequence[str], first: str, second: str) -> str:
    """The course recording of the game of `moves` from the start, its players named `first`
    and `second`: one line of JSON (tools/records/course_recording.h, the one writer);
    ValueError naming the first bad move."""


def standings_table_html(rows: Iterable[Mapping[str, Union[str, int, float, None]]],
                         columns: Iterable[str] = (), *, table_id: str = "",
                         name_heading: str = "Team", sortable: bool = True,
                         empty: str = "") -> str:
    """The standings table in the arena's markup (tools/common/standings_table.h, the one
    writer of the standings of divercite-match -html, the ladder's page and the arena's): a
    `<div class="scroll">` around `<table class="standings sortable">`, a heading's
    data-sort saying how sortable.js compares its column, each row `<tr class="ROW_CLASS">`.

    A row is a dict of: name (str, required), link (its href), mark (a label after the
    name, of class MARK-mark: "house"), row_class, rank (int; the row's place from 1 by
    default), elo, elo_low, elo_high (numbers, None: unrated, or the interval unbounded),
    games, wins, draws, losses (ints), points (a number); and the groups' fields: version
    (int or None); divercites, points_for, points_against (ints: the writer computes their
    values a game and the points scored per point conceded); ms_per_move (a number or None),
    time_losses (int). An unknown field is a ValueError, a wrong type a TypeError, each
    naming the row.

    `columns`: the groups shown beside #, the name, Elo, 95 %, Games, Wins, Draws and
    Losses, of "version", "points", "win_ratio" (W/L: wins per loss to two decimals, "∞"
    without a loss), "score" (points a game in %), "divercites" (the course's seeds'
    columns: divercités, points scored and conceded, scored per conceded, each a game; to
    two decimals) and "clock" (ms/move, losses on time). Every heading but the rank's and the
    name's has a title saying what its column counts. `table_id` the table's id, `name_heading` the name column's
    heading, `sortable` the class that sortable.js sorts (a page without the script: False),
    `empty` the one row's text when there is no row. Every text is escaped."""

def ratio_text(above: int, below: int) -> str:
    """A ratio as the standings table shows it (tools/common/standings_table.h): `above` per
    `below` to two decimals ("3.33"), "∞" where `below` is 0 and `above` is not, "–" where
    both are; W/L is ratio_text(wins, losses)."""

def cross_table_html(names: Sequence[str],
                     cells: Sequence[Sequence[Optional[Mapping[str, Optional[str]]]]], *,
                     table_id: str = "", name_heading: str = "Team") -> str:
    """The cross table in the arena's markup (tools/common/standings_table.h):
    `<table class="cross">`, `names` in the standings' order numbered from 1 (a column's
    heading its number, the name in its title). cells[i][j] is row i's result against
    column j: a dict of text, note (a second line, muted) and link, or None where the two
    have not played ("–"); the diagonal is left blank (class "self"). ValueError unless
    `cells` is len(names) rows of len(names) cells. Every text is escaped."""

def table_page_html(title: str, body: str) -> str:
    """A self-contained page around `body` (HTML, put in as it is) in the arena's style sheet,
    as divercite-match -html and divercite-analyze's index are written (tools/common/html.h,
    TablePageStart): `title` escaped, as the <title> and the <h1>."""
