"""The sandbox's limits, and the reasons a process hitting one is given."""

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
