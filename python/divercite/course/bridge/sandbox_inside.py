"""What a sandboxed agent process sets up itself, before importing anything of the agent's
(sandbox.py builds the sandbox around it).

The limits are set here, inside the sandbox's user namespace, because there RLIMIT_NPROC
counts the sandbox's own tasks only; each is one above what the watchdog outside allows, so
that an agent that reaches a limit is seen doing so and its game ends with the reason.
"""

import errno
import os
import resource
import shutil

from .sandbox import memory_reason, process_reason

# Above the limit the watchdog enforces: one task for bubblewrap's init, one to be seen.
EXTRA_TASKS = 2


def enter(config, agent_dir):
    """Sets the limits, then copies the agent's folder to its writable tmpfs and goes there."""
    memory = config["memory_mb"] << 20
    address_space = memory + memory // 4  # a process's mappings exceed what it uses
    for limit, value in ((resource.RLIMIT_NPROC, config["processes"] + EXTRA_TASKS),
                         (resource.RLIMIT_AS, address_space), (resource.RLIMIT_CORE, 0)):
        resource.setrlimit(limit, (value, value))
    shutil.copytree(config["agent_original"], agent_dir, dirs_exist_ok=True,
                    copy_function=shutil.copyfile)
    os.chdir(agent_dir)


def limit_hit(config, exception):
    """The limit an exception of the agent's says it hit, or None."""
    if isinstance(exception, MemoryError):
        return memory_reason(config["memory_mb"])
    refused_task = (isinstance(exception, OSError) and exception.errno == errno.EAGAIN or
                    isinstance(exception, RuntimeError) and
                    "can't start new thread" in str(exception))
    if refused_task:
        return process_reason(config["processes"])
    return None
