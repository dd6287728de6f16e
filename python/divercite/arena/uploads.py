"""An uploaded agent, checked and unpacked: a single `.py` file (the agent, `my_player.py`
as the course names it) or a zip of the agent's folder, as students make them on any system.

Refused, with the reason a student can act on: too large, too many files, not a zip, a name
that leaves the folder or holds odd characters, a link, an encrypted or duplicated entry, no
`my_player.py` at the top (of the zip or of its one folder), a `.py` file that is not UTF-8
or not Python. What an archiver adds on its own is dropped, not refused: macOS's `__MACOSX/`
and `.DS_Store`, `__pycache__/`, hidden files and folders (`.git/`), folders' own entries."""

from __future__ import annotations

import io
import os
import re
import stat
import zipfile
from pathlib import Path, PurePosixPath
from typing import Dict

AGENT_FILE = "my_player.py"
MAX_UPLOAD_BYTES = 20 << 20  # the file sent
MAX_UNPACKED_BYTES = 100 << 20  # everything in a zip, unpacked
MAX_FILES = 2000
# A name's parts: what any system writes and every shell, URL and record takes as it is.
PART = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.+ -]{0,99}")
DROPPED_PARTS = {"__MACOSX", "__pycache__", ".DS_Store", "Thumbs.db"}


class UploadError(ValueError):
    """Why an upload is refused; the message is shown to the team as it is."""


def check_size(name: str, size: int) -> None:
    """UploadError if a file of `size` bytes is too large to take (before it is read)."""
    if size > MAX_UPLOAD_BYTES:
        raise UploadError(f"{name}: {size / (1 << 20):.1f} MB; at most "
                          f"{MAX_UPLOAD_BYTES >> 20} MB")


def _checked_name(name: str) -> PurePosixPath:
    if "\\" in name:
        raise UploadError(f"{name!r}: a name with '\\' (zip the folder with a zip tool that "
                          "writes '/', as Windows' 'Compress to ZIP file' does)")
    path = PurePosixPath(name)  # one that leaves the folder is refused before (_read_zip)
    for part in path.parts:
        if not PART.fullmatch(part) or part.endswith((" ", ".")):
            raise UploadError(f"{name!r}: odd characters in a name (letters, digits, "
                              "'_', '.', '+', '-' and spaces, a letter, digit or '_' "
                              "first)")
    return path


def _python_problem(name: str, data: bytes):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"{name}: not UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})"
    try:
        compile(text, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        where = f" line {line}" if line else ""
        return f"{name}{where}: not Python ({getattr(error, 'msg', error)})"
    return None


def read_upload(name: str, data: bytes) -> Dict[str, bytes]:
    """The agent's files (a relative path each, `my_player.py` among them) of an upload named
    `name` holding `data`; UploadError if refused."""
    check_size(name, len(data))
    if name.lower().endswith(".py"):
        files = {AGENT_FILE: data}
    elif name.lower().endswith(".zip"):
        files = _read_zip(name, data)
    else:
        raise UploadError(f"{name}: send {AGENT_FILE} or a .zip of the agent's folder")
    if AGENT_FILE not in files:
        raise UploadError(f"{name}: no {AGENT_FILE} at the top of the zip or of its one folder")
    for path, content in sorted(files.items()):
        if path.endswith(".py"):
            problem = _python_problem(path, content)
            if problem:
                raise UploadError(problem)
    return files


def _read_zip(name: str, data: bytes) -> Dict[str, bytes]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        entries = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError) as error:
        raise UploadError(f"{name}: not a zip file ({error})") from None
    files: Dict[PurePosixPath, bytes] = {}
    unpacked = 0
    for entry in entries:
        mode = entry.external_attr >> 16
        if entry.create_system == 3 and stat.S_ISLNK(mode):  # written on a Unix system
            raise UploadError(f"{entry.filename!r}: a symbolic link; send the files themselves")
        if entry.flag_bits & 0x1:
            raise UploadError(f"{entry.filename!r}: encrypted; send a zip without a password")
        parts = PurePosixPath(entry.filename.replace("\\", "/")).parts
        if entry.filename.startswith(("/", "\\")) or ".." in parts:
            raise UploadError(f"{entry.filename!r}: a name that leaves the folder")
        if any(part in DROPPED_PARTS for part in parts) or entry.is_dir():
            continue
        if any(part.startswith(".") for part in parts):  # .git, .vscode, macOS's ._ files
            continue
        path = _checked_name(entry.filename)
        if path in files:
            raise UploadError(f"{entry.filename!r}: twice in the zip")
        if len(files) == MAX_FILES:
            raise UploadError(f"{name}: more than {MAX_FILES} files")
        content = bytearray()
        try:
            with archive.open(entry) as member:
                while chunk := member.read(1 << 16):
                    content += chunk
                    unpacked += len(chunk)
                    if unpacked > MAX_UNPACKED_BYTES:
                        raise UploadError(f"{name}: more than {MAX_UNPACKED_BYTES >> 20} MB "
                                          "unpacked")
        except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as error:
            raise UploadError(f"{entry.filename!r}: cannot be unpacked ({error})") from None
        files[path] = bytes(content)
    folders = {parent for path in files for parent in path.parents}
    clash = sorted(str(path) for path in files if path in folders)
    if clash:  # unpack() could write neither
        raise UploadError(f"{clash[0]!r}: both a file and a folder in the zip")
    tops = {path.parts[0] for path in files}
    if (PurePosixPath(AGENT_FILE) not in files and len(tops) == 1
            and all(len(path.parts) > 1 for path in files)):
        files = {PurePosixPath(*path.parts[1:]): content for path, content in files.items()}
    return {str(path): content for path, content in files.items()}


def unpack(files: Dict[str, bytes], folder: Path) -> None:
    """Writes the files into `folder` (created; it must not exist), readable by all (the
    sandbox stages its own copy), no file executable."""
    folder.mkdir(mode=0o755)
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644), "wb") as file:
            file.write(content)
