"""What the agent wrote, kept for its author: every agent process's stderr (and its stdout,
which goes there: streams.py), its tracebacks, and the bridge's warnings about it, in one
file (the bridge's `--agent-log FILE`), as its last KEEP_BYTES.

The file is written as the bytes come, so that it holds them even if the bridge is killed at
once (a lost game's engine is); it is cut back to its last KEEP_BYTES whenever it would pass
twice that, so that an agent that floods its output costs a bounded file. What an agent
writes is bytes, kept as they are: its reader decodes them leniently (read_tail).
"""

import os
import select
import threading
import time

KEEP_BYTES = 64 * 1024
CHUNK_BYTES = 64 * 1024
# How long drain() waits at most for what the agents wrote to reach the file.
DRAIN_SECONDS = 1.0


class AgentLog:
    """The log file at `path`, started empty; write() and follow() from any thread."""

    def __init__(self, path, keep=KEEP_BYTES):
        self.keep = keep
        self.lock = threading.Lock()
        self.followed = set()  # the pipes being copied, read only under `lock`
        self.tail = bytearray()  # the last `keep` bytes written
        self.size = 0  # the file's
        self.file = open(path, "wb")

    def write(self, data):
        with self.lock:
            self._write(data)

    def _write(self, data):
        if data:
            self.tail += data
            del self.tail[:-self.keep]
            try:
                if self.size + len(data) > 2 * self.keep:
                    self.file.seek(0)
                    self.file.truncate()
                    self.file.write(self.tail)
                    self.size = len(self.tail)
                else:
                    self.file.write(data)
                    self.size += len(data)
                self.file.flush()
            except (OSError, ValueError):  # a full disk, or closed: the game goes on
                pass

    def note(self, text):
        """A line of the bridge's own about the agent (a warning), marked as the bridge's."""
        self.write(f"[course bridge] {text}\n".encode("utf-8", "backslashreplace"))

    def follow(self, stream):
        """Copies the binary `stream` (an agent process's stderr pipe) into the log until its
        end, on a thread of its own. Each read and its write are one step under the lock, so
        that drain() sees the pipe empty only once what was in it is in the file."""
        fd = stream.fileno()
        with self.lock:
            self.followed.add(fd)

        def copy():
            with stream:
                while True:
                    select.select([fd], [], [])
                    with self.lock:
                        try:
                            data = os.read(fd, CHUNK_BYTES)
                        except OSError:
                            data = b""
                        if not data:
                            self.followed.discard(fd)
                            return
                        self._write(data)
        threading.Thread(target=copy, name="agent log", daemon=True).start()

    def drain(self):
        """Waits (DRAIN_SECONDS at most) until what the agents' processes wrote so far is in
        the file: before the bridge answers a failed move, after which its client may kill it
        at once (a lost game's engine is), the traceback still in the pipe."""
        deadline = time.monotonic() + DRAIN_SECONDS
        while time.monotonic() < deadline:
            with self.lock:
                if not self.followed or not select.select(list(self.followed), [], [], 0)[0]:
                    return
            time.sleep(0.005)

    def close(self):
        with self.lock:
            self.file.close()


def read_tail(path, keep=KEEP_BYTES):
    """The last `keep` bytes of the log at `path` as text: bytes that are not UTF-8 replaced
    (U+FFFD), a character cut by the start dropped; "" if there is none."""
    try:
        with open(path, "rb") as log:
            log.seek(0, os.SEEK_END)
            size = log.tell()
            log.seek(max(size - keep, 0))
            data = log.read(keep)
    except OSError:
        return ""
    if len(data) == keep and size > keep:
        # Cut where a character starts: skip the continuation bytes of the one cut in two.
        start = 0
        while start < min(len(data), 3) and 0x80 <= data[start] < 0xC0:
            start += 1
        data = data[start:]
    return data.decode("utf-8", "replace")
