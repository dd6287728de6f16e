"""A zip member's name as the system that wrote it meant it, and whether the arena can hold
it: a French class writes `stratégie.py` and `données.txt`, and Python imports such files.

A zip stores names as bytes. One that sets the UTF-8 flag (bit 11; Python's zipfile and
Java's set it for every name beyond ASCII) is read as UTF-8. For one that does not, the arena
does what Info-ZIP's unzip does:
  - an Info-ZIP Unicode Path extra field (0x7075) whose CRC matches the stored name gives
    the name in UTF-8 (Info-ZIP's zip, 7-Zip since 21.02);
  - a name written on MS-DOS, OS/2 or Windows (the entry's "made by" system FAT, HPFS or
    NTFS: Windows' own "Compress to ZIP file" writes its OEM code page) is read as code page
    850, the OEM code page of Windows in French and the one unzip's table reads such names
    from (oem2iso_850; unzip takes NTFS names so only from PKZIP 5, the arena from any).
    Its letters é è ê à â ç ô û ù î ï ë É are where code page 437 (US Windows, and what
    Python's zipfile assumes) has them; 850 also has À Â È Ê Ë Î Ï Ô Ù Û where 437 has
    box-drawing lines;
  - a name written on Unix or macOS is the bytes its file system held, UTF-8 on every system
    a student uses (Info-ZIP's zip on Linux and macOS, macOS's Archive Utility set no flag):
    read as UTF-8, refused when it is not.
macOS writes names decomposed (é as e and an accent, NFD); Linux keeps names as bytes, and
`import stratégie` looks for the composed form: names are kept composed (NFC), and two
members whose names differ only there are one name twice.

A name's parts hold letters of any script (with their accents), digits, '_', '.', '+', '-' and
spaces, begin with a letter, digit or '_', and end with neither a space nor a dot (which
Windows drops); none is a device's name on Windows (`con`, `aux.py`); each fits a Linux file
system's 255 bytes. Everything else (a control character, a separator, a symbol, a
direction mark that shows a name reversed) is refused with the character named."""

from __future__ import annotations

import re
import struct
import unicodedata
import zipfile
import zlib
from pathlib import PurePosixPath
from typing import Optional, Tuple

UTF8_FLAG = 0x800  # the general purpose flag's bit 11: the name and comment are UTF-8
UNICODE_PATH_FIELD = 0x7075  # Info-ZIP's Unicode Path extra field
# The "made by" systems whose names are in the OEM code page (APPNOTE 4.4.2): MS-DOS and
# OS/2 FAT, OS/2 HPFS, Windows NTFS.
OEM_SYSTEMS = {0, 6, 11}
OEM_CODE_PAGE = "cp850"
MAX_PART_CHARACTERS = 100
MAX_PART_BYTES = 255  # a name's bytes on Linux file systems (NAME_MAX)
# Unicode's letters, combining marks (accents, the vowel signs of Indic scripts) and decimal
# digits: what a file's name in any language is made of.
WORD_CATEGORIES = {"Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Nd"}
PUNCTUATION = "_.+- "
# Names Windows gives to devices, with or without an extension (`nul.txt` too).
WINDOWS_DEVICES = re.compile(r"(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?",
                             re.IGNORECASE)
ALLOWED = ("names hold letters (of any script, accents included), digits, '_', '.', '+', '-' "
           "and spaces, and begin with a letter, a digit or '_'")


class NameRefused(ValueError):
    """A name that cannot be read: the message names it and says what to do."""


def _unicode_path(entry: zipfile.ZipInfo, stored: bytes) -> Optional[str]:
    """The name an Info-ZIP Unicode Path extra field gives, if it has one that matches the
    stored name (a tool that renamed the member without knowing the field leaves one that
    does not, which is ignored, as unzip ignores it)."""
    extra = entry.extra
    while len(extra) >= 4:
        kind, size = struct.unpack_from("<HH", extra)
        field, extra = extra[4:4 + size], extra[4 + size:]
        if kind != UNICODE_PATH_FIELD or len(field) < 5 or field[0] != 1:
            continue
        (crc,) = struct.unpack_from("<I", field, 1)
        if crc != zlib.crc32(stored):
            continue
        try:
            return field[5:].decode("utf-8")
        except UnicodeDecodeError:
            continue
    return None


def written_name(entry: zipfile.ZipInfo) -> Tuple[str, str]:
    """(name, how it was read) of the member: the name as its writer meant it, as written
    (composed() makes it the arena's); how: "" for UTF-8, else the words that say which code
    page was assumed (for a reason). NameRefused for a name from Unix or macOS that is not
    UTF-8."""
    if entry.flag_bits & UTF8_FLAG:  # zipfile has read it as UTF-8
        return entry.orig_filename, ""
    # zipfile read the bytes as code page 437, which maps each of the 256 to a character:
    # encoding back gives the bytes stored.
    stored = entry.orig_filename.encode("cp437")
    # First: a tool that could not write the name in the stored bytes (`#U00e9`, `_`) may
    # keep the true one in the field.
    unicode_path = _unicode_path(entry, stored)
    if unicode_path is not None:
        return unicode_path, ""
    if stored.isascii():
        return stored.decode("ascii"), ""
    if entry.create_system in OEM_SYSTEMS:
        return (stored.decode(OEM_CODE_PAGE),
                " (a name from Windows without the zip's UTF-8 mark, read in code page 850 "
                "as Windows in French and Info-ZIP's unzip read it)")
    try:
        return stored.decode("utf-8"), ""
    except UnicodeDecodeError:
        raise NameRefused(
            f"{stored.decode('utf-8', 'replace')!r}: a name whose bytes ({stored!r}) are not "
            "UTF-8, and the zip does not say what they are: zip the folder again on a system "
            "that writes UTF-8 names (any Linux, macOS or Windows today)") from None


def composed(name: str) -> str:
    """The name with its accents composed (NFC), as Linux must hold it for `import` to find
    it: macOS writes them decomposed."""
    return unicodedata.normalize("NFC", name)


def _character(char: str) -> str:
    name = unicodedata.name(char, "")
    return f"{char!r} (U+{ord(char):04X}{' ' + name if name else ''})"


def part_problem(part: str) -> Optional[str]:
    """Why a part of a path (a file's or a folder's name) cannot be held, or None."""
    for index, char in enumerate(part):
        word = unicodedata.category(char) in WORD_CATEGORIES
        if index == 0 and not (word and unicodedata.category(char)[0] in "LN" or char == "_"):
            return (f"it begins with {_character(char)}: {ALLOWED}; rename it and zip the "
                    "folder again")
        if not word and char not in PUNCTUATION:
            return (f"the character {_character(char)} cannot be in a name: {ALLOWED}; "
                    "rename it and zip the folder again")
    if part.endswith((" ", ".")):
        return ("a name ending with a space or a dot, which Windows cannot hold: rename it and "
                "zip the folder again")
    if len(part) > MAX_PART_CHARACTERS:
        return (f"a name of {len(part)} characters; at most {MAX_PART_CHARACTERS}: rename it "
                "and zip the folder again")
    if len(part.encode("utf-8")) > MAX_PART_BYTES:
        return (f"a name of {len(part.encode('utf-8'))} bytes in UTF-8; at most "
                f"{MAX_PART_BYTES}, which a Linux file system holds: rename it and zip the "
                "folder again")
    if WINDOWS_DEVICES.fullmatch(part):
        return (f"{part.split('.')[0]!r} is a device's name on Windows, which cannot hold "
                "such a file: rename it and zip the folder again")
    return None


def path_problem(path: PurePosixPath) -> Optional[str]:
    """Why a member's relative path cannot be held, naming the part at fault, or None."""
    for part in path.parts:
        problem = part_problem(part)
        if problem:
            return problem if len(path.parts) == 1 else f"{part!r}: {problem}"
    return None
