"""The /etc a sandbox shows: one made for it, not the host's.

The host's /etc names the host's users and groups, its services and their settings, files
that a service's own user may own (an arena's environment file, its keys); an agent needs
none of it. What Python and the course's code read there, found by tracing the course's
agents and the tests' (numpy's, the habits', the hostile ones) in the sandbox:
  - ld.so.cache, which the dynamic loader reads first (copied);
  - alternatives/: the links that Debian's /usr/lib/.../libblas.so.3 and liblapack.so.3
    (numpy's) lead through: the host's folder itself, read-only, where root owns it (it
    holds update-alternatives' links alone; its 500 links made again took a second), else
    its links made again;
  - localtime (the same link, or a copy) and timezone, for time.localtime();
  - python3/ and python3.X/: the interpreter's own settings (its sitecustomize.py);
and, written here, what a process may ask of the C library: passwd and group with the
sandbox's user (nobody, 65534) and root, hosts with localhost and the sandbox's hostname,
hostname, nsswitch.conf (files only). No shadow, no certificates (the sandbox has no
network), nothing else. Only what every user of the host may read is copied.
"""

import glob
import os
import shutil
import stat

# The sandbox's user and group, as the files below name them.
USER = 65534
HOSTNAME = "sandbox"
WRITTEN = {
    "passwd": ("root:x:0:0:root:/root:/usr/sbin/nologin\n"
               f"nobody:x:{USER}:{USER}:nobody:/tmp:/usr/sbin/nologin\n"),
    "group": f"root:x:0:\nnogroup:x:{USER}:\n",
    "hosts": (f"127.0.0.1\tlocalhost\n127.0.1.1\t{HOSTNAME}\n"
              "::1\tlocalhost ip6-localhost ip6-loopback\n"),
    "hostname": f"{HOSTNAME}\n",
    "nsswitch.conf": "".join(f"{database}: files\n" for database in (
        "passwd", "group", "shadow", "hosts", "networks", "protocols", "services")),
}
# The host's files copied as they are (where present and readable by all).
COPIED = ("ld.so.cache", "timezone")
# The host's folders copied whole (the interpreter's settings).
COPIED_FOLDERS = ("python3", "python3.*")
# The host's folders of links: shown themselves where root owns them, else their links
# recreated.
LINK_FOLDERS = ("alternatives",)


def _readable_by_all(info):
    wanted = stat.S_IROTH | (stat.S_IXOTH if stat.S_ISDIR(info.st_mode) else 0)
    return info.st_mode & wanted == wanted


def _copy_file(source, destination):
    """Copies `source` (never through a link) if every user may read it; private to the
    sandbox's user, as the staged folder is (box.py)."""
    try:
        handle = os.open(source, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return
    try:
        info = os.fstat(handle)
        if not stat.S_ISREG(info.st_mode) or not _readable_by_all(info):
            return
        with os.fdopen(os.dup(handle), "rb") as original, \
                open(os.open(destination, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600),
                     "wb") as copy:
            shutil.copyfileobj(original, copy)
    finally:
        os.close(handle)


def _copy_folder(source, destination):
    """The folder's files and folders that every user may read, and its links as links."""
    os.mkdir(destination, 0o700)
    for entry in sorted(os.scandir(source), key=lambda entry: entry.name):
        target = os.path.join(destination, entry.name)
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISLNK(info.st_mode):
            os.symlink(os.readlink(entry.path), target)
        elif stat.S_ISDIR(info.st_mode) and _readable_by_all(info):
            _copy_folder(entry.path, target)
        elif stat.S_ISREG(info.st_mode):
            _copy_file(entry.path, target)


def _copy_links(source, destination):
    os.mkdir(destination, 0o700)
    for entry in os.scandir(source):
        if entry.is_symlink():
            os.symlink(os.readlink(entry.path), os.path.join(destination, entry.name))


def shown_folders(host="/etc"):
    """The host's folders of links that the sandbox shows themselves, read-only, at the same
    place (make() leaves a folder to mount each on)."""
    found = []
    for name in LINK_FOLDERS:
        try:
            info = os.lstat(os.path.join(host, name))
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == 0 and _readable_by_all(info):
            found.append(os.path.join(host, name))
    return found


def mounts(destination):
    """bubblewrap's arguments that show `destination` (make's) as /etc, read-only."""
    arguments = ["--ro-bind", destination, "/etc"]
    for folder in shown_folders():
        arguments += ["--ro-bind", folder, folder]
    return arguments


def make(destination, host="/etc"):
    """Writes the sandbox's /etc to `destination` (created; it must not exist)."""
    os.mkdir(destination, 0o700)
    for name, text in WRITTEN.items():
        with open(os.open(os.path.join(destination, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                          0o600), "w") as file:
            file.write(text)
    for name in COPIED:
        _copy_file(os.path.join(host, name), os.path.join(destination, name))
    localtime = os.path.join(host, "localtime")
    if os.path.islink(localtime):
        os.symlink(os.readlink(localtime), os.path.join(destination, "localtime"))
    else:
        _copy_file(localtime, os.path.join(destination, "localtime"))
    for pattern in COPIED_FOLDERS:
        for source in sorted(glob.glob(os.path.join(host, pattern))):
            try:
                info = os.lstat(source)
            except OSError:
                continue
            if stat.S_ISDIR(info.st_mode) and _readable_by_all(info):
                _copy_folder(source, os.path.join(destination, os.path.basename(source)))
    shown = shown_folders(host)
    for name in LINK_FOLDERS:
        source = os.path.join(host, name)
        if source in shown:
            os.mkdir(os.path.join(destination, name), 0o700)
        elif os.path.isdir(source) and not os.path.islink(source):
            _copy_links(source, os.path.join(destination, name))
    return destination
