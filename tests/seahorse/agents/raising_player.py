"""Raises on every move."""
from player_divercite import PlayerDivercite


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="raising"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        raise ValueError("boom")
