"""The sandbox itself: what bubblewrap shows a process and runs it with (package docstring).

Who its processes are. Run as root, the sandbox drops to the user nobody first (root is exempt
from RLIMIT_NPROC). Run as another user (an arena's service, `User=arena`), they stay that
user outside, since only root can make a process another user; a user namespace shows them
as nobody inside (bubblewrap's --uid, --gid), as under root. The kernel decides what they may
read by the user outside, a file of the service's with mode 0600 included, whatever owner it
shows inside: so, either way, the sandbox shows nothing that only the sandbox's user may read
but the copies made for it:
  - the files it shows are staged: a Sandbox copies them into a folder of its own, once,
    readable by the sandbox's user alone (so that nobody can read them under root);
  - /etc is one made for the sandbox (etc.py), not the host's, where a service's user may own
    files (an environment file with its secrets) and which names the host's users and
    services. Root's sandboxes get the same /etc: the host's told an agent as much about the
    host under root, and one /etc for both leaves one sandbox to test;
  - a folder shown as it is (--readable, an interpreter's prefix outside /usr, a system
    folder that root does not own) has what only the sandbox's user may read covered
    (hidden.py); /usr, /bin and /lib are root's on a normal host, shown whole;
  - /proc is the sandbox's own process namespace's, /dev bubblewrap's few devices.
The service's supplementary groups stay with its processes (a user namespace made without
privileges cannot drop them): hidden.py counts what they may read as the user's own, and the
unit should give it none it does not need.

A cleaner process removes the staged folder, and ends what is left of the sandbox's
processes, when its owner ends, killed included: those in the owner's control groups, and
every process whose command line names the staged folder (bubblewrap's, whose arguments do,
stopped or not; cleanup.py). The launcher dies with the thread that started it (setpriv
--pdeathsig), as bubblewrap's processes do once they have set their own parent-death signal;
the cleaner ends those that had not yet. The owner becomes a subreaper, so that the orphans
of a sandbox it kills come back to it to be reaped (watch.py).
"""

import dataclasses
import fcntl
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from typing import List, Optional

from . import cgroups, etc, hidden, staging, syscalls
from .cores import CoreClaims
from .inside import EXTRA_TASKS
from .limits import SandboxError
from .watch import become_subreaper

# The folders this module stages the sandbox's files in, under the temporary folder.
STAGE_PREFIX = "divercite-sandbox-"
# A staged folder unlocked this long after its last change belongs to a killed bridge.
ABANDONED_AFTER_SECONDS = 60
# The cleaner: once the owner's end closes its input, ends the owner's sandboxed processes
# (stopped or frozen ones stay so, their parent gone, until then) and removes the staged
# folder.
CLEANER = ("import sys; sys.path.insert(0, sys.argv[1]); sys.stdin.read(); "
           "from divercite.sandbox.cleanup import clean; clean(sys.argv[2], sys.argv[3])")
# Run as root, the sandboxed processes run as this user and group; inside, they are this user
# and group whoever runs the sandbox.
NOBODY = etc.USER
# bubblewrap's own two processes in a sandbox's control group: its first, and the
# namespace's init.
BUBBLEWRAP_TASKS = 2
# Where, inside the sandbox, the staged (read-only) copy of the process's own folder lies; the
# process copies it to the folder's own path, a tmpfs, before running anything of it.
FOLDER_ORIGINAL = "/run/divercite/folder"
# The top-level folders of a Debian-like system that the sandbox shows, read-only (a symlink
# into /usr on merged-/usr systems is recreated as one); /etc is made for it (etc.py).
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
INSTALL_HINT = "apt-get install bubblewrap python3-seccomp"


def copy_trusted_tree(source, destination, only=None):
    """A copy of the runner's own files (the course's, this package), private as the agent's
    (staging.py); `only` picks top-level names."""
    def ignore(folder, names):
        skipped = set(staging.SKIPPED)
        if only is not None and os.path.samefile(folder, source):
            skipped |= {name for name in names if not only(name)}
        return skipped

    shutil.copytree(source, destination, ignore=ignore, symlinks=False,
                    copy_function=shutil.copy)
    for folder, folders, files in os.walk(destination):
        os.chmod(folder, 0o700)
        for name in files:
            path = os.path.join(folder, name)
            os.chmod(path, 0o700 if os.stat(path).st_mode & 0o111 else 0o600)


def give_to(user, folder):
    """Makes the sandbox's user the owner of everything under `folder`, links included."""
    os.lchown(folder, user, user)
    for parent, folders, files in os.walk(folder):
        for name in folders + files:
            os.lchown(os.path.join(parent, name), user, user)


def owned_stage(path):
    """Whether `path` is a staged folder of this user's sandboxes (never another user's file
    or a link planted under the temporary folder's shared name)."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    owners = {os.geteuid(), NOBODY} if os.geteuid() == 0 else {os.geteuid()}
    return stat.S_ISDIR(info.st_mode) and info.st_uid in owners


def remove_abandoned_stages():
    """Removes the staged folders of bridges that were killed (their lock is free)."""
    folder = tempfile.gettempdir()
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            # A bridge starting now has not locked its folder yet.
            if (not name.startswith(STAGE_PREFIX) or not owned_stage(path) or
                    time.time() - os.lstat(path).st_mtime < ABANDONED_AFTER_SECONDS):
                continue
        except OSError:
            continue
        try:
            lock = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            pass  # in use by a running bridge
        finally:
            os.close(lock)


def interpreter_prefixes():
    """The interpreter's own prefixes where they are not under /usr (a venv, pyenv)."""
    return [prefix for prefix in sorted({os.path.realpath(p) for p in (
        sys.prefix, sys.base_prefix, sys.exec_prefix)})
        if prefix != "/usr" and not prefix.startswith("/usr/")]


def system_mounts(etc_folder=None):
    """bubblewrap's arguments that show the system's programs and libraries, read-only, and
    `etc_folder` (made by etc.make) as /etc; without it, the sandbox has no /etc."""
    arguments = []
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            arguments += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            arguments += ["--ro-bind", folder, folder]
    for prefix in interpreter_prefixes():
        arguments += ["--ro-bind", prefix, prefix]
    if etc_folder is not None:
        arguments += etc.mounts(etc_folder)
    return arguments


def shown_as_they_are(readable):
    """The folders the sandbox shows unstaged, whose private files hidden.py covers, as
    (where they lie, where the sandbox shows them): the `readable` ones (bubblewrap follows
    a link given), the interpreter's prefixes outside /usr, and the system folders that root
    does not own (a host's own choice)."""
    folders = [(os.path.realpath(path), os.path.abspath(path)) for path in readable]
    folders += [(prefix, prefix) for prefix in interpreter_prefixes()]
    for folder in SYSTEM_FOLDERS:
        try:
            info = os.lstat(folder)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid != 0:
            folders.append((folder, folder))
    return folders


_pdeathsig = {}


def setpriv_sets_pdeathsig(setpriv):
    """Whether this setpriv has --pdeathsig (util-linux 2.33 and later)."""
    if setpriv not in _pdeathsig:
        try:
            usage = subprocess.run([setpriv, "--help"], capture_output=True, text=True,
                                   timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            usage = ""
        _pdeathsig[setpriv] = "--pdeathsig" in usage
    return _pdeathsig[setpriv]


@dataclasses.dataclass
class Launch:
    """One sandboxed process to start: `subprocess.Popen(argv, env=env, pass_fds=pass_fds)`;
    its cores and control group are released by `release` once it has ended."""

    argv: List[str]
    env: dict
    pass_fds: tuple
    core_fds: List[int]
    group: Optional[cgroups.Group]

    def close_passed(self):
        """Closes this process's copies of the fds passed on (once the child has them)."""
        for fd in self.pass_fds:
            os.close(fd)
        self.pass_fds = ()

    def release(self):
        self.close_passed()
        while self.core_fds:
            os.close(self.core_fds.pop())
        if self.group is not None:
            self.group.remove()
            self.group = None


class Sandbox:
    """What every sandboxed process of one owner (a bridge, a launcher) shares: the staged
    files, the filter, the mounts; `launch` prepares one process's start.

    `folder` is the process's own folder, which it gets a private writable copy of (checked
    and copied by staging.py); `shown` the other folders it reads, as (source, destination,
    only): `only(name)` picks the source's top-level names to show, None all; these are the
    runner's own (the course's code), copied as they are. `package_folder` holds the package
    divercite, whose `divercite.sandbox.inside` sets the process up inside; `readable` more
    folders, shown read-only where they are, unstaged."""

    def __init__(self, limits, folder, shown, package_folder, readable=()):
        self.limits = limits
        self.bwrap = shutil.which("bwrap")
        if self.bwrap is None:
            raise SandboxError(f"the sandbox needs bubblewrap (bwrap): {INSTALL_HINT}")
        # util-linux's, found where the system keeps them (not a PATH's shims).
        self.setpriv, self.taskset = (shutil.which(tool, path="/usr/bin:/bin") or tool
                                      for tool in ("setpriv", "taskset"))
        self.pdeathsig = setpriv_sets_pdeathsig(self.setpriv)
        self.drop_root = os.geteuid() == 0
        # Who the sandbox's processes are outside (the module's docstring).
        if self.drop_root:
            self.user, self.groups = NOBODY, {NOBODY}
        else:
            self.user, self.groups = os.geteuid(), {os.getegid(), *os.getgroups()}
        become_subreaper()
        self.host = cgroups.detect()
        self.group_prefix = cgroups.owner_prefix()
        # Memory that no process maps (a memfd, SysV shared memory) is counted only by a
        # memory cgroup: without one, the calls that make it are refused.
        self.filter = syscalls.compiled_filter(shared_memory=self.host.memory is not None)
        self.claims = CoreClaims()
        self.folder = folder
        remove_abandoned_stages()
        self.stage = tempfile.mkdtemp(prefix=STAGE_PREFIX)
        # Held while this owner lives: an owner killed before its close leaves its folder
        # unlocked, and the next sandbox removes it (should its cleaner be killed too).
        self.stage_lock = os.open(self.stage, os.O_RDONLY)
        fcntl.flock(self.stage_lock, fcntl.LOCK_EX)
        # Cleans up when the owner ends, killed included (a runner kills the engine of a
        # game's loser): it waits for the end of a pipe only the owner holds.
        self.cleaner = subprocess.Popen(
            [sys.executable, "-c", CLEANER, package_folder, self.stage, self.group_prefix],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        try:
            self.mounts = []
            self.folder_bytes = staging.stage_folder(
                folder, os.path.join(self.stage, "folder"), limits)
            self.mounts.append(("--ro-bind", os.path.join(self.stage, "folder"),
                                FOLDER_ORIGINAL))
            for number, (source, destination, only) in enumerate(shown):
                self._stage(source, f"shown-{number}", destination, only)
            divercite = os.path.join(package_folder, "divercite")
            self._stage(divercite, "divercite", divercite)
            compiled = os.open(os.path.join(self.stage, "seccomp.bpf"),
                               os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(compiled, "wb") as file:
                file.write(self.filter)
            self.etc = etc.make(os.path.join(self.stage, "etc"))
            for path in readable:
                self.mounts.append(("--ro-bind", os.path.abspath(path), os.path.abspath(path)))
            self._cover_private(readable)
            if self.drop_root:
                give_to(NOBODY, self.stage)
        except BaseException:
            self.close()
            raise

    def _cover_private(self, readable):
        """Mounts an empty file or folder that no one but root may read, read-only, over
        each file or folder of those shown as they are that only the sandbox's user may read
        (hidden.py): reading it is refused, as another user's private file is. After the
        folders' own mounts, being deeper or later."""
        covers = {}
        for source, destination in shown_as_they_are(readable):
            for path, is_folder in hidden.hidden_entries(source, self.user, self.groups):
                shown = os.path.normpath(os.path.join(destination, os.path.relpath(path, source)))
                covers[shown] = is_folder
        if not covers:
            return
        empty_file = os.path.join(self.stage, "empty-file")
        os.close(os.open(empty_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0))
        empty_folder = os.path.join(self.stage, "empty-folder")
        os.mkdir(empty_folder, 0)
        for path, is_folder in sorted(covers.items()):
            self.mounts.append(("--ro-bind", empty_folder if is_folder else empty_file, path))

    def _stage(self, source, name, destination, only=None):
        copy_trusted_tree(source, os.path.join(self.stage, name), only)
        self.mounts.append(("--ro-bind", os.path.join(self.stage, name), destination))

    def close(self):
        shutil.rmtree(self.stage, ignore_errors=True)
        os.close(self.stage_lock)
        self.cleaner.stdin.close()

    def environment(self, runner_environment):
        """All the sandbox's processes see, bubblewrap's own included (its /proc/1/environ
        is readable inside): nothing of the runner's but the few settings that make runs
        repeat."""
        threads = str(self.limits.cpus)
        settings = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp",
                    "LANG": "C.UTF-8", "MALLOC_ARENA_MAX": "2", "OMP_NUM_THREADS": threads,
                    "OPENBLAS_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
        for name in ("PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"):
            if name in runner_environment:
                settings[name] = runner_environment[name]
        return settings

    def launch(self, argv, runner_environment, frozen=False):
        """The Launch of `argv` in a new sandbox, in a control group of its own where the host
        gives one (frozen from its start if asked: it runs once thawed)."""
        limits = self.limits
        cores, core_fds = self.claims.claim(limits.cpus)
        group = None
        try:
            if self.host.any():
                group = cgroups.Group(self.host, self.group_prefix, limits.memory_mb,
                                      limits.processes + EXTRA_TASKS + BUBBLEWRAP_TASKS)
                if frozen and self.host.freezer is not None:
                    group.freeze()
            filter_fd = os.open(os.path.join(self.stage, "seccomp.bpf"), os.O_RDONLY)
        except BaseException:
            for fd in core_fds:
                os.close(fd)
            if group is not None:
                group.remove()
            raise
        prefix = group.attach_prefix() if group is not None else []
        prefix.append(self.setpriv)
        # The launcher dies with the thread that started it from its first instruction after
        # setpriv's, not from bubblewrap's setting up (the owner may die meanwhile).
        if self.pdeathsig:
            prefix += ["--pdeathsig", "SIGKILL"]
        if self.drop_root:
            prefix += [f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        prefix += [self.taskset, "--cpu-list", ",".join(map(str, cores))]
        scratch = str(limits.scratch_mb << 20)
        sandbox = [self.bwrap, "--unshare-all", "--unshare-user", "--uid", str(NOBODY),
                   "--gid", str(NOBODY), "--disable-userns", "--die-with-parent",
                   "--new-session", "--hostname", etc.HOSTNAME,
                   *system_mounts(self.etc),
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
        sandbox += ["--remount-ro", "/", "--chdir", self.folder, "--seccomp", str(filter_fd)]
        return Launch(argv=prefix + sandbox + ["--"] + list(argv),
                      env=self.environment(runner_environment), pass_fds=(filter_fd,),
                      core_fds=core_fds, group=group)

    def writable_folders(self):
        """The sandbox's tmpfs folders, as paths inside it."""
        return ["/tmp", "/dev/shm", self.folder]

    def inside_config(self):
        """What the process sets up inside (inside.enter)."""
        return {"memory_mb": self.limits.memory_mb, "processes": self.limits.processes,
                "folder": self.folder, "folder_original": FOLDER_ORIGINAL}
