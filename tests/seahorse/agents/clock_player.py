"""Appends what it is given to the file named by COURSE_ENGINE_CLOCK_LOG, one line per move:
"<name> <moves this instance played before> <remaining_time> <is it the player to move>",
and takes 30 ms a move so that the clock visibly runs."""
import os
import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="clock"):
        super().__init__(piece_type, name)
        self.moves_played = 0  # state kept between moves, as real agents keep theirs

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        to_move = current_state.get_next_player() is self
        with open(os.environ["COURSE_ENGINE_CLOCK_LOG"], "a") as log:
            log.write(f"{self.get_name()} {self.moves_played} {remaining_time!r} {to_move}\n")
        self.moves_played += 1
        time.sleep(0.03)
        return first_legal_action(current_state)
