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
    """Watches one sandboxed process tree from outside; kills it when a limit is hit."""

    def __init__(self, limits, pid, kill):
        self.limits = limits
        self.pid = pid
        self.kill = kill
        self.reason = None
        self.done = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self):
        while not self.done.wait(WATCH_INTERVAL_SECONDS):
            # bubblewrap's child is the namespace's init (pid 1 inside), not the agent's.
            inside = [pid for init in children(self.pid) for pid in descendants(init)]
            tasks, used_mb = usage(inside)
            if used_mb > self.limits.memory_mb:
                self.reason = memory_reason(self.limits.memory_mb, used_mb)
            elif tasks > self.limits.processes:
                self.reason = process_reason(self.limits.processes)
            if self.reason is not None:
                self.kill()
                return

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


def signal_all(pid, number):
    """Sends the signal to every process under `pid` (bubblewrap's), its init excepted, until
    no new one appears: a process forked meanwhile gets it too."""
    sent = set()
    while True:
        inside = {member for init in children(pid) for member in descendants(init)}
        new = inside - sent
        if not new:
            return
        for member in new:
            try:
                os.kill(member, number)
            except (ProcessLookupError, PermissionError):
                pass
        sent |= new
