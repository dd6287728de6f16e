"""Plans its moves with remaining_time, as students did: a share of what is left for each of
its moves still to play, and a module-level record of the last clock it saw, which may only go
down (it is one game per process in the course). Logs "<remaining_time> <step>" per move to
the file named by COURSE_ENGINE_CLOCK_LOG, if set."""
import os
import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

LAST_REMAINING = None


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="clock_planner"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        global LAST_REMAINING
        if LAST_REMAINING is not None and remaining_time > LAST_REMAINING:
            raise RuntimeError(f"the clock went up from {LAST_REMAINING} to {remaining_time}")
        LAST_REMAINING = remaining_time
        log = os.environ.get("COURSE_ENGINE_CLOCK_LOG")
        if log:
            with open(log, "a") as out:
                out.write(f"{remaining_time!r} {current_state.get_step()}\n")
        moves_left = (40 - current_state.get_step() + 1) // 2
        time.sleep(min(remaining_time / moves_left / 100, 0.02))
        return first_legal_action(current_state)
