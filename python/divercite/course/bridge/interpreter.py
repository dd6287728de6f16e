"""The interpreter the bridge runs on: the course's packages and a fixed hash seed."""

import importlib.util
import os
import sys

# What the course's framework imports from outside the standard library.
COURSE_PACKAGES = ("loguru", "socketio", "aiohttp", "colorama")
DEBIAN_PYTHON = "/usr/bin/python3"


def fail(message):
    """Start-up failures: one clear message on stderr, exit code 2."""
    sys.stderr.write(f"course_engine.py: {message}\n")
    sys.stderr.flush()
    sys.exit(2)


def die_with_parent():
    """On Linux, this process is killed when the one that started it ends (the parent-death
    signal), and so are its agents' sandboxes, which die with it: a match runner killed at
    once (the arena stopping, a worker cancelled) leaves no agent computing on. Elsewhere,
    nothing: the end of the bridge's input ends it once the agent answers."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent ended before the signal was set
        os._exit(1)


def ensure_interpreter(module, package_folder):
    """Re-executes `python -m module` (with `package_folder`, which holds the package
    divercite, first on PYTHONPATH) when it must run on another interpreter or hash seed.

    The pyenv Python first on PATH lacks the course's packages; Debian's has them. The hash
    seed is fixed because the course's actions hash their strings, and agents choosing from a
    set (the course's random player does) replay only if set order does. The agents' own
    processes inherit both.
    """
    missing = [name for name in COURSE_PACKAGES if importlib.util.find_spec(name) is None]
    target = sys.executable
    if missing:
        if (os.path.exists(DEBIAN_PYTHON) and
                os.path.realpath(DEBIAN_PYTHON) != os.path.realpath(sys.executable or "")):
            target = DEBIAN_PYTHON
        else:
            fail(f"the course's framework needs the Python packages {', '.join(missing)}, "
                 f"which {sys.executable} cannot import (and {DEBIAN_PYTHON} is this Python "
                 "or absent). On Debian: apt-get install " +
                 " ".join("python3-" + name.replace("_", "-") for name in missing))
    if target and (target != sys.executable or "PYTHONHASHSEED" not in os.environ):
        environment = dict(os.environ)
        environment.setdefault("PYTHONHASHSEED", "0")
        environment["PYTHONPATH"] = os.pathsep.join(
            [package_folder] + [p for p in environment.get("PYTHONPATH", "").split(os.pathsep)
                                if p])
        os.execve(target, [target, "-m", module] + sys.argv[1:], environment)
