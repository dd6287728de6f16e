"""What the sandbox hides of the folders it shows as they are (not staged: --readable ones,
an interpreter's prefix outside /usr, a system folder that root does not own): every file and
folder that its processes could read only by being who they are outside.

Outside, the sandbox's processes are the sandbox's user: nobody where the runner is root;
the runner's own user where it is not (a user namespace maps that user to nobody inside, but
the kernel checks access by the user outside: a file of the runner's, mode 0600, stays
readable, whatever uid it shows). So such a folder shows the sandbox only what every user of
the host may read: a file or folder owned by the sandbox's user, or by one of its groups, that
the others may not read (or, for a folder, enter) is covered by an empty one, read-only,
that its processes may not read either (box.py).
"""

import os
import stat

from .limits import SandboxError

# More entries than this to cover: the folder is refused (each is one mount).
MOST_HIDDEN = 256


def permitted(info, user, groups):
    """The permission bits (rwx) that the kernel grants the sandbox's user on the file or
    folder (`info`, an lstat): the owner's if it is the owner, else the group's if it is in
    the group, else the others'."""
    if info.st_uid == user:
        return info.st_mode >> 6 & 0o7
    if info.st_gid in groups:
        return info.st_mode >> 3 & 0o7
    return info.st_mode & 0o7


def private(info, user, groups):
    """Whether the sandbox's user may read the file, or read and enter the folder, only by
    being its owner, or by one of its groups."""
    if stat.S_ISLNK(info.st_mode):
        return False  # the link's target is checked where it lies, if shown
    wanted = 0o5 if stat.S_ISDIR(info.st_mode) else 0o4
    return (permitted(info, user, groups) & wanted == wanted and
            info.st_mode & wanted != wanted)


def hidden_entries(folder, user, groups):
    """The paths under `folder` (itself included) to cover, by private(); a private folder's
    contents are not read. SandboxError if there are more than MOST_HIDDEN."""
    found = []
    pending = [folder]
    while pending:
        path = pending.pop()
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if private(info, user, groups):
            found.append((path, stat.S_ISDIR(info.st_mode)))
            if len(found) > MOST_HIDDEN:
                raise SandboxError(
                    f"{folder} holds more than {MOST_HIDDEN} files or folders that only the "
                    f"sandbox's user (uid {user}) may read: make them readable by all, or "
                    "move them out of the folders the sandbox shows")
            continue
        # A folder it may not enter hides what it holds already.
        if stat.S_ISDIR(info.st_mode) and permitted(info, user, groups) & 0o1:
            try:
                names = os.listdir(path)
            except OSError:
                continue
            pending += [os.path.join(path, name) for name in names]
    return sorted(found)
