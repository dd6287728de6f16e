"""The sandbox itself: what bubblewrap shows a process and runs it with (package docstring).

Run as root, the sandbox drops to the user nobody first (root is exempt from RLIMIT_NPROC),
so the files are staged where it can read them: a Sandbox copies what it shows into a folder
of its own, once, and a cleaner process removes that folder when its owner ends, killed
included.
"""

import errno
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
import time

from .cores import CoreClaims
from .limits import SandboxError

# The folders this module stages the sandbox's files in, under the temporary folder.
STAGE_PREFIX = "divercite-sandbox-"
# A staged folder unlocked this long after its last change belongs to a killed bridge.
ABANDONED_AFTER_SECONDS = 60
# The staged folder's cleaner: removes it once the bridge's end closes its input.
CLEANER = "import shutil, sys; sys.stdin.read(); shutil.rmtree(sys.argv[1], ignore_errors=True)"
# Run as root, the sandboxed processes run as this user and group.
NOBODY = 65534
# Where, inside the sandbox, the staged (read-only) copy of the process's own folder lies; the
# process copies it to the folder's own path, a tmpfs, before running anything of it.
FOLDER_ORIGINAL = "/run/divercite/folder"
# The top-level folders of a Debian-like system that the sandbox shows, read-only (a symlink
# into /usr on merged-/usr systems is recreated as one).
SYSTEM_FOLDERS = ("/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
INSTALL_HINT = "apt-get install bubblewrap python3-seccomp"


def seccomp_filter():
    """The compiled filter: everything allowed but sched_setaffinity (EPERM)."""
    try:
        import seccomp
    except ImportError:
        raise SandboxError("the sandbox needs libseccomp's Python module (to keep each process "
                           f"on its cores), which {sys.executable} cannot import: "
                           f"{INSTALL_HINT}")
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
                    copy_function=shutil.copy)
    for folder, folders, files in os.walk(destination):
        os.chmod(folder, 0o755)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, 0o755 if os.stat(path).st_mode & 0o111 else 0o644)


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


class Sandbox:
    """What every sandboxed process of one owner (a bridge, a launcher) shares: the staged
    files, the filter, the mounts; `command` wraps one process's command line.

    `folder` is the process's own folder, which it gets a private writable copy of; `shown`
    the other folders it reads, as (source, destination, only): `only(name)` picks the
    source's top-level names to show, None all; `package_folder` holds the package divercite,
    whose `divercite.sandbox.inside` sets the process up inside; `readable` more folders,
    shown read-only where they are, unstaged."""

    def __init__(self, limits, folder, shown, package_folder, readable=()):
        self.limits = limits
        self.bwrap = shutil.which("bwrap")
        if self.bwrap is None:
            raise SandboxError(f"the sandbox needs bubblewrap (bwrap): {INSTALL_HINT}")
        # util-linux's, found where the system keeps them (not a PATH's shims).
        self.setpriv, self.taskset = (shutil.which(tool, path="/usr/bin:/bin") or tool
                                      for tool in ("setpriv", "taskset"))
        self.drop_root = os.geteuid() == 0
        self.filter = seccomp_filter()
        self.claims = CoreClaims()
        self.folder = folder
        remove_abandoned_stages()
        self.stage = tempfile.mkdtemp(prefix=STAGE_PREFIX)
        # Held while this owner lives: an owner killed before its close leaves its folder
        # unlocked, and the next sandbox removes it (should its cleaner be killed too).
        self.stage_lock = os.open(self.stage, os.O_RDONLY)
        fcntl.flock(self.stage_lock, fcntl.LOCK_EX)
        # Removes the folder when the owner ends, killed included (a runner kills the engine of
        # a game's loser): it waits for the end of a pipe only the owner holds.
        self.cleaner = subprocess.Popen(
            [sys.executable, "-c", CLEANER, self.stage], stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            os.chmod(self.stage, 0o755)
            self.mounts = []
            self._stage(folder, "folder", FOLDER_ORIGINAL)
            for number, (source, destination, only) in enumerate(shown):
                self._stage(source, f"shown-{number}", destination, only)
            divercite = os.path.join(package_folder, "divercite")
            self._stage(divercite, "divercite", divercite)
        except BaseException:
            self.close()
            raise
        self.folder_bytes = folder_size(os.path.join(self.stage, "folder"))
        for path in readable:
            self.mounts.append(("--ro-bind", os.path.abspath(path), os.path.abspath(path)))
        with open(os.path.join(self.stage, "seccomp.bpf"), "wb") as compiled:
            compiled.write(self.filter)

    def _stage(self, source, name, destination, only=None):
        copy_tree(source, os.path.join(self.stage, name), only)
        self.mounts.append(("--ro-bind", os.path.join(self.stage, name), destination))

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
        # Parents before children: the process's writable folder may lie inside a shown one
        # (the course's own example players in the course's folder) or the other way round.
        folder_size = str((limits.scratch_mb << 20) + self.folder_bytes)
        mounts = self.mounts + [("--tmpfs", None, self.folder)]
        for kind, source, destination in sorted(mounts, key=lambda m: m[2].count("/")):
            if kind == "--tmpfs":
                sandbox += ["--size", folder_size, "--tmpfs", destination]
            else:
                sandbox += [kind, source, destination]
        sandbox += ["--remount-ro", "/", "--chdir", self.folder,
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
        """What the process sets up inside (inside.enter)."""
        return {"memory_mb": self.limits.memory_mb, "processes": self.limits.processes,
                "folder": self.folder, "folder_original": FOLDER_ORIGINAL}
