"""Protocol streams: only protocol lines reach the original stdout.

Both the bridge's process and each agent's process keep private copies of their stdin and
stdout for their protocol, then point the process's own stdout (Python's and file descriptor
1, for C extensions and subprocesses) at stderr and its stdin at /dev/null, so that nothing
the agent or the course's code prints can garble or swallow a protocol line.
"""

import os
import sys
import threading


def one_line(text):
    """`text` as one protocol line: its line breaks written as the two characters \\n (or
    \\r), so that no text of an agent's (an exception's message, a name) can end a line and
    make the next one look like the bridge's own (`bestmove ...`)."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


class LineOutput:
    """Writes whole lines to a private copy of the original stdout, from any thread; a line
    break inside a line is escaped (one_line)."""

    def __init__(self, fd):
        # An agent's text may hold what UTF-8 cannot say (a surrogate escaping bytes that were
        # not UTF-8): written as \\udcff, it cannot stop the line.
        self._stream = os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace",
                                 newline="\n")
        self._lock = threading.Lock()

    def send(self, line):
        with self._lock:
            try:
                self._stream.write(one_line(line) + "\n")
                self._stream.flush()
            except (BrokenPipeError, OSError):
                os._exit(0)  # nobody is listening any more


def take_protocol_streams():
    """(commands, output): private copies of stdin (a text file) and stdout (a LineOutput);
    the process's own stdout goes to stderr from now on, and its stdin reads /dev/null."""
    sys.stdout.flush()
    output = LineOutput(os.dup(1))
    commands = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdin = open(os.devnull, "r")
    return commands, output
