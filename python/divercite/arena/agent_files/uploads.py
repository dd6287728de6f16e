"""An uploaded agent, checked and unpacked: a single `.py` file (the agent, `my_player.py`
as the course names it) or a zip of the agent's folder, as students make them on any system.

Refused, with the reason a student can act on: too large, too many files, not a zip, a name
that leaves the folder, holds what a name cannot (member_names.py: letters of any script are
names' own; a name from Windows or macOS is read as they wrote it) or is too long, a link, an
encrypted or duplicated entry, no `my_player.py` at the top (of the zip or of its one
folder), a `.py` file that is not UTF-8 or not Python. What an archiver adds on its own is
dropped, not refused: macOS's `__MACOSX/` and `.DS_Store`, `__pycache__/`, hidden files and
folders (`.git/`), folders' own entries.

A zip is judged by its central directory before anything is unpacked: its entry count read
from its end record (Python's zipfile would build an object for each of 400,000 entries), the
sizes it declares, each member's compression ratio; then the unpacked bytes are counted again
as they come. The Python files are compiled in a child process with caps
(source_check.py), never here."""

from __future__ import annotations

import dataclasses
import io
import os
import stat
import struct
import zipfile
from pathlib import Path, PurePosixPath
from typing import Dict, Tuple

from .member_names import NameRefused, composed, path_problem, written_name
from .source_check import CheckError, python_problem
from ..wording import counted

AGENT_FILE = "my_player.py"
MAX_UPLOAD_BYTES = 20 << 20  # the file sent
MAX_UNPACKED_BYTES = 20 << 20  # everything in a zip, unpacked (arena.json: version_max_mb)
MAX_FILES = 2000  # arena.json: version_max_files
MAX_RATIO = 200  # a member's unpacked size over its compressed size (max_compression_ratio)
# A member below this size may compress as well as it likes (a file of spaces): only large
# ones are bombs.
RATIO_FREE_BYTES = 1 << 20
MAX_PATH = 200  # characters of a member's path, so that the arena's folders can hold it
MAX_DEPTH = 20
DROPPED_PARTS = {"__MACOSX", "__pycache__", ".DS_Store", "Thumbs.db"}
END_RECORD = b"PK\x05\x06"
ZIP64_LOCATOR = b"PK\x06\x07"
ZIP64_END_RECORD = b"PK\x06\x06"
CENTRAL_ENTRY_BYTES = 46  # a central directory entry's fixed part


@dataclasses.dataclass(frozen=True)
class Caps:
    """What one version may hold unpacked."""

    unpacked_bytes: int = MAX_UNPACKED_BYTES
    files: int = MAX_FILES
    ratio: int = MAX_RATIO

    @property
    def entries(self) -> int:
        """A zip's central directory entries: the files, and what archivers add (folders,
        macOS's copies in __MACOSX/) that is dropped."""
        return 2 * self.files + 100

    @classmethod
    def of(cls, arena) -> "Caps":
        """The caps an arena's settings (config.Config) set."""
        return cls(unpacked_bytes=arena.version_max_mb << 20, files=arena.version_max_files,
                   ratio=arena.max_compression_ratio)


class UploadError(ValueError):
    """Why an upload is refused; the message is shown to the team as it is."""


def megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"


def check_size(name: str, size: int) -> None:
    """UploadError if a file of `size` bytes is too large to take (before it is read)."""
    if size > MAX_UPLOAD_BYTES:
        raise UploadError(f"{name}: {megabytes(size)}; at most "
                          f"{MAX_UPLOAD_BYTES >> 20} MB")


def _checked_name(name: str, how: str) -> PurePosixPath:
    """The member's path, `name` as member_names.written_name read it (`how`: the code page
    it assumed, said in a refusal); UploadError naming it and what to do if it cannot be
    held."""
    if "\\" in name:
        raise UploadError(f"{name!r}: a name with '\\' (zip the folder with a zip tool that "
                          "writes '/', as Windows' 'Compress to ZIP file' does)")
    if len(name) > MAX_PATH:
        raise UploadError(f"{name[:60]!r}...: a path of {len(name)} characters; at most "
                          f"{MAX_PATH}")
    path = PurePosixPath(name)  # one that leaves the folder is refused before (_read_zip)
    if len(path.parts) > MAX_DEPTH:
        raise UploadError(f"{name[:60]!r}...: folders {len(path.parts) - 1} deep; at most "
                          f"{MAX_DEPTH - 1}")
    problem = path_problem(path)
    if problem:
        raise UploadError(f"{name!r}{how}: {problem}")
    return path


def _python_sources(files: Dict[str, bytes]) -> Dict[str, str]:
    """The `.py` files' texts; UploadError for one that is not UTF-8."""
    sources = {}
    for path, data in sorted(files.items()):
        if not path.endswith(".py"):
            continue
        try:
            sources[path] = data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise UploadError(f"{path}: not UTF-8 (byte 0x{data[error.start]:02x} at offset "
                              f"{error.start})") from None
    return sources


def read_upload(name: str, data: bytes, caps: Caps = Caps()) -> Dict[str, bytes]:
    """The agent's files (a relative path each, `my_player.py` among them) of an upload named
    `name` holding `data`; UploadError if refused."""
    check_size(name, len(data))
    if name.lower().endswith(".py"):
        if len(data) > caps.unpacked_bytes:
            raise UploadError(f"{name}: {megabytes(len(data))}; a version holds at most "
                              f"{caps.unpacked_bytes >> 20} MB")
        files = {AGENT_FILE: data}
    elif name.lower().endswith(".zip"):
        files = _read_zip(name, data, caps)
    else:
        raise UploadError(f"{name}: send {AGENT_FILE} or a .zip of the agent's folder")
    if AGENT_FILE not in files:
        raise UploadError(f"{name}: no {AGENT_FILE} at the top of the zip or of its one folder")
    try:
        problem = python_problem(_python_sources(files))
    except CheckError as error:
        raise UploadError(str(error)) from None
    if problem:
        raise UploadError(problem)
    return files


def central_directory(data: bytes) -> Tuple[int, int]:
    """(entries, bytes) of the zip's central directory as its end record declares them (the
    ZIP64 one where there is one); UploadError if there is no end record."""
    end = data.rfind(END_RECORD, max(0, len(data) - 22 - 0xFFFF))
    if end < 0 or end + 22 > len(data):
        raise UploadError("not a zip file (no end of central directory)")
    entries, size = struct.unpack_from("<HI", data, end + 10)
    locator = end - 20
    if locator >= 0 and data[locator:locator + 4] == ZIP64_LOCATOR:
        (record,) = struct.unpack_from("<Q", data, locator + 8)
        if record + 56 <= len(data) and data[record:record + 4] == ZIP64_END_RECORD:
            entries, size = struct.unpack_from("<QQ", data, record + 32)
    return entries, size


def _read_zip(name: str, data: bytes, caps: Caps) -> Dict[str, bytes]:
    try:
        entries, directory = central_directory(data)
    except UploadError as error:
        raise UploadError(f"{name}: {error}") from None
    # zipfile reads the directory by its size, whatever count it declares: both are capped.
    if entries > caps.entries:
        raise UploadError(f"{name}: {counted(entries, 'entry', 'entries')} in the zip; a "
                          f"version holds at most {counted(caps.files, 'file')}")
    if directory > caps.entries * (CENTRAL_ENTRY_BYTES + 400):
        raise UploadError(f"{name}: a list of contents of {megabytes(directory)}, more than "
                          f"{counted(caps.files, 'file')} need; a version holds at most "
                          f"{counted(caps.files, 'file')}")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        listed = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, EOFError,
            NotImplementedError) as error:
        raise UploadError(f"{name}: not a zip file ({error})") from None
    if len(listed) > caps.entries:
        raise UploadError(f"{name}: {counted(len(listed), 'entry', 'entries')} in the zip; "
                          f"a version holds at most {counted(caps.files, 'file')}")
    kept = []
    declared = 0
    for entry in listed:
        try:
            as_written, how = written_name(entry)
        except NameRefused as refused:
            raise UploadError(str(refused)) from None
        written = composed(as_written)
        mode = entry.external_attr >> 16
        if entry.create_system == 3 and stat.S_ISLNK(mode):  # written on a Unix system
            raise UploadError(f"{written!r}: a symbolic link; send the files themselves")
        if entry.flag_bits & 0x1:
            raise UploadError(f"{written!r}: encrypted; send a zip without a password")
        parts = PurePosixPath(written.replace("\\", "/")).parts
        if written.startswith(("/", "\\")) or ".." in parts:
            raise UploadError(f"{written!r}: a name that leaves the folder")
        if any(part in DROPPED_PARTS for part in parts) or written.endswith("/"):
            continue  # what an archiver adds, or a folder's own entry
        if any(part.startswith(".") for part in parts):  # .git, .vscode, macOS's ._ files
            continue
        path = _checked_name(written, how)
        if len(kept) == caps.files:
            raise UploadError(f"{name}: more than {counted(caps.files, 'file')}")
        if (entry.file_size > RATIO_FREE_BYTES
                and entry.file_size > caps.ratio * max(entry.compress_size, 1)):
            raise UploadError(f"{written!r}: {megabytes(entry.file_size)} packed into "
                              f"{entry.compress_size} bytes, more than {caps.ratio} times "
                              "smaller: a zip bomb, or data the agent should make itself")
        declared += entry.file_size
        kept.append((path, written, as_written, entry))
    if declared > caps.unpacked_bytes:
        raise UploadError(f"{name}: {megabytes(declared)} unpacked; a version holds at most "
                          f"{caps.unpacked_bytes >> 20} MB")
    files: Dict[PurePosixPath, bytes] = {}
    written_as: Dict[PurePosixPath, str] = {}  # each path's name as the zip writes it
    unpacked = 0
    for path, written, as_written, entry in kept:
        if path in files:
            first = written_as[path]
            raise UploadError(f"{written!r}: twice in the zip" + (
                "" if first == as_written or composed(first) != written else
                f", its accents written two ways ({ascii(first)} and {ascii(as_written)}, "
                "composed and decomposed), which Linux tells apart: keep one"))
        written_as[path] = as_written
        content = bytearray()
        try:
            with archive.open(entry) as member:
                # Counted as it comes too: a header may understate what a member unpacks to.
                while chunk := member.read(1 << 16):
                    content += chunk
                    unpacked += len(chunk)
                    if unpacked > caps.unpacked_bytes:
                        raise UploadError(f"{name}: more than {caps.unpacked_bytes >> 20} MB "
                                          "unpacked")
        except (zipfile.BadZipFile, EOFError, OSError, NotImplementedError) as error:
            raise UploadError(f"{written!r}: cannot be unpacked ({error})") from None
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


def size_of(files: Dict[str, bytes]) -> int:
    """What a version's files take, in bytes (its share of the team's storage)."""
    return sum(len(content) for content in files.values())
