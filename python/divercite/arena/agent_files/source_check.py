"""An upload's Python files compiled in a child process with memory, CPU and time caps, never in
the arena's own process: compile() of a crafted file of a few MB takes gigabytes (a list of
millions of names), or overflows the C stack (a sum of 100,000 terms), and either would take
the whole arena with it.

The child is a fresh interpreter (`-I -S`: no site, no environment) that caps itself before
it reads anything, compiles each file and says the first problem as one JSON line; whatever
else ends it (a cap, a signal) is turned into the reason here. A few checks run at once; the
others wait their turn, so that a burst of uploads holds a bounded share of the machine."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from typing import Dict, Optional

MEMORY_BYTES = 512 << 20  # the child's address space, its interpreter included
CPU_SECONDS = 10
WALL_SECONDS = 20  # the CPU cap's time, and the wait for a turn
AT_ONCE = threading.BoundedSemaphore(2)

CHILD = r"""
import json, resource, sys
memory, cpu = int(sys.argv[1]), int(sys.argv[2])
for limit, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_CPU, cpu),
                     (resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, 0),
                     (resource.RLIMIT_NOFILE, 16)):
    resource.setrlimit(limit, (value, value))

def problem(files):
    for name, text in files:
        try:
            compile(text, name, "exec", dont_inherit=True)
        except (SyntaxError, ValueError) as error:
            line = getattr(error, "lineno", None)
            where = f" line {line}" if line else ""
            return f"{name}{where}: not Python ({getattr(error, 'msg', error)})"
        except MemoryError:
            return (f"{name}: compiling it needs more than {memory >> 20} MB of memory: keep "
                    "large data (weights, tables) in a data file the agent reads, not in "
                    "Python source")
        except RecursionError:
            return (f"{name}: nested too deeply for Python to compile (an expression of "
                    "thousands of parts)")
    return None

files = json.loads(sys.stdin.buffer.read())
sys.stdout.write(json.dumps({"problem": problem(files)}) + "\n")
"""


class CheckError(RuntimeError):
    """The check could not be run at all (no process could be started): the arena's fault,
    not the upload's."""


def python_problem(sources: Dict[str, str]) -> Optional[str]:
    """The first problem of the `sources` ({path: text}, in path order) as the team reads it,
    or None if each compiles."""
    if not sources:
        return None
    payload = json.dumps(sorted(sources.items())).encode("utf-8")
    first = min(sources)
    if not AT_ONCE.acquire(timeout=WALL_SECONDS):
        raise CheckError("the arena is checking too many uploads at once: send it again in a "
                         "minute")
    try:
        try:
            child = subprocess.run(
                [sys.executable, "-I", "-S", "-c", CHILD, str(MEMORY_BYTES), str(CPU_SECONDS)],
                input=payload, capture_output=True, timeout=WALL_SECONDS)
        except subprocess.TimeoutExpired:
            return (f"{first}: compiling the Python files took more than {WALL_SECONDS} s; a "
                    "player's files compile in well under a second")
        except OSError as error:
            raise CheckError(f"the arena could not start its Python check: {error}") from None
    finally:
        AT_ONCE.release()
    if child.returncode == 0:
        try:
            return json.loads(child.stdout)["problem"]
        except (ValueError, KeyError, TypeError):
            pass
    if child.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return (f"{first}: compiling the Python files took more than {CPU_SECONDS} s of CPU; "
                "a player's files compile in well under a second")
    if child.returncode < 0:
        return (f"{first}: Python's compiler crashed on these files (signal "
                f"{-child.returncode}): an expression nested this deeply cannot be a player's")
    if b"MemoryError" in child.stderr:  # out of memory before the check could say so
        return (f"{first}: compiling the Python files needs more than {MEMORY_BYTES >> 20} "
                "MB of memory: keep large data (weights, tables) in a data file the agent "
                "reads, not in Python source")
    raise CheckError("the arena's Python check failed: "
                     + child.stderr.decode("utf-8", "replace").strip()[-500:])
