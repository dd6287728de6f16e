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
    folder_mb: int = 256  # the agent's folder as given, checked before it is copied
    folder_files: int = 10000  # files and folders in it


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


# The limits' command-line flags: (flag, Limits field, metavar, what it bounds).
FLAGS = (("--memory-mb", "memory_mb", "MB", "memory of the agent's processes together"),
         ("--cpus", "cpus", "N", "cores the agent may use"),
         ("--max-processes", "processes", "N", "processes and threads together"),
         ("--scratch-mb", "scratch_mb", "MB",
          "room for the files the agent writes, beside itself and in /tmp, each"),
         ("--folder-mb", "folder_mb", "MB", "the agent's folder's size, checked before it is "
          "copied"),
         ("--folder-files", "folder_files", "N", "files and folders in the agent's folder"))


def add_limit_arguments(parser):
    """The limits' flags, on an argparse parser or group; read back with limits_given()."""
    defaults = Limits()
    for flag, field, metavar, what in FLAGS:
        parser.add_argument(flag, dest=field, type=positive_integer, metavar=metavar,
                            help=f"{what} (default {getattr(defaults, field)})")


def limits_given(arguments):
    """{Limits field: value} of the limits' flags given on the command line."""
    return {field: getattr(arguments, field) for _, field, _, _ in FLAGS
            if getattr(arguments, field) is not None}


def limit_flags(given):
    """The command-line flags that give these limits ({Limits field: value}) again."""
    return [text for flag, field, _, _ in FLAGS if field in given
            for text in (flag, str(given[field]))]
