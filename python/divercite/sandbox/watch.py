"""A sandbox's processes read from outside (/proc): the watchdog that enforces its limits, and
their end: every process of the tree killed, stopped ones included, and reaped.
"""

import ctypes
import os
import signal
import threading
import time

from .limits import memory_reason, process_reason

# How often the watchdog reads the sandbox's processes.
WATCH_INTERVAL_SECONDS = 0.05


def children(pid):
    """The process ids whose parent is `pid`, read from /proc (none once it is gone)."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as listed:
                found += [int(child) for child in listed.read().split()]
        except OSError:
            continue
    return found


def descendants(pid):
    """The process ids under `pid` (not itself); gone ones are skipped."""
    found, pending = [], [pid]
    while pending:
        kids = children(pending.pop())
        found += kids
        pending += kids
    return found


def proportional_kb(pid):
    """The process's proportional set size in kB: its own pages, and its share of those it
    shares (a forked child's copy-on-write pages are not counted twice)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def tmpfs_kb(init, folders):
    """What the files on the sandbox's tmpfs folders take, in kB, read through its init's
    view of them (/proc/PID/root); nothing before the sandbox has its own root and mounts."""
    root = f"/proc/{init}/root"
    used = 0
    try:
        if os.path.samestat(os.stat(root), os.stat("/")):
            return 0  # bubblewrap is still setting the sandbox up
        root_device = os.stat(root).st_dev
    except OSError:
        return 0
    for folder in folders:
        try:
            if os.stat(root + folder).st_dev == root_device:
                continue  # not a mount of its own
            info = os.statvfs(root + folder)
        except OSError:
            continue
        used += (info.f_blocks - info.f_bfree) * info.f_frsize >> 10
    return used


def usage(pids):
    """(tasks, memory in MB) of the processes."""
    tasks, kilobytes = 0, 0
    for pid in pids:
        try:
            tasks += len(os.listdir(f"/proc/{pid}/task"))
        except OSError:
            continue
        kilobytes += proportional_kb(pid)
    return tasks, kilobytes >> 10


class Watchdog:
    """Watches one sandboxed process tree from outside; kills it when a limit is hit.

    Memory is the processes' proportional set sizes and the files on the sandbox's tmpfs
    folders (`tmpfs`, paths inside it); where the process has a control group (`group`),
    the kernel's own count too, which holds every page (the watchdog only reads what the
    kernel did)."""

    def __init__(self, limits, pid, kill, group=None, tmpfs=()):
        self.limits = limits
        self.pid = pid
        self.kill = kill
        self.group = group
        self.tmpfs = tuple(tmpfs)
        self.reason = None
        self.done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _kernel_reason(self):
        """The limit the kernel enforced on the group, or None."""
        group = self.group
        if group is None:
            return None
        if group.host.memory is not None and group.memory_killed():
            return memory_reason(self.limits.memory_mb, group.memory_peak_mb())
        if group.host.pids is not None and group.tasks_refused():
            return process_reason(self.limits.processes)
        return None

    def _watch(self):
        while not self.done.wait(WATCH_INTERVAL_SECONDS):
            # bubblewrap's child is the namespace's init (pid 1 inside), not the agent's.
            inits = children(self.pid)
            inside = [pid for init in inits for pid in descendants(init)]
            tasks, used_mb = usage(inside)
            used_mb += sum(tmpfs_kb(init, self.tmpfs) for init in inits) >> 10
            reason = self._kernel_reason()
            if reason is None and used_mb > self.limits.memory_mb:
                reason = memory_reason(self.limits.memory_mb, used_mb)
            elif reason is None and tasks > self.limits.processes:
                reason = process_reason(self.limits.processes)
            if reason is not None:
                self.reason = reason
                self.kill()
                return

    def final_reason(self):
        """The limit that ended the process, or None: what the watchdog saw, or the kernel's
        count read now (the process may end by the kernel's hand before the next look)."""
        if self.reason is None:
            self.reason = self._kernel_reason()
        return self.reason

    def stop(self):
        self.done.set()


def stat_fields(pid):
    """The fields of /proc/PID/stat after the command's name (the state first), or None once
    the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields if len(fields) > 19 else None


def start_time(pid):
    """When the process started, in clock ticks since the boot: with its id, what tells it
    from a later process given the same id. None once it is gone."""
    fields = stat_fields(pid)
    return fields[19] if fields is not None else None


def running(pid):
    """Whether the process exists and is not a zombie (whose parent has not reaped it)."""
    fields = stat_fields(pid)
    return fields is not None and fields[0] not in ("Z", "X")


def reap(members):
    """Reaps those of the processes, (pid, start time) each, that have ended as children of
    this process: bubblewrap's init, once its own parent is gone, comes back to this process
    (a subreaper, see become_subreaper), and no one else would reap it. The start time keeps
    another child that got a dead one's id from being reaped behind its owner's back."""
    for pid, started in members:
        fields = stat_fields(pid)
        if fields is None or fields[19] != started or int(fields[1]) != os.getpid():
            continue
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass


def wait_gone(pids, timeout=2.0, orphans=()):
    """Waits until none of the processes runs (the namespace's end kills them a moment after
    bubblewrap's), reaping those of `orphans` (kill_tree's) that come back to this process."""
    deadline = time.monotonic() + timeout
    while True:
        reap(orphans)
        if not any(running(pid) for pid in pids):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)


# prctl(2)'s option that makes a process the reaper of its descendants' orphans.
PR_SET_CHILD_SUBREAPER = 36


def become_subreaper():
    """Makes this process the parent of its descendants' orphans (where the kernel allows it):
    bubblewrap's init whose first process is killed first comes back here to be reaped,
    rather than to the host's init, which in a container may never reap it."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def kill_group(pid, with_descendants=True):
    """SIGKILL to the process group that `pid` leads (bubblewrap's: its whole sandbox goes with
    it); the processes that were under it, for wait_gone() once `pid` is reaped. The caller
    must not have reaped `pid` yet, or its id may be another process's."""
    inside = descendants(pid) if with_descendants else []
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return inside


def kill_tree(pid, stop_first=True, timeout=2.0):
    """SIGKILL to `pid` (bubblewrap's first process, or the launcher it will be) and to every
    process under it, stopped ones included; the processes that were under it, (pid, start
    time) each, for wait_gone() once `pid` is reaped. The caller must not have reaped `pid`
    yet, or its id may be another process's.

    `pid` is stopped first (`stop_first`), so that the tree read next is whole: a child it
    made between the read and its death would outlive it with parent 1. That child,
    bubblewrap's init, sets its own parent-death signal only once the sandbox is set up, and
    calls setsid() before, leaving the group: without a SIGKILL of its own, one stopped while
    it set up (a sandbox paused from its start, without a freezer) stayed stopped for good.
    A control group's kill reaches such a child anyway, and a frozen `pid` would not stop
    (the v1 freezer holds it in the kernel): with a group, the caller passes False."""
    if stop_first:
        try:
            os.kill(pid, signal.SIGSTOP)
        except (ProcessLookupError, PermissionError):
            pass
        deadline = time.monotonic() + timeout
        while True:
            fields = stat_fields(pid)
            if fields is None or fields[0] in "TtZX" or time.monotonic() > deadline:
                break
            time.sleep(0.001)
    inside = [(member, start_time(member)) for member in descendants(pid)]
    for member in [member for member, _ in inside] + [pid]:
        try:
            os.kill(member, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return [(member, started) for member, started in inside if started is not None]


def task_states(pids):
    """The state letter of every thread of the processes (gone ones skipped)."""
    states = []
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/stat") as stat:
                    states.append(stat.read().rsplit(")", 1)[1].split()[0])
            except (OSError, IndexError):
                continue
    return states


def stop_all(pid, timeout=2.0):
    """SIGSTOP to `pid` (bubblewrap's) and every process under it, until every thread of them
    is stopped: True then, False if some still ran at the timeout. bubblewrap's own processes
    are stopped too, so that a sandbox stopped while it starts starts nothing. Where no
    freezer is had, this holds only because the sandbox's seccomp filter refuses SIGCONT to
    its processes."""
    deadline = time.monotonic() + timeout
    while True:
        members = [pid] + descendants(pid)
        for member in members:
            try:
                os.kill(member, signal.SIGSTOP)
            except (ProcessLookupError, PermissionError):
                pass
        if all(state in "TtZX" for state in task_states([pid] + descendants(pid))):
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)


def continue_all(pid):
    """SIGCONT to `pid` and every process under it (what stop_all stopped)."""
    for member in [pid] + descendants(pid):
        try:
            os.kill(member, signal.SIGCONT)
        except (ProcessLookupError, PermissionError):
            pass
