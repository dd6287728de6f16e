"""Chooses with Python's random and numpy's global generator, neither seeded, as most students'
agents did (the course's own random player too)."""
import random

import numpy as np
from player_divercite import PlayerDivercite


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="unseeded"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        actions = list(current_state.get_possible_light_actions())
        random.shuffle(actions)
        return actions[int(np.random.randint(len(actions)))]
