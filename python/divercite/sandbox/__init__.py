"""A sandbox for untrusted programs: students' agents (course_engine.py --sandbox), and any
engine (python3 -m divercite.sandbox.run PROGRAM).

Each process runs under bubblewrap in namespaces of its own: no network (a loopback of its
own), its own process tree (all of it killed when the process ends or is killed), and a file
system that shows only the system's programs and libraries (read-only), the folders its owner
shows it (the course's code, this package), and a private copy of its own folder on a
size-limited tmpfs at the folder's own path (agents write files beside themselves), with a
private /tmp and a cleared environment. Nothing else: not the user's home, not the other
agents' folders, not the runner's files.

Limits, as a demanding host needs them and any Linux user can set them (no root, no cgroup):
  - memory: each process's address space (RLIMIT_AS, set inside: inside.py), and the sum of
    the processes' proportional set sizes, watched from outside (watch.py);
  - processes and threads: RLIMIT_NPROC, set inside the sandbox's user namespace, where it
    counts only the sandbox's own tasks (and watched from outside as well);
  - cores: the process is pinned to `cpus` cores, claimed so that sandboxes started by
    different owners spread over the machine (cores.py), and a seccomp filter refuses
    sched_setaffinity, so that no agent takes its opponent's cores; and the course bridge
    stops an agent's processes (SIGSTOP) while its opponent thinks.
A limit that is hit ends the process with a reason (`memory limit: ...`, `process limit:
...`), which its owner reports: the bridge as the move's error, run.py as an info string.
"""

from .box import Sandbox
from .limits import Limits, SandboxError
from .watch import Watchdog, descendants, kill_group, signal_all, wait_gone

__all__ = ["Sandbox", "Limits", "SandboxError", "Watchdog", "descendants", "kill_group",
           "signal_all", "wait_gone"]
