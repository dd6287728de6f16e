"""Talks on stdout every way students' agents did: print, a logging logger with a handler on
sys.stdout (made at import), loguru with a sink on stdout, and sys.__stdout__ itself."""
import logging
import sys

from loguru import logger as loguru_logger
from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

log = logging.getLogger("noisy_player")
log.addHandler(logging.StreamHandler(sys.stdout))
log.setLevel(logging.INFO)
loguru_logger.add(sys.stdout, format="{message}")


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="noisy"):
        super().__init__(piece_type, name)
        print(f"noisy_player: {name} ready; bestmove XX99")

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        print(f"noisy_player: step {current_state.get_step()}, bestmove XX99")
        log.info("noisy_player: a logging line on stdout; readyok")
        loguru_logger.info("noisy_player: a loguru line on stdout; uciok")
        print("noisy_player: on sys.__stdout__; bestmove XX99", file=sys.__stdout__, flush=True)
        return first_legal_action(current_state)
