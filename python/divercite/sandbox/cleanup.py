"""What the cleaner (box.py's CLEANER, a process of its own) does once a sandboxes' owner
has ended: ends the processes left in the owner's control groups (a frozen process does not
end with its parent), then every process left of its sandboxes, and removes the staged
folder.

Without a control group, what is left is found by its command line: bubblewrap's arguments
name the staged folder, which is this owner's alone (a random name), from the launcher that
becomes bubblewrap to bubblewrap's init, a copy of it. Those are the processes its owner's
death can leave: one stopped (a sandbox paused from its start) before it set its parent-death
signal; bubblewrap's init whose parent died before letting it go on, which waits for it for
good; whatever they run inside ends with the init, the namespace's. Each is killed, stopped
or not, until none is left.
"""

import os
import shutil
import time

from . import cgroups
from .watch import kill_tree, running, wait_gone

# How long the cleaner goes on finding processes to end (a launcher killed may have started
# its child meanwhile).
CLEAN_SECONDS = 5.0


def sandbox_processes(stage):
    """The running processes, this one apart, whose command line names `stage` or a path
    under it."""
    marker = os.fsencode(stage)
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == os.getpid():
            continue
        try:
            with open(f"/proc/{name}/cmdline", "rb") as command:
                arguments = command.read().split(b"\0")
        except OSError:
            continue
        named = any(argument == marker or argument.startswith(marker + b"/")
                    for argument in arguments)
        if named and running(int(name)):
            found.append(int(name))
    return found


def end_processes(stage):
    """SIGKILL to every process found by sandbox_processes and to everything under it, until
    none is left or CLEAN_SECONDS have passed."""
    deadline = time.monotonic() + CLEAN_SECONDS
    while True:
        found = sandbox_processes(stage)
        if not found or time.monotonic() > deadline:
            return
        ended = []
        for pid in found:
            ended += [pid] + [member for member, _ in kill_tree(pid, timeout=0.5)]
        wait_gone(ended, timeout=1.0)


def clean(stage, group_prefix):
    cgroups.release_groups_of(group_prefix)
    end_processes(stage)
    shutil.rmtree(stage, ignore_errors=True)
