"""The bridge's side of the agents' processes (agent_child.py runs in them).

Every game gets a fresh process per side: the agent's module, the modules it imports from its
own folder, its class attributes and module globals all start anew, as under the course's
main_divercite.py, which runs one game per Python process. The launcher keeps one process
started ahead (the spare), so the import of the course's code and of the agent is paid while
the bridge is idle, not on the clock of a game's first move.
"""

import concurrent.futures
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from ... import sandbox as sandboxes
from .agent_child import BOOT

# The folder holding the package divercite (this file is divercite/course/bridge/...).
PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
# The longest line the bridge reads from an agent's process: an agent that writes on the
# bridge's own pipe cannot make it hold more.
LONGEST_REPLY = 1 << 16


class AgentProcess:
    """One agent process, spoken to in JSON lines over its stdin and stdout; in a sandbox
    (sandbox.py) when one is given."""

    def __init__(self, config, on_warning, sandbox=None):
        self.started = time.monotonic()
        self.kill_lock = threading.Lock()
        argv = [sys.executable, "-c", BOOT, PACKAGE_FOLDER, json.dumps(config)]
        pass_fds, self.core_fds, self.watchdog = (), [], None
        if sandbox is not None:
            argv, pass_fds, self.core_fds = sandbox.command(argv, os.environ)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=config["agent_dir"],
                text=True, encoding="utf-8", bufsize=1, pass_fds=pass_fds,
                # Its own process group, so that a kill also ends what the agent started.
                start_new_session=True)
        finally:
            for fd in pass_fds:
                os.close(fd)
        if sandbox is not None:
            self.watchdog = sandboxes.Watchdog(sandbox.limits, self.process.pid, self.kill)
        self.replies = queue.Queue()
        self.on_warning = on_warning
        self.ready_message = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while True:
            line = self.process.stdout.readline(LONGEST_REPLY)
            if not line:
                break
            try:
                message = json.loads(line)
            except ValueError:
                # Not the agent_child's: an agent that writes on this pipe (its stdout is
                # stderr) has broken the bridge's contract.
                self.kill()
                break
            if not isinstance(message, dict):
                continue
            if "warning" in message:
                self.on_warning(message["warning"])
            else:
                self.replies.put(message)
        self.replies.put(None)

    def pause(self):
        """In a sandbox: stops every process of the agent's until `resume` (the opponent's
        turn: nothing of it may run then, as nothing does under the course's own master)."""
        if self.watchdog is not None and self.process.poll() is None:
            sandboxes.signal_all(self.process.pid, signal.SIGSTOP)

    def resume(self):
        if self.watchdog is not None and self.process.poll() is None:
            sandboxes.signal_all(self.process.pid, signal.SIGCONT)

    def limit_reason(self):
        """The sandbox's limit that ended the process, or None."""
        return self.watchdog.reason if self.watchdog is not None else None

    def request(self, **message):
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):  # a broken pipe, or closed by kill()
            pass  # it has exited: its reply will be the end of its output

    def reply(self, timeout=None):
        """The next reply; None if the process has exited; raises queue.Empty on timeout."""
        message = self.replies.get(timeout=timeout)
        if message is None:
            self.replies.put(None)  # every later call sees the end too
        return message

    def ready(self):
        """None once the course's code and the agent are imported, else why not."""
        if self.ready_message is None:
            self.ready_message = self.reply()
        if self.ready_message is None:
            return (self.limit_reason() or
                    f"the agent's process exited while starting ({self.exit_status()})")
        return self.ready_message.get("fatal")

    def author(self):
        return (self.ready_message or {}).get("author") or None

    def exit_status(self):
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return "still running"
        if code < 0:
            return f"killed by signal {-code}"
        return f"exit code {code}"

    def kill(self):
        """Ends the process and everything it started, at once: in a sandbox, its whole
        process namespace, which ends with bubblewrap's process."""
        with self.kill_lock:
            inside = []
            if self.watchdog is not None:
                self.watchdog.stop()
            # Until it is reaped (by poll or wait, under this lock) its ids are not reused.
            if self.process.poll() is None:
                inside = sandboxes.kill_group(self.process.pid,
                                              with_descendants=self.watchdog is not None)
            try:
                self.process.stdin.close()
            except (OSError, ValueError):  # a broken pipe, or a request() writing meanwhile
                pass
            self.process.wait()
            sandboxes.wait_gone(inside)
            while self.core_fds:
                os.close(self.core_fds.pop())


class AgentLauncher:
    """Starts agent processes, keeping one ready ahead of need; each in a sandbox when one is
    given."""

    def __init__(self, agent_path, course_dir, extra_path, on_warning, sandbox=None):
        self.config = {"agent_path": agent_path, "agent_dir": os.path.dirname(agent_path),
                       "course_dir": course_dir, "extra_path": list(extra_path)}
        self.sandbox = sandbox
        if sandbox is not None:
            self.config["sandbox"] = sandbox.inside_config()
        self.on_warning = on_warning
        self.spare = None
        self.lock = threading.Lock()
        # Every process is started from this one thread, which lives as long as the bridge:
        # a sandbox dies with the thread that started it (its parent-death signal), and the
        # bridge's other threads end after each move.
        self.start_requests = queue.Queue()
        threading.Thread(target=self._starter, daemon=True).start()

    def _starter(self):
        while True:
            request = self.start_requests.get()
            if request is None:
                return
            on_warning, started = request
            try:
                started.set_result(AgentProcess(self.config, on_warning, self.sandbox))
            except BaseException as error:  # given to the caller, which raises it
                started.set_exception(error)

    def start(self, on_warning=None):
        started = concurrent.futures.Future()
        self.start_requests.put((on_warning or self.on_warning, started))
        return started.result()

    def prepare(self):
        """Starts the spare if there is none (it imports while the bridge waits)."""
        with self.lock:
            if self.spare is None or self.spare.process.poll() is not None:
                self.spare = self.start()

    def take(self):
        """A fresh process for a new game: the spare if there is one."""
        with self.lock:
            process, self.spare = self.spare, None
        if process is None or process.process.poll() is not None:
            process = self.start()
        return process

    def close(self):
        with self.lock:
            if self.spare is not None:
                self.spare.kill()
                self.spare = None
        self.start_requests.put(None)
        if self.sandbox is not None:
            self.sandbox.close()
