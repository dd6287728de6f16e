"""The sandbox's limits, and the reasons a process hitting one is given."""

import argparse
import dataclasses


class SandboxError(Exception):
    """The sandbox cannot be set up here; the message says what is missing."""


@dataclasses.dataclass(frozen=True)
class Limits:
    memory_mb: int = 2048
    cpus: int = 1
    processes: int = 64  # processes and threads together
    scratch_mb: int = 256  # room to write in its folder, and in /tmp, each


def memory_reason(memory_mb, used_mb=None):
    used = f" ({used_mb} MB in use)" if used_mb is not None else ""
    return f"memory limit: its processes may use {memory_mb} MB together{used}"


def process_reason(processes):
    return f"process limit: it may run {processes} processes and threads together"


def positive_integer(text):
    """The command-line type of a limit (and of the ladder's counts): 1 or more."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not '{text}'")
    return int(text)
