"""A course agent that searches with divercite's rules: what a student's agent can do.

`compute_action` reads the course's state into a `divercite.Position`, searches two plies
(the move whose worst reply leaves the best score margin) and answers the course's action.
Played by tests/python/test_course.py under the course's master.
"""

import divercite
from divercite import course
from player_divercite import PlayerDivercite


def margin(position, side):
    first, second = position.scores
    return first - second if side == "w" else second - first


def two_ply(position):
    """The move of `position` whose opponent's best reply leaves the best margin."""
    side = position.side_to_move
    best, best_value = None, None
    for move in position.legal_moves():
        after = position.copy()
        after.play(move)
        value = margin(after, side)  # the last move has no reply
        for index, reply in enumerate(after.legal_moves()):
            answer = after.copy()
            answer.play(reply)
            value = margin(answer, side) if index == 0 else min(value, margin(answer, side))
        if best_value is None or value > best_value:
            best, best_value = move, value
    return best


class MyPlayer(PlayerDivercite):
    """Two plies of search over divercite.Position."""

    def __init__(self, piece_type, name="search_player"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        position = divercite.Position.from_course_state(current_state)
        return course.action(two_ply(position), current_state)
