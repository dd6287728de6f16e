"""Keeps who-is-who in class attributes, set on its first move while a class-level move
counter is 0, as the real student agent of issue 22 did. Safe in the course's framework (a
new process every game); a bridge that keeps the class alive across games hands game 2 the
ids of game 1's players, and the score lookup raises KeyError."""
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    move_count = 0
    my_id = None
    opponent_id = None

    def __init__(self, piece_type, name="class_state"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        if MyPlayer.move_count == 0:
            MyPlayer.my_id = self.get_id()
            MyPlayer.opponent_id = next(p.get_id() for p in current_state.players
                                        if p.get_id() != self.get_id())
        MyPlayer.move_count += 1
        lead = current_state.scores[MyPlayer.my_id] - current_state.scores[MyPlayer.opponent_id]
        if MyPlayer.move_count > 20:
            raise RuntimeError(f"move {MyPlayer.move_count} of a 20-move game (lead {lead})")
        return first_legal_action(current_state)
