"""Finds the Python package divercite for the two launchers beside this file
(course_engine.py, divercite_player.py), wherever the three were put. A launcher copied alone
loads this file from beside the engine DIVERCITE_ENGINE names: <tree>/share/divercite/seahorse/,
where the build (tools/CMakeLists.txt) and `cmake --install` put it.

The places, in order: beside the engine that DIVERCITE_ENGINE names (its build tree's
python/, its prefix's lib/python3/dist-packages/); the checkout this file is in
(<repo>/python/, this file being <repo>/tools/seahorse/); the prefix this file is installed in
(P/lib/python3/dist-packages/, this file being P/share/divercite/seahorse/); then Python's own
path (a pip install). Only the package's pure-Python modules are needed, on any Python.

Standard library only; loaded by its path (not from sys.path), so that nothing here can
shadow the course's or a student's modules.
"""

import importlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def package_places():
    """The folders that may hold the package, in order, each with what it is."""
    places = []
    engine = os.environ.get("DIVERCITE_ENGINE")
    if engine:
        tree = os.path.dirname(os.path.dirname(os.path.realpath(engine)))
        places += [(os.path.join(tree, "python"), "beside DIVERCITE_ENGINE, in its build tree"),
                   (os.path.join(tree, "lib", "python3", "dist-packages"),
                    "beside DIVERCITE_ENGINE, in its prefix")]
    share = os.path.dirname(os.path.dirname(HERE))
    return places + [
        (os.path.join(share, "python"), "the checkout of this launcher"),
        (os.path.join(os.path.dirname(share), "lib", "python3", "dist-packages"),
         "the prefix this launcher is installed in")]


def import_module(name):
    """The package's module `name`, from the first of package_places() that holds the package,
    else from Python's own path. A place is on sys.path for the import only: left there, its
    modules could shadow the course's or the student's."""
    for folder, _ in package_places():
        if os.path.isfile(os.path.join(folder, "divercite", "__init__.py")):
            sys.path.insert(0, folder)
            try:
                return importlib.import_module(name)
            finally:
                sys.path.remove(folder)
    try:
        return importlib.import_module(name)
    except ImportError as error:
        if not (error.name or "").startswith("divercite"):
            raise  # the package is there; something it imports is not
        tried = "; ".join(f"{folder} ({what})" for folder, what in package_places())
        raise ImportError(
            f"the Python package divercite not found: tried {tried}; and Python's own path "
            f"({error}). Build the project with scripts/build.sh in its checkout, or install "
            f"it with pip", name="divercite") from None
