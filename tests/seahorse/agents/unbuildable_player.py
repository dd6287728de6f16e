"""Imports, but its constructor raises: the wrapper must exit with code 2 at startup."""
from player_divercite import PlayerDivercite


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="unbuildable"):
        raise RuntimeError("cannot build this agent on purpose")

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        raise AssertionError("never constructed")
