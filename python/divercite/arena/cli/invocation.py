"""This command line as a fresh shell runs it: the words that start the program in the
commands it prints (`Next: ... team add DIR NAME...`), so that each works when pasted.

`divercite-arena` is on PATH only where pip installed it into a folder the shell searches; a
venv's or a build tree's is not, and `python3 -m divercite.arena` needs the package where
that Python looks (PYTHONPATH for a build tree). So the words are those this process was
started with, made absolute: the console script's path (its name alone where a fresh shell
finds that same file, in a system folder), or this Python with `-m divercite.arena`, with
PYTHONPATH when the package is not in that Python's own folders; and the variables that name
the programs (DIVERCITE_MATCH...) where one of them is found only through its variable."""

from __future__ import annotations

import os
import shlex
import shutil
import site
import sys
import sysconfig
from typing import List

from ... import programs

# Where a fresh login shell finds programs on any Linux: a console script here is named alone.
SYSTEM_FOLDERS = ("/usr/local/bin", "/usr/bin", "/bin")
# The programs the arena starts, found beside the package, else through their variable.
PROGRAMS = (("divercite", "DIVERCITE_ENGINE"), ("divercite-match", "DIVERCITE_MATCH"),
            ("divercite-analyze", "DIVERCITE_ANALYZE"))
CONSOLE_SCRIPT = "divercite-arena"


def _python_finds_package() -> bool:
    """Whether this Python imports the package without PYTHONPATH (it is installed in one of
    its own folders)."""
    own = set(site.getsitepackages()) | {site.getusersitepackages()}
    for scheme in sysconfig.get_scheme_names():
        try:
            paths = sysconfig.get_paths(scheme)
        except (KeyError, ValueError):
            continue
        own |= {paths["purelib"], paths["platlib"]}
    home = os.path.realpath(programs.PACKAGE.parent)
    return any(os.path.realpath(folder) == home for folder in own)


def _environment() -> List[str]:
    words = []
    for name, variable in PROGRAMS:
        value = os.environ.get(variable)
        if value and programs.installed(name) is None:
            words.append(f"{variable}={shlex.quote(os.path.abspath(value))}")
    return words


def program(module_run: bool) -> str:
    """The shell words that run this command line from a fresh shell in any folder.
    `module_run`: started as `python -m divercite.arena` (else as the console script)."""
    words = _environment()
    if module_run:
        if not _python_finds_package():
            words.append(f"PYTHONPATH={shlex.quote(str(programs.PACKAGE.parent))}")
        words += [shlex.quote(os.path.abspath(sys.executable)), "-m", "divercite.arena"]
        return " ".join(words)
    script = os.path.abspath(sys.argv[0])
    found = shutil.which(CONSOLE_SCRIPT, path=os.pathsep.join(SYSTEM_FOLDERS))
    if found and os.path.realpath(found) == os.path.realpath(script):
        words.append(CONSOLE_SCRIPT)
    else:
        words.append(shlex.quote(script))
    return " ".join(words)
