"""Prints a lot on stdout, every way an agent can: print, sys.stdout, loguru, the file
descriptor itself and a child process. None of it may reach the protocol's stdout."""
import os
import sys

from loguru import logger
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

print("chatty_player: imported; bestmove XX99")


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="chatty"):
        super().__init__(piece_type, name)
        print(f"chatty_player: {name} constructed; readyok")

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        for k in range(200):
            print(f"chatty_player: thinking {k} bestmove XX99")
        sys.stdout.write("uciok\n")
        sys.stdout.flush()
        logger.info("chatty_player: a loguru line, bestmove XX99")
        os.write(1, b"chatty_player: straight to fd 1, bestmove XX99\n")
        os.system("echo chatty_player: from a child process, bestmove XX99")
        print(current_state)
        print(current_state.get_rep())
        return first_legal_action(current_state)
