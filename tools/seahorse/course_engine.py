#!/usr/bin/env python3
"""Runs a course Divercité agent as an engine of this project's protocol.

    divercite-match -engine cmd=tools/seahorse/course_engine.py arg=path/to/my_player.py \\
        name=mine tc=inf -engine cmd=build/bin/divercite name=engine tc=10 -games 2

The same as `python3 -m divercite.course.engine AGENT.py` where the package is installed: this
launcher finds the package (divercite_package.py beside it says where) and runs the bridge,
divercite.course.engine; `course_engine.py --help` lists the protocol as it speaks it.
"""

import importlib.util
import os

if __name__ == "__main__":
    # This folder is first on sys.path, as a script's is: the finder is loaded by its path.
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "_divercite_package", os.path.join(here, "divercite_package.py"))
    finder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(finder)
    import sys
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    finder.import_module("divercite.course.engine").main(prog="course_engine.py")
