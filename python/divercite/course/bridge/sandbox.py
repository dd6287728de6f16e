"""A sandbox for every agent process (course_engine.py --sandbox): untrusted code, contained.

Each agent process runs under bubblewrap in namespaces of its own: no network (a loopback of
its own), its own process tree (all of it killed when the process ends or is killed), and a
file system that shows only the system's programs and libraries (read-only), the course's
code, the bridge's package, and a private copy of the agent's folder on a size-limited tmpfs
at the folder's own path (agents write files beside themselves), with a private /tmp. Nothing
else: not the user's home, not the other agents' folders, not the runner's files.

Limits, as a demanding host needs them and any Linux user can set them (no root, no cgroup):
  - memory: each process's address space (RLIMIT_AS, set inside, sandbox_inside.py), and the
    sum of the processes' proportional set sizes, watched from outside (Watchdog);
  - processes and threads: RLIMIT_NPROC, set inside the sandbox's user namespace, where it
    counts only the sandbox's own tasks (and watched from outside as well);
  - cores: the process is pinned to --cpus cores, claimed so that sandboxes started by
    different bridges spread over the machine, and a seccomp filter refuses
    sched_setaffinity, so that no agent takes its opponent's cores.
A limit that is hit ends the agent's process with a reason (`memory limit ...`, `process limit
...`) that the bridge gives as the move's error. Run as root, the sandbox drops to the user
nobody first (root is exempt from RLIMIT_NPROC), so the files are staged where it can read
them: this module copies what the sandbox shows into a folder of its own, once per bridge.
"""

import dataclasses
import errno
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

# The folders this module stages the sandbox's files in, under the temporary folder.
STAGE_PREFIX = "divercite-sandbox-"
# A staged folder unlocked this long after its last change belongs to a killed bridge.
ABANDONED_AFTER_SECONDS = 60
# The staged folder's cleaner: removes it once the bridge's end closes its input.
CLEANER = "import shutil, sys; sys.stdin.read(); shutil.rmtree(sys.argv[1], ignore_errors=True)"
# Run as root, the sandboxed processes run as this user and group.
NOBODY = 65534
# Where, inside the sandbox, the staged (read-only) copy of the agent's folder lies; the
# process copies it to the folder's own path, a tmpfs, before importing anything.
AGENT_ORIGINAL = "/run/divercite/agent"
# How often the watchdog reads the sandbox's processes.
WATCH_INTERVAL_SECONDS = 0.05
# The top-level folders of a Debian-like system that the sandbox shows, read-only (a symlink
# into /usr on merged-/usr systems is recreated as one).
SYSTEM_FOLDERS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
INSTALL_HINT = "apt-get install bubblewrap python3-seccomp"


class SandboxError(Exception):
    """The sandbox cannot be set up here; the message says what is missing."""


@dataclasses.dataclass(frozen=True)
class Limits:
    memory_mb: int = 2048
    cpus: int = 1
    processes: int = 64  # processes and threads together
    scratch_mb: int = 256  # the agent's writable folder and /tmp, each

    def describe(self):
        return (f"{self.memory_mb} MB, {self.processes} processes and threads, "
                f"{self.cpus} core{'s' if self.cpus > 1 else ''}")


def memory_reason(memory_mb, used_mb=None):
    used = f" ({used_mb} MB in use)" if used_mb is not None else ""
    return f"memory limit: the agent's processes may use {memory_mb} MB{used}"


def process_reason(processes):
    return f"process limit: the agent may run {processes} processes and threads together"


def seccomp_filter():
    """The compiled filter: everything allowed but sched_setaffinity (EPERM)."""
    try:
        import seccomp
    except ImportError:
        raise SandboxError("--sandbox needs libseccomp's Python module (to keep each agent on "
                           f"its cores), which {sys.executable} cannot import: {INSTALL_HINT}")
    rules = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "sched_setaffinity")
    with tempfile.TemporaryFile() as compiled:
        rules.export_bpf(compiled)
        compiled.seek(0)
        return compiled.read()


def copy_tree(source, destination, only=None):
    """A copy readable by anyone (the sandbox may run as nobody); `only` picks top-level
    names."""
    def ignore(folder, names):
        skipped = {"__pycache__"}
        if only is not None and os.path.samefile(folder, source):
            skipped |= {name for name in names if not only(name)}
        return skipped

    shutil.copytree(source, destination, ignore=ignore, symlinks=False,
                    copy_function=shutil.copyfile)
    for folder, folders, files in os.walk(destination):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


def folder_size(path):
    return sum(os.path.getsize(os.path.join(folder, name))
               for folder, _, files in os.walk(path) for name in files)


def remove_abandoned_stages():
    """Removes the staged folders of bridges that were killed (their lock is free)."""
    folder = tempfile.gettempdir()
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            # A bridge starting now has not locked its folder yet.
            if (not name.startswith(STAGE_PREFIX) or
                    time.time() - os.stat(path).st_mtime < ABANDONED_AFTER_SECONDS):
                continue
        except OSError:
            continue
        try:
            lock = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass  # in use by a running bridge
        finally:
            os.close(lock)


class CoreClaims:
    """Cores handed out to sandboxes, across all bridges of this user on this machine: a claim
    is an flock on a file named after the core and a slot, held while the sandbox lives, and
    each sandbox takes the cores with the fewest claims (ties: the lowest)."""

    SLOTS = 256

    def __init__(self):
        self.folder = os.path.join(tempfile.gettempdir(), f"divercite-cores-{os.getuid()}")
        os.makedirs(self.folder, mode=0o700, exist_ok=True)

    def _claim(self, core):
        """(fd, slot) of the first free slot of the core, now held."""
        for slot in range(self.SLOTS):
            fd = os.open(os.path.join(self.folder, f"{core}.{slot}"), os.O_RDWR | os.O_CREAT,
                         0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd, slot
            except BlockingIOError:
                os.close(fd)
        raise SandboxError(f"all {self.SLOTS} claims on core {core} are held")

    def claim(self, count):
        """(cores, fds): `count` cores of those this process may use; close the fds to
        release them."""
        allowed = sorted(os.sched_getaffinity(0))
        chosen, fds = [], []
        for _ in range(min(count, len(allowed))):
            best = None
            for core in allowed:
                if core in chosen:
                    continue
                fd, slot = self._claim(core)
                if best is None or slot < best[2]:
                    if best is not None:
                        os.close(best[1])
                    best = (core, fd, slot)
                else:
                    os.close(fd)
            chosen.append(best[0])
            fds.append(best[1])
        return chosen, fds


class Sandbox:
    """What every sandboxed process of one bridge shares: the staged files, the filter, the
    mounts; `command` wraps one process's command line."""

    def __init__(self, limits, agent_dir, course_dir, seahorse_dir, package_folder,
                 readable=()):
        self.limits = limits
        self.bwrap = shutil.which("bwrap")
        if self.bwrap is None:
            raise SandboxError(f"--sandbox needs bubblewrap (bwrap): {INSTALL_HINT}")
        # util-linux's, found where the system keeps them (not a PATH's shims).
        self.setpriv, self.taskset = (shutil.which(tool, path="/usr/bin:/bin") or tool
                                      for tool in ("setpriv", "taskset"))
        self.drop_root = os.geteuid() == 0
        self.filter = seccomp_filter()
        self.claims = CoreClaims()
        self.agent_dir = agent_dir
        remove_abandoned_stages()
        self.stage = tempfile.mkdtemp(prefix=STAGE_PREFIX)
        # Held while this bridge lives: a bridge killed before its close leaves its folder
        # unlocked, and the next bridge removes it.
        self.stage_lock = os.open(self.stage, os.O_RDONLY)
        fcntl.flock(self.stage_lock, fcntl.LOCK_EX)
        # Removes the folder when this bridge ends, killed included (a runner kills the
        # engine of a game's loser): it waits for the end of a pipe only this process holds.
        self.cleaner = subprocess.Popen(
            [sys.executable, "-c", CLEANER, self.stage], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            os.chmod(self.stage, 0o755)
            self.mounts = self._stage(agent_dir, course_dir, seahorse_dir, package_folder)
        except BaseException:
            self.close()
            raise
        self.agent_bytes = folder_size(os.path.join(self.stage, "agent"))
        for folder in readable:
            self.mounts.append(("--ro-bind", os.path.abspath(folder), os.path.abspath(folder)))
        with open(os.path.join(self.stage, "seccomp.bpf"), "wb") as compiled:
            compiled.write(self.filter)

    def _stage(self, agent_dir, course_dir, seahorse_dir, package_folder):
        """Copies what the sandbox shows; returns the read-only binds (source, destination)."""
        binds = []

        def stage(source, name, destination, only=None):
            copy_tree(source, os.path.join(self.stage, name), only)
            binds.append(("--ro-bind", os.path.join(self.stage, name), destination))

        stage(agent_dir, "agent", AGENT_ORIGINAL)
        if course_dir != agent_dir:
            # Only the course's modules: an agent kept in the course's folder is not shown.
            stage(course_dir, "course", course_dir, only=lambda name: name.endswith(
                "_divercite.py"))
        if seahorse_dir is not None:
            stage(os.path.join(seahorse_dir, "seahorse"), "seahorse",
                  os.path.join(seahorse_dir, "seahorse"))
        stage(os.path.join(package_folder, "divercite"), "divercite",
              os.path.join(package_folder, "divercite"))
        return binds

    def close(self):
        shutil.rmtree(self.stage, ignore_errors=True)
        os.close(self.stage_lock)
        self.cleaner.stdin.close()

    def _system_mounts(self):
        arguments = []
        for folder in SYSTEM_FOLDERS:
            if os.path.islink(folder):
                arguments += ["--symlink", os.readlink(folder), folder]
            elif os.path.isdir(folder):
                arguments += ["--ro-bind", folder, folder]
        # The interpreter's own prefixes where they are not under /usr (a venv, pyenv).
        for prefix in sorted({os.path.realpath(p) for p in (sys.prefix, sys.base_prefix,
                                                            sys.exec_prefix)}):
            if prefix != "/usr" and not prefix.startswith("/usr/"):
                arguments += ["--ro-bind", prefix, prefix]
        return arguments

    def command(self, argv, environment):
        """(argv, pass_fds, cores fds to close when the process ends) of `argv` run in a new
        sandbox: its seccomp filter is read from the first fd of pass_fds."""
        limits = self.limits
        cores, core_fds = self.claims.claim(limits.cpus)
        scratch = str(limits.scratch_mb << 20)
        filter_fd = os.open(os.path.join(self.stage, "seccomp.bpf"), os.O_RDONLY)
        prefix = [self.setpriv]
        if self.drop_root:
            prefix += [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        prefix += [self.taskset, "--cpu-list", ",".join(map(str, cores))]
        sandbox = [self.bwrap, "--unshare-all", "--unshare-user", "--disable-userns",
                   "--die-with-parent", "--new-session", "--hostname", "sandbox",
                   *self._system_mounts(),
                   "--proc", "/proc", "--dev", "/dev",
                   "--size", scratch, "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
                   "--size", scratch, "--tmpfs", "/tmp"]
        # Parents before children: the agent's writable folder may lie inside the course's
        # (the course's own example players) or the other way round.
        agent_size = str((limits.scratch_mb << 20) + self.agent_bytes)
        mounts = self.mounts + [("--tmpfs", None, self.agent_dir)]
        for kind, source, destination in sorted(mounts, key=lambda m: m[2].count("/")):
            if kind == "--tmpfs":
                sandbox += ["--size", agent_size, "--tmpfs", destination]
            else:
                sandbox += [kind, source, destination]
        sandbox += ["--remount-ro", "/", "--chdir", self.agent_dir,
                    "--seccomp", str(filter_fd), "--clearenv"]
        threads = str(limits.cpus)
        settings = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp",
                    "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2", "OMP_NUM_THREADS": threads,
                    "OPENBLAS_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
        for name in ("PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"):
            if name in environment:
                settings[name] = environment[name]
        for name, value in settings.items():
            sandbox += ["--setenv", name, value]
        return prefix + sandbox + ["--"] + argv, [filter_fd], core_fds

    def inside_config(self):
        """What the process sets up inside (sandbox_inside.enter)."""
        return {"memory_mb": self.limits.memory_mb, "processes": self.limits.processes,
                "agent_original": AGENT_ORIGINAL}


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
