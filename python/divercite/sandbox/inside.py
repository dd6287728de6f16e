"""What a sandboxed process sets up itself, before anything of the untrusted code runs (box.py
builds the sandbox around it): the course bridge's agent process calls `enter`; any other
program is started through `main`, which enters, then executes it.

The limits are set here, inside the sandbox's user namespace, because there RLIMIT_NPROC
counts the sandbox's own tasks only; each is one above what the watchdog outside allows, so
that a process that reaches a limit is seen doing so and ended with the reason.
"""

import errno
import json
import os
import resource
import shutil
import sys

from .limits import memory_reason, process_reason

# Above the limit the watchdog enforces: one task for bubblewrap's init, one to be seen.
EXTRA_TASKS = 2
# A program run by `main` is started as `python3 -c BOOT <folder holding the package> <config
# json> PROGRAM ARGS...`.
BOOT = ("import sys; sys.path.insert(0, sys.argv[1]); "
        "from divercite.sandbox.inside import main; main()")


def enter(config):
    """Sets the limits, then copies the process's folder to its writable tmpfs and goes
    there."""
    memory = config["memory_mb"] << 20
    address_space = memory + memory // 4  # a process's mappings exceed what it uses
    for limit, value in ((resource.RLIMIT_NPROC, config["processes"] + EXTRA_TASKS),
                         (resource.RLIMIT_AS, address_space), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))
    # Links as links: staging.py kept only those that lead inside the folder.
    shutil.copytree(config["folder_original"], config["folder"], dirs_exist_ok=True,
                    symlinks=True, copy_function=shutil.copy)
    os.chdir(config["folder"])


def limit_hit(config, exception):
    """The limit an exception of the untrusted code says it hit, or None."""
    if isinstance(exception, MemoryError):
        return memory_reason(config["memory_mb"])
    refused_task = (isinstance(exception, OSError) and exception.errno == errno.EAGAIN or
                    isinstance(exception, RuntimeError) and
                    "can't start new thread" in str(exception))
    if refused_task:
        return process_reason(config["processes"])
    return None


def main():
    config = json.loads(sys.argv[2])
    program = sys.argv[3:]
    try:
        enter(config)
    except OSError as error:
        sys.stderr.write(f"sandbox: setting up failed: {error}\n")
        sys.exit(125)
    try:
        os.execv(program[0], program)
    except OSError as error:
        sys.stderr.write(f"sandbox: cannot run {program[0]}: {error}\n")
        sys.exit(127)
