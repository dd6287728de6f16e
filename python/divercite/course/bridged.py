"""A course agent as a player of the match runner, through the course bridge: the one way the
ladder and the arena (and anyone with divercite.match) seat a student's `my_player.py`.

    from divercite import match
    from divercite.course.bridged import agent_player
    match.run([agent_player("mine", "team/my_player.py", 900, course="/course"),
               match.Player(name="engine", tc=10)], games=2)

The player is `python3 -m divercite.course.engine [--sandbox] [FLAGS] [--course DIR] AGENT` on
this process's Python (divercite.course.engine says what the bridge does with it). An
application module: it needs divercite.match, which the bridge itself never imports.
"""

import os
import sys
from typing import Optional, Sequence, Union

from .. import match


def agent_player(name: str, agent: Union[str, os.PathLike], tc: Union[str, float], *,
                 sandbox: bool = True, course: Optional[str] = None,
                 flags: Sequence[str] = ()) -> match.Player:
    """The match runner's player `name` for the course agent in the file `agent`, through
    the course bridge, at the clock `tc` (seconds a game, as match.Player takes it; a number
    is written as %g). `sandbox`: each of its processes in the sandbox (untrusted agents;
    False only for agents you trust). `flags`: more of the bridge's flags, before
    `--course`: the sandbox's limits (`--memory-mb 512`, as sandbox.limits.limit_flags gives
    them), `--readable DIR`. `course`: the course's folder (default: as the bridge finds
    it)."""
    args = ["-m", "divercite.course.engine"]
    if sandbox:
        args.append("--sandbox")
    args += flags
    if course is not None:
        args += ["--course", str(course)]
    return match.Player(cmd=sys.executable, name=name,
                        tc=tc if isinstance(tc, str) else f"{tc:g}",
                        args=args + [os.fspath(agent)])
