"""Returns a city on (0,0), which is not a cell of the board."""
from player_divercite import PlayerDivercite
from seahorse.game.light_action import LightAction


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="illegal"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        return LightAction({"piece": "GC", "position": (0, 0)})
