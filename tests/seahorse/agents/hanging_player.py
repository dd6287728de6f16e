"""Plays two moves, then never returns from its 3rd (waits for an event nobody sets). Counts
its moves in a class attribute."""
import threading

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    moves_played = 0

    def __init__(self, piece_type, name="hanging"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        MyPlayer.moves_played += 1
        if MyPlayer.moves_played == 3:
            threading.Event().wait()
        return first_legal_action(current_state)
