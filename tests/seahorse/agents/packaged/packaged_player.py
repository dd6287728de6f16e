"""An agent spread over a folder, as students' were: a sibling module, a sub-package with a
module of its own, and a data file opened relative to the agent's file."""
import json
import os

from heuristics import piece_preference
from player_divercite import PlayerDivercite
from tactics.ordering import ordered_actions

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "weights.json")) as f:
    WEIGHTS = json.load(f)


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="packaged"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        actions = ordered_actions(current_state.get_possible_light_actions())
        return max(actions, key=lambda action: piece_preference(action, WEIGHTS))
