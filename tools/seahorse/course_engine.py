#!/usr/bin/env python3
"""Runs a course Divercité agent as an engine of this project's protocol.

    divercite-match -engine cmd=tools/seahorse/course_engine.py arg=path/to/my_player.py \\
        name=mine tc=inf -engine cmd=build/bin/divercite name=engine tc=10 -games 2

The same as `python3 -m divercite.course.engine AGENT.py` where the package is installed: this
launcher finds the package and runs the bridge, divercite.course.engine; `course_engine.py
--help` lists the protocol as it speaks it. The package's finder is divercite_package.py: beside
this file, else where the build and `cmake --install` put it beside the engine DIVERCITE_ENGINE
names (<tree>/share/divercite/seahorse/). This file copied alone, with neither, takes the package
from Python's path (a pip install, PYTHONPATH), or else says in one line what to do.
"""

import importlib as _importlib
import importlib.util as _importlib_util
import os as _os
import sys


def _import_package_module(name):
    """The package's module `name`, by the package's finder, divercite_package.py: beside this
    launcher, else beside the engine DIVERCITE_ENGINE names (<tree>/share/divercite/seahorse/,
    where the build and `cmake --install` put it); with neither, from Python's path; else
    SystemExit, one line saying what to do. Here is only what a launcher needs before it has
    the finder, and both launchers hold it word for word (tests/seahorse/test_launchers.py):
    copied alone, as students copy player files, a launcher has nothing beside it to import."""
    finder, launcher = "divercite_package.py", _os.path.basename(__file__)
    finders = [_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), finder)]
    engine = _os.environ.get("DIVERCITE_ENGINE")
    if engine:
        tree = _os.path.dirname(_os.path.dirname(_os.path.realpath(engine)))
        finders.append(_os.path.join(tree, "share", "divercite", "seahorse", finder))
    found = next((path for path in finders if _os.path.isfile(path)), None)
    try:
        if not found:
            return _importlib.import_module(name)
        spec = _importlib_util.spec_from_file_location("_divercite_package", found)
        module = _importlib_util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.import_module(name)
    except ImportError as error:
        if not (error.name or "").startswith("divercite"):
            raise  # the package is there; something it imports is not
        if found:
            raise SystemExit(f"{launcher}: {error}") from None
        fix = (f"build DIVERCITE_ENGINE's tree again (this version's build puts {finder} there)"
               if engine else "set DIVERCITE_ENGINE to a built engine "
               "(<checkout>/build/bin/divercite)")
        raise SystemExit(
            f"{launcher}: the Python package divercite not found: no {finder} at "
            f"{' nor at '.join(finders)}{'' if engine else ' (DIVERCITE_ENGINE is unset)'}, "
            f"nor the package on Python's path ({error}). Copy the project's "
            f"tools/seahorse/{finder} beside {launcher}, pip install the project, or {fix}"
        ) from None


if __name__ == "__main__":
    # This folder is first on sys.path, as a script's is: the finder is loaded by its path,
    # and the folder taken off sys.path before the bridge runs.
    here = _os.path.dirname(_os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if _os.path.abspath(p or ".") != here]
    _import_package_module("divercite.course.engine").main(prog="course_engine.py")
