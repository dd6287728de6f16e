"""Cores for sandboxes: each takes the least claimed, across every bridge of this user."""

import fcntl
import os
import tempfile

from .limits import SandboxError


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
