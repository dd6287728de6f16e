"""Its team's folder holds a link to another team's file (`notes.txt`): were it played, it
would put that file's text in its exception, and so in the records and reports."""
import os

from player_divercite import PlayerDivercite

HERE = os.path.dirname(os.path.abspath(__file__))


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="stealing"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        with open(os.path.join(HERE, "notes.txt")) as stolen:
            raise ValueError(stolen.read())
