"""An agent's folder, checked and copied for its sandbox (box.py), and checked alone for a
ladder's team list.

The folder is another person's: it may hold links planted to read what is not theirs, a
special file that blocks a reader, or enough files to fill the runner's disk. So it is read
without following any link, and refused, with a reason that names the path, when it holds:
  - a symbolic link that resolves outside the folder (a link that resolves inside it is
    copied as a link, its text unchanged: `loop -> .` is one entry, never a copy of itself);
  - a device, a fifo or a socket;
  - more than `Limits.folder_files` entries, or more than `Limits.folder_mb` MB of files
    (counted while reading, so a file that grows meanwhile is caught too).
The copy is readable by its owner alone (folders 0700, files 0600, or 0700 where the
original can be executed); box.py gives the whole staged folder to the sandbox's user.
"""

import os
import stat

from .limits import SandboxError

# Never copied: the compiled files of a Python that ran the agent outside.
SKIPPED = frozenset({"__pycache__"})
CHUNK = 1 << 20


class FolderRefused(SandboxError):
    """The agent's folder cannot be given to a sandbox; the message names the path and why."""


def _inside(path, root):
    return path == root or path.startswith(root + os.sep)


class _Walk:
    """One pass over a folder, copying it to `destination` when one is given."""

    def __init__(self, source, limits, destination=None):
        self.root = os.path.realpath(source)
        self.limits = limits
        self.destination = destination
        self.entries = 0
        self.bytes = 0

    def refuse(self, path, why):
        shown = os.path.relpath(path, self.root)
        raise FolderRefused(f"the agent's folder {self.root}: {shown}: {why}")

    def count(self, path):
        self.entries += 1
        if self.entries > self.limits.folder_files:
            self.refuse(path, f"more than {self.limits.folder_files} files and folders "
                              "(--folder-files)")

    def add_bytes(self, path, count):
        self.bytes += count
        if self.bytes > self.limits.folder_mb << 20:
            self.refuse(path, f"the folder holds more than {self.limits.folder_mb} MB "
                              "(--folder-mb)")

    def run(self):
        if self.destination is not None:
            os.mkdir(self.destination, 0o700)
        pending = [(self.root, self.destination)]
        while pending:
            folder, copy = pending.pop()
            try:
                with os.scandir(folder) as listing:
                    entries = sorted(listing, key=lambda entry: entry.name)
            except OSError as error:
                self.refuse(folder, f"cannot be read ({error.strerror})")
            for entry in entries:
                if entry.name in SKIPPED:
                    continue
                self.count(entry.path)
                target = None if copy is None else os.path.join(copy, entry.name)
                try:
                    mode = entry.stat(follow_symlinks=False).st_mode
                except OSError as error:
                    self.refuse(entry.path, f"cannot be read ({error.strerror})")
                if stat.S_ISLNK(mode):
                    self.link(entry.path, target)
                elif stat.S_ISDIR(mode):
                    if target is not None:
                        os.mkdir(target, 0o700)
                    pending.append((entry.path, target))
                elif stat.S_ISREG(mode):
                    self.file(entry.path, target, mode)
                else:
                    kind = ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else
                            "a fifo" if stat.S_ISFIFO(mode) else
                            "a socket" if stat.S_ISSOCK(mode) else "a special file")
                    self.refuse(entry.path, f"{kind}, which a sandbox is not given")
        return self

    def link(self, path, target):
        text = os.readlink(path)
        resolved = os.path.realpath(path)
        if not _inside(resolved, self.root):
            self.refuse(path, f"a link to {text}, outside the folder (a link is copied only "
                              "when it leads to a file or folder inside it)")
        if target is not None:
            os.symlink(text, target)

    def file(self, path, target, mode):
        if target is None:
            self.add_bytes(path, os.lstat(path).st_size)
            return
        # No link is followed even if the file was swapped for one since it was listed.
        try:
            source = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        except OSError as error:
            self.refuse(path, f"cannot be read ({error.strerror})")
        try:
            if not stat.S_ISREG(os.fstat(source).st_mode):
                self.refuse(path, "changed while it was copied")
            private = 0o700 if mode & 0o111 else 0o600
            copy = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, private)
            try:
                while True:
                    chunk = os.read(source, CHUNK)
                    if not chunk:
                        break
                    self.add_bytes(path, len(chunk))
                    os.write(copy, chunk)
            finally:
                os.close(copy)
        finally:
            os.close(source)


def folder_problem(folder, limits):
    """Why `folder` cannot be given to a sandbox with these limits, or None."""
    try:
        _Walk(folder, limits).run()
    except FolderRefused as refused:
        return str(refused)
    return None


def stage_folder(folder, destination, limits):
    """Copies `folder` to `destination` (created; must not exist) as the module docstring
    says; FolderRefused if it may not be; returns the bytes copied."""
    return _Walk(folder, limits, destination).run().bytes
