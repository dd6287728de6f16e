"""The protocol's transcripts, read from docs/protocol.md ("Transcripts" there says the
format): each block's exchanges, the match of an answer against its expected lines (with the
wildcards `*`, a final `...` word and a `...` line), and the replay of a block against a live
program. tests/transcripts.h is the same in C++, for the engine and the C++ client.
"""

import dataclasses
import os
import queue
import subprocess
import threading
import time

from reference_data import REPO

DOC = os.path.join(REPO, "docs", "protocol.md")
FENCE = "```"
INFO = "transcript"
ANY_LINES = "..."


@dataclasses.dataclass
class Exchange:
    command: str    # the `>` line, without its `> `
    expected: list  # the `<` lines after it, without their `< `


@dataclasses.dataclass
class Transcript:
    name: str
    tags: set
    line: int  # of the opening fence, from 1
    exchanges: list


def read_transcripts(path=DOC):
    """Every ```transcript NAME TAG...``` block of the file, in order."""
    transcripts, current = [], None
    with open(path, encoding="utf-8") as doc:
        for number, text in enumerate(doc, start=1):
            text = text.rstrip("\n")
            if current is None:
                words = text.split(" ")
                if words[0] == FENCE + INFO:
                    if len(words) < 2:
                        raise ValueError(f"{path}:{number}: a transcript block has no name")
                    current = Transcript(words[1], set(words[2:]), number, [])
                continue
            if text == FENCE:
                transcripts.append(current)
                current = None
            elif text.startswith("> "):
                current.exchanges.append(Exchange(text[2:], []))
            elif (text == "<" or text.startswith("< ")) and current.exchanges:
                current.exchanges[-1].expected.append(text[2:])
            else:
                raise ValueError(f"{path}:{number}: in transcript {current.name}: a line must "
                                 f"start with '> ' or '< ' (after a '>'): {text!r}")
    if current is not None:
        raise ValueError(f"{path}: transcript {current.name} is not closed")
    names = [t.name for t in transcripts]
    if len(set(names)) != len(names):
        raise ValueError(f"{path}: two transcripts share a name")
    return transcripts


def line_matches(pattern, line):
    """Whether `line` is the expected `pattern`: the same words (split at single spaces, so
    that spacing counts), a `*` word standing for any one word and a final `...` word (after
    at least one other) for the rest of the line, none included."""
    expected, words = pattern.split(" "), line.split(" ")
    if len(expected) > 1 and expected[-1] == ANY_LINES:
        expected = expected[:-1]
        words = words[:len(expected)]
    return len(expected) == len(words) and \
        all(e == "*" or e == w for e, w in zip(expected, words))


def lines_match(patterns, lines):
    """Whether `lines` are the expected `patterns`, a pattern `...` standing for any number
    of lines (none included)."""
    if not patterns:
        return not lines
    if patterns[0] == ANY_LINES:
        return any(lines_match(patterns[1:], lines[k:]) for k in range(len(lines) + 1))
    return bool(lines) and line_matches(patterns[0], lines[0]) and \
        lines_match(patterns[1:], lines[1:])


def is_open(expected):
    """An answer of `...` lines only goes on (a search): the next command is sent without
    waiting."""
    return bool(expected) and all(line == ANY_LINES for line in expected)


def awaits_bestmove(expected):
    return any(pattern.startswith("bestmove") for pattern in expected)


class Program:
    """A program spoken to line by line, its output read by a thread."""

    def __init__(self, argv, env=None, cwd=None):
        self.process = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
            env=env, cwd=cwd)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read(self, deadline, waiting):
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no {waiting} in time") from None

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


def replay(transcript, argv, env=None, cwd=None, timeout=60.0):
    """Plays `transcript` against a fresh `argv` as docs/protocol.md says ("Replaying a
    transcript"); AssertionError naming the block, the command, what was expected and what
    came."""
    program = Program(argv, env=env, cwd=cwd)
    try:
        carried = []  # the expected lines of open answers, read with the next command's
        quit_sent = False
        for exchange in transcript.exchanges:
            expected = carried + exchange.expected
            program.send(exchange.command)
            if exchange.command == "quit":
                quit_sent = True
            elif is_open(exchange.expected):
                carried = expected
                continue
            carried = []
            answer = _collect(program, exchange.command, expected, timeout)
            if not lines_match(expected, answer):
                raise AssertionError(
                    f"transcript {transcript.name} (docs/protocol.md:{transcript.line}), "
                    f"'> {exchange.command}': expected\n  " + "\n  ".join(expected) +
                    "\nbut the program answered\n  " + "\n  ".join(answer))
        if not quit_sent:
            program.send("quit")
            _collect(program, "quit", [], timeout)
        code = program.process.wait(timeout=timeout)
        assert code == 0, f"transcript {transcript.name}: the program exited with {code}"
    finally:
        program.close()


def _collect(program, command, expected, timeout):
    """The answer to `command`: after `quit`, up to the end of the output; else up to the
    readyok of an `isready` sent behind it (that readyok left out; an `isready` is its own
    bound, its readyok kept) and, if a bestmove is expected, up to the bestmove too."""
    deadline = time.monotonic() + timeout
    if command == "quit":
        answer = []
        while (line := program.read(deadline, "end of output after 'quit'")) is not None:
            answer.append(line)
        return answer
    sentinel = command != "isready"
    if sentinel:
        program.send("isready")
    ready, done = False, not awaits_bestmove(expected)
    answer = []
    while not (ready and done):
        line = program.read(deadline, f"answer to '{command}'")
        if line is None:
            raise AssertionError(f"the program exited after '{command}'; it answered "
                                 f"{answer}")
        if line == "readyok" and not ready:
            ready = True
            if sentinel:
                continue
        done = done or line.startswith("bestmove")
        answer.append(line)
    return answer
