"""A sandbox's processes read from outside (/proc): the watchdog that enforces its limits, and
the wait for its end."""

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


def running(pid):
    """Whether the process exists and is not a zombie (whose parent has not reaped it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_gone(pids, timeout=2.0):
    """Waits until none of the processes runs: the namespace's end kills them a moment after
    bubblewrap's."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(running(pid) for pid in pids):
            return True
        time.sleep(0.01)
    return False


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
