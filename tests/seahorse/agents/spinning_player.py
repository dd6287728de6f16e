"""Plays two moves, then computes forever on its 3rd, never looking at its clock: only its
process's end stops it."""
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    moves_played = 0

    def __init__(self, piece_type, name="spinning"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        MyPlayer.moves_played += 1
        while MyPlayer.moves_played >= 3:
            pass
        return first_legal_action(current_state)
