"""Module-level globals (a move counter, the player's id and colour) set on the first move,
and a functools.lru_cache keyed by the game's step whose values hold this game's id: both
would carry game 1 into game 2 if the module stayed loaded."""
import functools

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

MOVES_PLAYED = 0
MY_ID = None
MY_PIECE_TYPE = None


@functools.lru_cache(maxsize=None)
def plan_for(step):
    """Who plans the move at `step` (cached: the same step comes back in every game)."""
    return (MY_ID, step)


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="globals"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        global MOVES_PLAYED, MY_ID, MY_PIECE_TYPE
        if MOVES_PLAYED == 0:
            MY_ID = self.get_id()
            MY_PIECE_TYPE = self.piece_type
        owner, step = plan_for(current_state.get_step())
        if owner != current_state.get_next_player().get_id():
            raise RuntimeError(f"step {step}: planned for player {owner}, not for me")
        if MY_PIECE_TYPE != current_state.get_next_player().get_piece_type():
            raise RuntimeError(f"I play {MY_PIECE_TYPE}, but the state says the player to "
                               "move is the other colour")
        MOVES_PLAYED += 1
        current_state.scores[MY_ID]  # KeyError when MY_ID is from another game
        return first_legal_action(current_state)
