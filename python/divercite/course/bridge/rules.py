"""The course's own game code, imported from where it lies, and what the bridge asks of it.

The rules are the course's: legal moves come from its GameStateDivercite, scores from its
apply_action (the last move's tie-break included), the board's cells and their kinds from its
BoardDivercite. This module only builds the course's states for the protocol's positions and
says in words why a move is not among the course's legal ones.
"""

from ... import notation

# main_divercite.py's play() sets up a game with these, in local variables (so they cannot be
# imported): four colours in this order, each player with 2 cities and 3 resources of each.
# The order matters: the course's move generators walk a player's supply in it.
COURSE_COLOURS = ("R", "G", "B", "Y")
COURSE_KINDS = ("C", "R")
SUPPLY = {"C": 2, "R": 3}
DIMENSIONS = [9, 9]
PIECE_TYPES = ("W", "B")  # the course's piece type of the first and second player
NOUNS = {"C": ("city", "cities"), "R": ("resource", "resources")}


class PositionError(ValueError):
    """A position the course's rules cannot reach; the message says why."""


class Course:
    """The course's classes, imported from the folders on sys.path."""

    def __init__(self):
        from board_divercite import BoardDivercite
        from game_state_divercite import GameStateDivercite
        from player_divercite import PlayerDivercite
        from seahorse.game.heavy_action import HeavyAction
        from seahorse.game.light_action import LightAction
        self.BoardDivercite = BoardDivercite
        self.GameStateDivercite = GameStateDivercite
        self.PlayerDivercite = PlayerDivercite
        self.HeavyAction = HeavyAction
        self.LightAction = LightAction
        cells = {(i, j) for i in range(DIMENSIONS[0]) for j in range(DIMENSIONS[1])
                 if not BoardDivercite.FORBIDDEN_MASK[i][j]}
        if cells != set(notation.CELLS):
            raise RuntimeError("the course's board (BoardDivercite.FORBIDDEN_MASK) is not the "
                               "41-cell diamond of the protocol's notation")

    # -- states

    def plain_players(self):
        """Two of the course's plain players, first and second."""
        return [self.PlayerDivercite(PIECE_TYPES[p], name=notation.PLAYER_NAMES[p])
                for p in (0, 1)]

    def initial_state(self, players):
        """The start of a game exactly as main_divercite.py's play() builds it."""
        left = {player.get_id(): {c + k: SUPPLY[k] for c in COURSE_COLOURS for k in COURSE_KINDS}
                for player in players}
        return self.GameStateDivercite(
            scores={player.get_id(): 0 for player in players}, next_player=players[0],
            players=players, rep=self.BoardDivercite(env={}, dim=list(DIMENSIONS)), step=0,
            players_pieces_left=left)

    def state(self, start_board, moves, players, checked=True):
        """The course's state after `moves` from `start_board` ({cell: (colour, owner)}), with
        `players` (first, second); raises PositionError if the course's rules forbid it
        (unless not `checked`: a position checked before, rebuilt for other players).

        A start board is played onto the empty board in an order that alternates the players:
        the score is a function of the board alone (and of the last move's tie-break, which
        the course computes from the full board), so any such order gives the course's
        scores, and the course's own apply_action computes them."""
        state = self.initial_state(players)
        for text in self.placements(start_board):
            problem = self.move_problem(state, text) if checked else None
            if problem is not None:
                raise PositionError(self.start_board_problem(start_board, text, problem))
            state = state.apply_action(self.light_action(text))
        return self.play(state, moves, checked=checked)

    def play(self, state, moves, first_number=1, total=None, checked=True):
        """The course's state after `moves` from `state`; raises PositionError naming the
        move (numbered from `first_number` of `total`) that the course's rules forbid."""
        total = total or len(moves)
        for number, text in enumerate(moves, first_number):
            problem = self.move_problem(state, text) if checked else None
            if problem is not None:
                raise PositionError(f"position: move {number} of {total}, '{text}': {problem}")
            state = state.apply_action(self.light_action(text))
        return state

    def placements(self, board):
        """The board's pieces as moves, first and second player's alternating."""
        by_owner = [[], []]
        for cell in notation.CELLS:
            if cell in board:
                colour, owner = board[cell]
                by_owner[owner].append(f"{colour}{self.kind(cell)}{cell[0]}{cell[1]}")
        order = []
        for k in range(len(by_owner[0])):
            order.append(by_owner[0][k])
            if k < len(by_owner[1]):
                order.append(by_owner[1][k])
        return order

    def start_board_problem(self, board, text, problem):
        owner = board[notation.move_cell(text)][1]
        colour, kind = text[0], text[1]
        count = sum(1 for cell, (c, o) in board.items()
                    if o == owner and c == colour and self.kind(cell) == kind)
        if count > SUPPLY[kind]:
            return (f"position string: the {notation.PLAYER_NAMES[owner]} player has {count} "
                    f"{colour} {NOUNS[kind][1]} on the board, more than the {SUPPLY[kind]} it "
                    "starts with")
        return f"position string: {text}: {problem}"

    # -- moves

    def kind(self, cell):
        """'C' for a city cell, 'R' for a resource cell, as the course's board has them."""
        return self.BoardDivercite.BOARD_MASK[cell[0]][cell[1]]

    def light_action(self, text):
        return self.LightAction({"piece": text[:2], "position": notation.move_cell(text)})

    def move_problem(self, state, text):
        """Why the move `text` is not among the course's legal moves in `state` (None if it
        is), in the engine's words."""
        problem = notation.move_format_problem(text)
        if problem is not None:
            return problem
        colour, kind = text[0], text[1]
        cell = notation.move_cell(text)
        if not state.in_board(cell):
            return f"({cell[0]},{cell[1]}) is not a cell of the board"
        if not state.piece_type_match(kind, cell):
            real, wanted = ("city", "resource") if kind == "R" else ("resource", "city")
            return f"({cell[0]},{cell[1]}) is a {real} cell, not a {wanted} cell"
        if state.is_done():
            return "the game is over"
        if self.light_action(text) in state.get_possible_light_actions():
            return None
        # Not legal for the course: say why, from its own board and supplies.
        if cell in state.get_rep().get_env():
            return f"cell ({cell[0]},{cell[1]}) is occupied"
        side = self.side(state)
        if state.players_pieces_left[state.get_next_player().get_id()][colour + kind] == 0:
            return (f"the {notation.PLAYER_NAMES[side]} player has no {colour} "
                    f"{NOUNS[kind][0]} left")
        return "not among the course's legal moves"

    # -- what the protocol shows

    def side(self, state):
        """0 if the first player is to move, else 1."""
        return 0 if state.get_next_player() is state.get_players()[0] else 1

    def board(self, state):
        """{cell: (colour, owner)} of the course's state."""
        first = state.get_players()[0].get_id()
        return {cell: (piece.get_type()[0], 0 if piece.get_owner_id() == first else 1)
                for cell, piece in state.get_rep().get_env().items()}

    def scores(self, state):
        """(first, second) scores, the last move's tie-break included."""
        return tuple(state.get_scores()[player.get_id()] for player in state.get_players())

    def result(self, state):
        """'p1win', 'p2win', 'draw', or None while the game goes on."""
        if not state.is_done():
            return None
        first, second = self.scores(state)
        return "p1win" if first > second else "p2win" if second > first else "draw"
