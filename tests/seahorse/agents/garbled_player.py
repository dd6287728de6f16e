"""Writes bytes that are not UTF-8 on stderr and stdout at every move, and raises once (its
process's third move) with such bytes in its exception's text (decoded with surrogateescape,
so the text holds lone surrogates, as a file name read from a bad disk does)."""
import os

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

GARBAGE = b"\xff\xfe\x80 not utf-8 \xc3\x28 \xed\xa0\x80\n"
moves = 0


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="garbled"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        global moves
        moves += 1
        os.write(2, GARBAGE)
        os.write(1, GARBAGE)
        if moves == 3:
            raise ValueError(GARBAGE.decode("utf-8", "surrogateescape") + "\u2603 \x00 \x1b[31m")
        return first_legal_action(current_state)
