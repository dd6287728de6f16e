"""Keeps a lock (from its constructor) and an open file (from its first move) in public
attributes. The course's master sends the players' public attributes as json before the first
move and after each: it crashes on this player. The bridge sends moves, not players: the agent
plays, and a warning says what the course would do."""
import os
import threading

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="unserialisable"):
        super().__init__(piece_type, name)
        self.lock = threading.Lock()
        self.journal = None

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        with self.lock:
            if self.journal is None:
                self.journal = open(os.devnull, "w")
            self.journal.write(f"step {current_state.get_step()}\n")
        return first_legal_action(current_state)
