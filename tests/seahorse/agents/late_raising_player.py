"""Plays two moves, then raises on its 3rd (a bug deep in a search, say). Counts its moves in a
class attribute."""
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    moves_played = 0

    def __init__(self, piece_type, name="late_raising"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        MyPlayer.moves_played += 1
        if MyPlayer.moves_played == 3:
            raise IndexError("third move: list index out of range")
        return first_legal_action(current_state)
