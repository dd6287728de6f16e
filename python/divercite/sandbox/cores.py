"""Cores for sandboxes: each takes the least claimed, across every bridge of this user."""

import fcntl
import os
import stat
import sys
import tempfile

from .limits import SandboxError


def private_folder(path):
    """An fd of the folder `path`, created if missing, once it is checked to be this user's
    alone: a folder (not a link to one), owned by this user, with no access for anyone
    else. None if it is not (another user made it first, under a shared folder's name)."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    info = os.fstat(fd)
    if info.st_uid != os.geteuid() or info.st_mode & 0o077 or not stat.S_ISDIR(info.st_mode):
        os.close(fd)
        return None
    return fd


def claims_folder():
    """Where this user's claims live: a folder no other user can make, hold or redirect.
    root's under /run; another user's in its runtime folder (XDG_RUNTIME_DIR), else under
    the temporary folder, checked; where that one is another's, a private folder of this
    bridge's own (its claims then spread only its own sandboxes)."""
    candidates = []
    if os.geteuid() == 0 and os.path.isdir("/run"):
        candidates.append("/run/divercite-cores")
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime):
        candidates.append(os.path.join(runtime, "divercite-cores"))
    shared = os.path.join(tempfile.gettempdir(), f"divercite-cores-{os.geteuid()}")
    candidates.append(shared)
    for path in candidates:
        fd = private_folder(path)
        if fd is not None:
            return fd, path
    own = tempfile.mkdtemp(prefix="divercite-cores-own-")
    sys.stderr.write(f"divercite.sandbox: {shared} is not a private folder of this user "
                     f"(another user's, or a link): this bridge claims cores in {own}, "
                     "unshared\n")
    return private_folder(own), own


class CoreClaims:
    """Cores handed out to sandboxes, across all bridges of this user on this machine: a claim
    is an flock on a file named after the core and a slot, held while the sandbox lives, and
    each sandbox takes the cores with the fewest claims (ties: the lowest)."""

    SLOTS = 256

    def __init__(self):
        self.folder_fd, self.folder = claims_folder()

    def _claim(self, core):
        """(fd, slot) of the first free slot of the core, now held."""
        for slot in range(self.SLOTS):
            # Relative to the checked folder, and never through a link.
            fd = os.open(f"{core}.{slot}", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600,
                         dir_fd=self.folder_fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return fd, slot
            except BlockingIOError:
                os.close(fd)
        raise SandboxError(f"all {self.SLOTS} claims on core {core} are held "
                           f"({self.folder})")

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
