"""The bridge's side of the agents' processes (agent_child.py runs in them).

Every game gets a fresh process per side: the agent's module, the modules it imports from its
own folder, its class attributes and module globals all start anew, as under the course's
main_divercite.py, which runs one game per Python process. The launcher keeps one process
started ahead (the spare), so the import of the course's code and of the agent is paid while
the bridge is idle, not on the clock of a game's first move.
"""

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

from .agent_child import BOOT

# The folder holding the package divercite (this file is divercite/course/bridge/...).
PACKAGE_FOLDER = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))


class AgentProcess:
    """One agent process, spoken to in JSON lines over its stdin and stdout."""

    def __init__(self, config, on_warning):
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "-c", BOOT, PACKAGE_FOLDER, json.dumps(config)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=config["agent_dir"],
            text=True, encoding="utf-8", bufsize=1,
            # Its own process group, so that a kill also ends what the agent started.
            start_new_session=True)
        self.replies = queue.Queue()
        self.on_warning = on_warning
        self.ready_message = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue  # cannot happen: the agent's stdout is not this pipe
            if "warning" in message:
                self.on_warning(message["warning"])
            else:
                self.replies.put(message)
        self.replies.put(None)

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
            return f"the agent's process exited while starting ({self.exit_status()})"
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
        """Ends the process and everything it started, at once."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.process.stdin.close()
        except (OSError, ValueError):  # a broken pipe, or a request() writing meanwhile
            pass
        self.process.wait()


class AgentLauncher:
    """Starts agent processes, keeping one ready ahead of need."""

    def __init__(self, agent_path, course_dir, extra_path, on_warning):
        self.config = {"agent_path": agent_path, "agent_dir": os.path.dirname(agent_path),
                       "course_dir": course_dir, "extra_path": list(extra_path)}
        self.on_warning = on_warning
        self.spare = None
        self.lock = threading.Lock()

    def start(self):
        return AgentProcess(self.config, self.on_warning)

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
