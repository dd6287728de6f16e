"""Plays two moves, then answers its first move again on its 3rd: a cell already taken.
Counts its moves in a class attribute."""
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    moves_played = 0

    def __init__(self, piece_type, name="late_illegal"):
        super().__init__(piece_type, name)
        self.first_action = None

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        MyPlayer.moves_played += 1
        if MyPlayer.moves_played == 3:
            return self.first_action
        action = first_legal_action(current_state)
        if self.first_action is None:
            self.first_action = action
        return action
