"""Writes 200 MB to stderr at import (1 MB at a time, in lines of 100 bytes), then plays the
first legal move: a ladder must keep the end of what its runner relays, not the whole."""
import os

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

MEGABYTES = 200
LINE = b"flooding_player: " + b"x" * 82 + b"\n"  # 100 bytes
CHUNK = LINE * ((1 << 20) // len(LINE))


def _write_all(data):
    view = memoryview(data)
    while view:
        view = view[os.write(2, view):]


for _ in range(MEGABYTES * (1 << 20) // len(CHUNK)):
    _write_all(CHUNK)


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="flooding"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        return first_legal_action(current_state)
