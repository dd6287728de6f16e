"""One process started in a sandbox, held as a whole: paused and resumed, killed, and the
limit that ended it."""

import subprocess
import threading
import time

from .watch import (Watchdog, continue_all, descendants, kill_tree, stop_all, task_states,
                    wait_gone)

# How often a process paused by signals is checked to be still stopped.
HOLD_INTERVAL_SECONDS = 0.02


class SandboxedProcess:
    """`argv` started in `sandbox` (a box.Sandbox) with subprocess.Popen's other arguments,
    in a process group of its own; `frozen`: it runs only once resumed.

    While paused, none of its processes runs: its control group is frozen where the host
    gives a freezer, else every process is stopped (SIGSTOP, checked until every thread is
    stopped; the sandbox's seccomp filter keeps them from waking each other).

    Should the owner die first (a runner kills the bridge of a game's loser), its cleaner
    ends what is left (box.py, cleanup.py)."""

    def __init__(self, sandbox, argv, runner_environment, frozen=False, **popen):
        self.limits = sandbox.limits
        self.launch = sandbox.launch(argv, runner_environment, frozen=frozen)
        self.lock = threading.Lock()
        try:
            self.popen = subprocess.Popen(self.launch.argv, env=self.launch.env,
                                          pass_fds=self.launch.pass_fds,
                                          start_new_session=True, **popen)
        except BaseException:
            self.launch.release()
            raise
        self.launch.close_passed()
        self.group = self.launch.group
        self.freezer = self.group is not None and sandbox.host.freezer is not None
        # Frozen from its start by its group; without a freezer, stopped now (bubblewrap's
        # first process, before it has started anything).
        self.paused = frozen and self.freezer
        self.stopped = False
        self.pauses = 0  # the pauses by signals so far: each one's holder ends with it
        if frozen and not self.freezer:
            self.pause()
        self.watchdog = Watchdog(self.limits, self.popen.pid, self.kill, self.group,
                                 sandbox.writable_folders())

    @property
    def pid(self):
        return self.popen.pid

    def pause(self):
        with self.lock:
            if self.popen.poll() is not None or self.paused:
                return
            self.paused = True
            # A group whose freeze has not settled (a task inside a long system call) is
            # stopped by signals as well.
            self.stopped = not (self.freezer and self.group.freeze())
            if self.stopped:
                stop_all(self.popen.pid)
                self.pauses += 1
                threading.Thread(target=self._hold, args=(self.pauses,), daemon=True).start()

    def _hold(self, pause):
        """While paused by signals, stops again whatever runs: a SIGCONT that no filter sees
        (the kernel's own, to a stopped process group orphaned by an exit) must not let it
        run through the opponent's turn."""
        while True:
            time.sleep(HOLD_INTERVAL_SECONDS)
            with self.lock:
                if pause != self.pauses or not self.paused or self.popen.poll() is not None:
                    return
                members = [self.popen.pid] + descendants(self.popen.pid)
                if not all(state in "TtZX" for state in task_states(members)):
                    stop_all(self.popen.pid)

    def resume(self):
        with self.lock:
            if self.popen.poll() is not None or not self.paused:
                return
            self.paused = False
            if self.freezer:
                self.group.thaw()
            if self.stopped:
                continue_all(self.popen.pid)

    def limit_reason(self):
        """The sandbox's limit that ended the process, or None."""
        return self.watchdog.final_reason()

    def kill(self):
        """Ends the process and everything it started, at once, stopped or not: bubblewrap's
        processes each (its init ends the whole process namespace), and the control group;
        then waits until they are reaped."""
        with self.lock:
            self.watchdog.stop()
            inside = []
            # Until it is reaped (by poll or wait, under this lock) its ids are not reused.
            if self.popen.poll() is None:
                inside = kill_tree(self.popen.pid, stop_first=self.group is None)
            if self.group is not None:
                self.group.kill()
            try:
                if self.popen.stdin is not None:
                    self.popen.stdin.close()
            except (OSError, ValueError):  # a broken pipe, or a write meanwhile
                pass
            self.popen.wait()
            wait_gone([pid for pid, _ in inside], orphans=inside)
            self.watchdog.final_reason()  # read while the group's counts are there
            self.launch.release()

    def wait(self):
        return self.popen.wait()
