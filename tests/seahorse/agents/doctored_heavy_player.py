"""Returns one of the course's own HeavyActions with its next state's scores doctored (+1 for
itself): the course's master would refuse it, so must the wrapper."""
from player_divercite import PlayerDivercite


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="doctored"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        action = next(current_state.generate_possible_heavy_actions())
        action.get_next_game_state().scores[self.get_id()] += 1
        return action
