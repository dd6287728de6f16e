"""Where the project's programs are (`divercite`, `divercite-match`, ...), for the modules
that start them (divercite.engine, divercite.match, the course player).

A program is looked for beside this package, where each way of installing it puts programs:
the scripts folder of the install scheme that holds the package (`pip install`: a venv's
bin/, ~/.local/bin, Scripts\\ on Windows); the bin/ of its prefix (P/lib/python3*/{site,
dist}-packages/divercite: `cmake --install`, conda); the bin/ beside a build tree's python/
(<build>/python/divercite, <build>/bin); a checkout's build (<repo>/python/divercite,
<repo>/build/bin).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
import threading
from pathlib import Path
from typing import List, Optional

PACKAGE = Path(__file__).resolve().parent


class ProgramNotFoundError(FileNotFoundError):
    """None of the places holds the program; the message names them and what to do."""


# sysconfig fills its variables on first use without a lock: a thread that reads them while
# another fills them fails (AttributeError: 'userbase'), so the first use is behind this one.
_SYSCONFIG_LOCK = threading.Lock()


def places(name: str) -> List[Path]:
    """The paths `name` may have beside this package, in the order they are tried."""
    with _SYSCONFIG_LOCK:
        sysconfig.get_config_vars()
    site = PACKAGE.parent
    folders = []
    for scheme in sysconfig.get_scheme_names():
        try:
            paths = sysconfig.get_paths(scheme)
            if site in (Path(paths["purelib"]).resolve(), Path(paths["platlib"]).resolve()):
                folders.append(Path(paths["scripts"]))
        except (KeyError, ValueError, OSError):  # a scheme this platform cannot expand
            continue
    if site.name in ("site-packages", "dist-packages"):
        folders.append(site.parent.parent.parent / "bin")  # P/lib/python3.X/site-packages
    folders += [site.parent / "bin", site.parent / "build" / "bin"]
    program = name + (sysconfig.get_config_var("EXE") or "")
    unique = []
    for folder in folders:
        if folder / program not in unique:
            unique.append(folder / program)
    return unique


def installed(name: str) -> Optional[str]:
    """The program `name` installed beside this package, or None."""
    for path in places(name):
        if path.is_file() and os.access(path, os.X_OK):
            return str(path)
    return None


def find(name: str, variable: str) -> str:
    """The program `name`: the one installed beside this package, else the path the
    environment variable `variable` holds, else `name` on PATH; ProgramNotFoundError naming
    the places looked in if none."""
    found = installed(name) or os.environ.get(variable) or shutil.which(name)
    if not found:
        tried = ", ".join(str(path) for path in places(name))
        raise ProgramNotFoundError(
            f"{name} not found: not beside the divercite package ({tried}), {variable} is "
            f"not set, and no {name} is on PATH. Install the package with pip (it puts the "
            f"programs in the environment's bin/), build the checkout (scripts/build.sh), or "
            f"set {variable} to the program's path")
    return found
