"""Finds itself in the state every way students did: self.get_id(), current_state.players,
get_next_player() and compute_next_player() (the opponent), and its piece type; raises if any
disagree."""
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="whoami"):
        super().__init__(piece_type, name)
        self.opponent_id = None

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        players = current_state.players
        me = [p for p in players if p.get_id() == self.get_id()]
        if len(me) != 1 or me[0] is not self or current_state.get_next_player() is not self:
            raise RuntimeError("I am not the player to move in this state")
        if players.index(self) != "WB".index(self.piece_type):
            raise RuntimeError(f"playing {self.piece_type} at index {players.index(self)}")
        opponent = current_state.compute_next_player()
        if self.opponent_id is None:
            self.opponent_id = opponent.get_id()
        if opponent.get_id() != self.opponent_id or opponent.get_id() == self.get_id():
            raise RuntimeError("my opponent changed during the game")
        if set(current_state.scores) != {self.get_id(), self.opponent_id}:
            raise RuntimeError(f"scores for {set(current_state.scores)}")
        return first_legal_action(current_state)
