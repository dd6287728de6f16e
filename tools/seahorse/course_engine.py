#!/usr/bin/env python3
"""Runs a course Divercité agent as an engine of this project's protocol.

    divercite-match -engine cmd=tools/seahorse/course_engine.py arg=path/to/my_player.py \\
        name=mine tc=inf -engine cmd=build/bin/divercite name=engine tc=10 -games 2

Each game gets the agent as the course gives it: a fresh Python process with the agent's
folder as its working directory, a new MyPlayer and the course's own state objects. The code
is the package course_bridge/ beside this file; `course_engine.py --help` lists the protocol.
"""

import os
import sys

if __name__ == "__main__":
    # This folder is on sys.path only to find the package: left there, its modules could
    # shadow the course's.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    from course_bridge.cli import main
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    main(__file__)
