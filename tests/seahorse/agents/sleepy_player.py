"""Sleeps one second past its clock, then plays."""
import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="sleepy"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        time.sleep(remaining_time + 1)
        return first_legal_action(current_state)
