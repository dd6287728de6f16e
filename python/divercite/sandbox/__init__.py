"""A sandbox for untrusted programs: students' agents (course_engine.py --sandbox), and any
engine (python3 -m divercite.sandbox.run PROGRAM).

Each process runs under bubblewrap in namespaces of its own: no network (a loopback of its
own), its own process tree (all of it killed when the process ends or is killed), and a file
system that shows only the system's programs and libraries (read-only), an /etc made for it,
the folders its owner shows it (the course's code, this package), and a private copy of its
own folder on a size-limited tmpfs at the folder's own path (agents write files beside
themselves), with a private /tmp and /dev/shm. Nothing else: not the user's home, not the
host's /etc, not the other agents' folders, not the runner's files, not the runner's
environment (bubblewrap itself gets only the sandbox's few settings). Inside, it is the user
nobody (65534), whether the runner is root (the processes are nobody outside too) or a
service's own user (they are that user outside, and see nothing only that user may read).

What holds each part, by module:
  - box: the mounts, who the processes are, the cleaner that ends what its owner leaves
    (its docstring says why root and other users get the same sandbox);
  - staging: the agent's folder checked and copied without following any link out of it,
    its size and number of files bounded; the copy readable by the sandbox's user alone;
  - etc: the sandbox's /etc, made for it: its user, localhost, the loader's cache, the
    interpreter's settings;
  - hidden: what of the folders shown as they are only the sandbox's user may read, covered;
  - syscalls: a seccomp filter that allows the system calls Python agents need and refuses
    the rest (io_uring, ptrace, bpf, namespaces, mounts, ...), SIGCONT among the sandbox's
    processes, and changes of the cores it is pinned to;
  - cgroups: where the host lets this process make control groups (root, or a delegated
    cgroup v2), each sandboxed process tree gets its own: the kernel's freezer holds it
    while its opponent thinks, a memory limit counts every page it is charged for (a memfd,
    SysV shared memory and tmpfs files included), and a limit on its tasks;
  - watch: the watchdog outside, for every host: the processes' proportional set sizes and
    their tmpfs files against the memory limit, their tasks against the process limit; and
    where no freezer is had, SIGSTOP to every process, checked until every thread is stopped
    (without a memory cgroup, the filter refuses memfd and SysV shared memory, which no
    count outside would see); the end of a sandbox: SIGKILL to each of its processes,
    stopped ones included, and each reaped;
  - inside: RLIMIT_AS and RLIMIT_NPROC set inside the sandbox's user namespace;
  - cores: each sandbox pinned to `cpus` cores, claimed across all the sandboxes of a user.
A limit that is hit ends the process with a reason (`memory limit: ...`, `process limit:
...`), which its owner reports as `info string limit: <reason>`.
"""

from .box import Sandbox
from .cgroups import detect as host_groups
from .limits import Limits, SandboxError
from .process import SandboxedProcess
from .staging import FolderRefused, folder_problem
from .watch import Watchdog, descendants, kill_group, wait_gone

__all__ = ["Sandbox", "SandboxedProcess", "Limits", "SandboxError", "FolderRefused",
           "folder_problem", "host_groups", "Watchdog", "descendants", "kill_group",
           "wait_gone"]
