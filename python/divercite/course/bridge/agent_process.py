"""The bridge's side of the agents' processes (agent_child.py runs in them).

Every game gets a fresh process per side: the agent's module, the modules it imports from its
own folder, its class attributes and module globals all start anew, as under the course's
main_divercite.py, which runs one game per Python process. The launcher keeps one process
started ahead (the spare), so the import of the course's code and of the agent is paid while
the bridge is idle, not on the clock of a game's first move.
"""

import concurrent.futures
import contextlib
import json
import os
import queue
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
    (divercite.sandbox) when one is given, where it runs only while asked something: it is
    paused from the moment it is ready (its imports done) and between its answers."""

    def __init__(self, config, on_warning, sandbox=None, frozen=False, log=None):
        self.started = time.monotonic()
        self.kill_lock = threading.Lock()
        argv = [sys.executable, "-c", BOOT, PACKAGE_FOLDER, json.dumps(config)]
        streams = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=config["agent_dir"],
                       text=True, encoding="utf-8", errors="replace", bufsize=1)
        if log is not None:  # its stderr into the agent's log (agent_log.py), else the bridge's
            streams["stderr"] = subprocess.PIPE
        self.sandboxed = None
        if sandbox is not None:
            self.sandboxed = sandboxes.SandboxedProcess(sandbox, argv, os.environ,
                                                        frozen=frozen, **streams)
            self.process = self.sandboxed.popen
        else:
            # Its own process group, so that a kill also ends what the agent started.
            self.process = subprocess.Popen(argv, start_new_session=True, **streams)
        if log is not None:
            log.follow(self.process.stderr.buffer)
        self.replies = queue.Queue()
        self.on_warning = on_warning
        self.ready_message = None
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        first = True
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
            if first:
                first = False
                self.pause()  # ready: nothing of it runs until it is asked something
            if "warning" in message:
                self.on_warning(message["warning"])
            else:
                self.replies.put(message)
        self.replies.put(None)

    def pause(self):
        """In a sandbox: none of the agent's processes runs until `resume` (the opponent's
        turn: nothing of it may run then, as nothing does under the course's own master)."""
        if self.sandboxed is not None:
            self.sandboxed.pause()

    def resume(self):
        if self.sandboxed is not None:
            self.sandboxed.resume()

    def limit_reason(self):
        """The sandbox's limit that ended the process, or None."""
        return self.sandboxed.limit_reason() if self.sandboxed is not None else None

    def request(self, **message):
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError):  # a broken pipe, or closed by kill()
            pass  # it has exited: its reply will be the end of its output

    def ask(self, timeout=None, **message):
        """The reply to one request, the process running only meanwhile; None if it has
        exited; raises queue.Empty on timeout (still running: kill it)."""
        self.resume()
        self.request(**message)
        reply = self.reply(timeout)
        self.pause()
        return reply

    def reply(self, timeout=None):
        """The next reply; None if the process has exited; raises queue.Empty on timeout."""
        message = self.replies.get(timeout=timeout)
        if message is None:
            self.replies.put(None)  # every later call sees the end too
        return message

    def ready(self):
        """None once the course's code and the agent are imported, else why not. A process
        started frozen runs for its imports now."""
        if self.ready_message is None:
            self.resume()
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
        process namespace and control group."""
        with self.kill_lock:
            if self.sandboxed is not None:
                self.sandboxed.kill()
                return
            # Until it is reaped (by poll or wait, under this lock) its ids are not reused.
            if self.process.poll() is None:
                sandboxes.kill_group(self.process.pid, with_descendants=False)
            try:
                self.process.stdin.close()
            except (OSError, ValueError):  # a broken pipe, or a request() writing meanwhile
                pass
            self.process.wait()


class AgentLauncher:
    """Starts agent processes, keeping one ready ahead of need; each in a sandbox when one is
    given."""

    def __init__(self, agent_path, course_dir, extra_path, on_warning, sandbox=None, log=None):
        self.config = {"agent_path": agent_path, "agent_dir": os.path.dirname(agent_path),
                       "course_dir": course_dir, "extra_path": list(extra_path)}
        self.sandbox = sandbox
        if sandbox is not None:
            self.config["sandbox"] = sandbox.inside_config()
        self.on_warning = on_warning
        self.log = log  # agent_log.AgentLog: what its processes write, kept for its author
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
            on_warning, frozen, started = request
            try:
                started.set_result(AgentProcess(self.config, on_warning, self.sandbox, frozen,
                                                self.log))
            except BaseException as error:  # given to the caller, which raises it
                started.set_exception(error)

    def start(self, on_warning=None, frozen=False):
        started = concurrent.futures.Future()
        self.start_requests.put((on_warning or self.on_warning, frozen, started))
        return started.result()

    def prepare(self, frozen=False):
        """Starts the spare if there is none. It imports at once while the bridge is idle
        (before its first game); during a game (`frozen`), only while the game's own agent
        thinks (see `thinking`), never on the opponent's time."""
        with self.lock:
            if self.spare is None or self.spare.process.poll() is not None:
                self.spare = self.start(frozen=frozen)

    @contextlib.contextmanager
    def thinking(self):
        """The agent's turn: the spare may run too (its imports, in a sandbox)."""
        with self.lock:
            spare = self.spare
        if spare is not None and spare.ready_message is None:
            spare.resume()
        try:
            yield
        finally:
            if spare is not None:
                spare.pause()

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
