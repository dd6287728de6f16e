"""A hostile agent for the sandbox's tests (issue 55): on its first move it writes, on the
bridge's own pipe (the agent process's private copy of its stdout, which streams.py keeps from
the agent's prints), the reply of a memory limit, `{"error": ..., "limit": true}`, then waits
to be killed. A bridge that believed the words would record a limit (no fault of the agent's,
as a reader of the record sees it) where the agent only lied: its move must be its own error.

The pipe is found as an agent would find it: the file descriptors open for writing on a pipe
that is neither stdout nor stderr (the agent process points fd 1 at stderr)."""
import fcntl
import os
import stat
import time

from player_divercite import PlayerDivercite

FORGED_TEXT = "memory limit: its processes may use 1 MB together (forged by the agent)"
FORGED = ('{"error": "%s", "limit": true}\n' % FORGED_TEXT).encode()
WAIT_SECONDS = 30  # the game ends at once on the forged reply; this bounds a broken bridge


def protocol_pipes():
    """The descriptors open for writing on a pipe other than fd 1's and 2's."""
    seen = {(os.fstat(fd).st_dev, os.fstat(fd).st_ino) for fd in (1, 2)}
    found = []
    for fd in range(3, 256):
        try:
            status = os.fstat(fd)
            mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
        except OSError:
            continue
        if stat.S_ISFIFO(status.st_mode) and mode == os.O_WRONLY and \
                (status.st_dev, status.st_ino) not in seen:
            found.append(fd)
    return found


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="limit_forger"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        pipes = protocol_pipes()
        if not pipes:
            raise RuntimeError("limit_forger: no protocol pipe found")
        for fd in pipes:
            os.write(fd, FORGED)
        time.sleep(WAIT_SECONDS)
        raise RuntimeError("limit_forger: the bridge did not end the move on the forged reply")
