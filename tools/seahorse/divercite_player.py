"""Our Divercité engine as a player of the INF8175 course's own framework (seahorse).

Name this file on the course's command line, from the course's ``divercite/`` folder:

    python3 main_divercite.py -t local my_player.py path/to/divercite_player.py
    python3 main_divercite.py -t human_vs_computer path/to/divercite_player.py
    python3 main_divercite.py -t host_game -a <this machine's ip> path/to/divercite_player.py
    python3 main_divercite.py -t connect -a <the host's ip> path/to/divercite_player.py

The player is ``divercite.course.player`` (its docstring says the rest: how it speaks to the
engine, its environment variables, its safety); this file, which the course's master loads by
its path, finds the package (``divercite_package.py`` beside it says where) and offers that
module's names.
"""

import importlib.util as _importlib_util
import os as _os

_spec = _importlib_util.spec_from_file_location(
    "_divercite_package",
    _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "divercite_package.py"))
_finder = _importlib_util.module_from_spec(_spec)
_spec.loader.exec_module(_finder)
_finder.import_module("divercite.course.player")

from divercite.course.player import *  # noqa: E402,F401,F403
