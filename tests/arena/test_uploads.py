"""Uploads as students make them on any system, and each refusal with a reason they can act
on (uploads.read_upload); a game's reason naming the files as the upload does
(shown_paths)."""

import io
import os
import stat
import struct
import tempfile
import time
import unicodedata
import zipfile
import zlib
from pathlib import Path

from django.test import SimpleTestCase

from divercite import programs
from divercite.arena.agent_files import member_names, uploads
from divercite.arena.agent_files.shown_paths import ShownPaths
from divercite.arena.agent_files.uploads import UploadError, read_upload

AGENT = (b"from player_divercite import PlayerDivercite\n\n"
         b"class MyPlayer(PlayerDivercite):\n    pass\n")


def zip_bytes(entries, compression=zipfile.ZIP_DEFLATED):
    """A zip of (name or ZipInfo, bytes) entries."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, content in entries:
            archive.writestr(name, content)
    return buffer.getvalue()


class StoredName(zipfile.ZipInfo):
    """A member whose name is stored as the bytes given, without the UTF-8 flag, as made on
    the system `made_by` (0: MS-DOS/Windows, 3: Unix/macOS): what Windows' own zip writes in
    its OEM code page, and Info-ZIP's zip or macOS's Archive Utility in UTF-8. zipfile
    itself writes every name that is not ASCII in UTF-8, with the flag set."""

    def __init__(self, stored: bytes, made_by: int, extra: bytes = b""):
        super().__init__(stored.decode("cp437"))  # how zipfile reads it back
        self.stored, self.create_system, self.extra = stored, made_by, extra
        self.flag_bits &= ~member_names.UTF8_FLAG

    def _encodeFilenameFlags(self):  # zipfile's own way to a stored name and its flags
        return self.stored, self.flag_bits


def unicode_path_field(stored: bytes, name: str) -> bytes:
    """Info-ZIP's Unicode Path extra field: `name` in UTF-8 for the member stored as
    `stored`."""
    data = b"\x01" + zlib.crc32(stored).to_bytes(4, "little") + name.encode("utf-8")
    return struct.pack("<HH", member_names.UNICODE_PATH_FIELD, len(data)) + data


class AcceptedTest(SimpleTestCase):
    def test_one_file_becomes_my_player(self):
        self.assertEqual(read_upload("agent.py", AGENT), {"my_player.py": AGENT})

    def test_zip_with_the_agent_at_its_top(self):
        files = read_upload("team.zip", zip_bytes([("my_player.py", AGENT),
                                                   ("helpers/tools.py", b"X = 1\n"),
                                                   ("weights.bin", bytes(range(256)))]))
        self.assertEqual(set(files), {"my_player.py", "helpers/tools.py", "weights.bin"})

    def test_zip_of_one_folder_is_unwrapped(self):
        """Windows' "Compress to ZIP file" and macOS's "Compress" keep the folder."""
        files = read_upload("team.zip", zip_bytes([("team/", b""), ("team/my_player.py", AGENT),
                                                   ("team/helper.py", b"Y = 2\n")]))
        self.assertEqual(files, {"my_player.py": AGENT, "helper.py": b"Y = 2\n"})

    def test_what_archivers_add_is_dropped(self):
        files = read_upload("team.zip", zip_bytes([
            ("team/my_player.py", AGENT), ("__MACOSX/team/._my_player.py", b"\x00\x05\x16"),
            ("team/.DS_Store", b"\x00\x00\x00\x01Bud1"),
            ("team/__pycache__/x.cpython-311.pyc", b"\xa7\r\r\n"),
            ("team/.git/config", b"[core]\n")]))
        self.assertEqual(set(files), {"my_player.py"})

    def test_unpack_writes_the_files(self):
        folder = Path(tempfile.mkdtemp()) / "version"
        uploads.unpack({"my_player.py": AGENT, "sub/data.txt": b"d"}, folder)
        self.assertEqual((folder / "my_player.py").read_bytes(), AGENT)
        self.assertEqual((folder / "sub" / "data.txt").read_bytes(), b"d")
        self.assertEqual(stat.S_IMODE((folder / "my_player.py").stat().st_mode), 0o644)
        with self.assertRaises(FileExistsError):  # a version's folder is its own
            uploads.unpack({"my_player.py": b""}, folder)
        self.assertEqual((folder / "my_player.py").read_bytes(), AGENT)

    def test_as_many_files_as_allowed(self):
        entries = [("my_player.py", AGENT)] + [(f"data/f{i}.txt", b"") for i in
                                               range(uploads.MAX_FILES - 1)]
        files = read_upload("team.zip", zip_bytes(entries, zipfile.ZIP_STORED))
        self.assertEqual(len(files), uploads.MAX_FILES)

    def test_names_a_french_class_writes(self):
        """Letters of any script, accents included, in UTF-8 (the zip's flag set: zipfile,
        7-Zip, Windows for names its code page lacks)."""
        names = ["équipe/stratégie.py", "équipe/données/poids_été.txt", "équipe/ходы.py",
                 "équipe/棋盘.py", "équipe/खेल.py", "équipe/Ça va + 2-1.txt"]
        entries = [("équipe/my_player.py", AGENT)] + [(name, b"X = 1\n") for name in names]
        files = read_upload("équipe.zip", zip_bytes(entries))
        self.assertEqual(set(files), {"my_player.py"} | {name.split("/", 1)[1] for name in names})

    def test_windows_names_in_its_code_page(self):
        """Windows' own zip writes names in its OEM code page without the UTF-8 flag: read as
        code page 850 (Windows in French), where code page 437 (zipfile's guess) has a
        box-drawing line for À."""
        for made_by in (0, 11):  # MS-DOS/FAT, NTFS
            with self.subTest(made_by=made_by):
                entries = [(StoredName(name.encode("cp850"), made_by), b"d")
                           for name in ("équipe/données.txt", "équipe/ÀLIRE.txt")]
                self.assertEqual("équipe/ÀLIRE.txt".encode("cp850").decode("cp437"),
                                 "équipe/╖LIRE.txt")
                files = read_upload("team.zip", zip_bytes(
                    [(StoredName(b"\x82quipe/my_player.py", made_by), AGENT)] + entries))
                self.assertEqual(set(files), {"my_player.py", "données.txt", "ÀLIRE.txt"})

    def test_unix_and_macos_names_without_the_flag(self):
        """Info-ZIP's zip on Linux and macOS's Archive Utility store the file system's bytes,
        UTF-8, without the flag; macOS's are decomposed (é as e and an accent), kept
        composed so that `import stratégie` finds the file."""
        decomposed = unicodedata.normalize("NFD", "stratégie.py")
        self.assertNotEqual(decomposed, "stratégie.py")
        files = read_upload("team.zip", zip_bytes([
            ("my_player.py", AGENT), (StoredName(decomposed.encode("utf-8"), 3), b"X = 1\n"),
            (StoredName("données.txt".encode("utf-8"), 3), b"d")]))
        self.assertEqual(set(files), {"my_player.py", "stratégie.py", "données.txt"})

    def test_the_unicode_path_field_names_the_member(self):
        """Info-ZIP's Unicode Path extra field gives the name when the stored one could not
        (`#U00e9`); one whose CRC is not the stored name's is ignored, as unzip ignores it."""
        stored = b"strat#U00e9gie.py"
        files = read_upload("team.zip", zip_bytes([
            ("my_player.py", AGENT),
            (StoredName(stored, 0, unicode_path_field(stored, "stratégie.py")), b"X = 1\n"),
            (StoredName(b"old.txt", 0, unicode_path_field(b"new.txt", "nouveau.txt")), b"")]))
        self.assertEqual(set(files), {"my_player.py", "stratégie.py", "old.txt"})

    def test_folder_entries_and_dot_slash_names(self):
        """Some archivers write ./NAME, or no entry for a folder at all."""
        files = read_upload("team.zip", zip_bytes([("./my_player.py", AGENT),
                                                   ("lib/deep/x.py", b"Z = 3\n")]))
        self.assertEqual(set(files), {"my_player.py", "lib/deep/x.py"})


class RefusedTest(SimpleTestCase):
    def refused(self, name, data, phrase):
        with self.assertRaises(UploadError) as caught:
            read_upload(name, data)
        self.assertIn(phrase, str(caught.exception))
        return str(caught.exception)

    def test_too_large(self):
        self.refused("my_player.py", b"#" * (uploads.MAX_UPLOAD_BYTES + 1), "at most 20 MB")

    def test_too_many_files(self):
        entries = [("my_player.py", AGENT)] + [(f"f{i}.txt", b"") for i in
                                               range(uploads.MAX_FILES)]
        self.refused("team.zip", zip_bytes(entries, zipfile.ZIP_STORED), "more than 2000 files")

    def test_a_zip_bomb_is_refused_by_its_ratio(self):
        """A few hundred KB that unpack to more than the version's cap: refused by what the
        central directory declares, before a byte is unpacked."""
        bomb = zip_bytes([("my_player.py", AGENT),
                          ("zeros.bin", bytes(uploads.MAX_UNPACKED_BYTES + 1))])
        self.assertLess(len(bomb), 1 << 20)
        self.refused("team.zip", bomb, "more than 200 times smaller: a zip bomb")

    def test_too_much_unpacked(self):
        caps = uploads.Caps(unpacked_bytes=1 << 20)
        stored = zip_bytes([("my_player.py", AGENT), ("data.bin", os.urandom(1 << 20))])
        with self.assertRaisesRegex(UploadError, r"1\.0 MB unpacked; a version holds at most "
                                                 r"1 MB"):
            read_upload("team.zip", stored, caps)
        with self.assertRaisesRegex(UploadError, "a version holds at most 1 MB"):
            read_upload("my_player.py", AGENT + b"#" * (1 << 20), caps)

    def test_a_header_that_understates_its_size_is_counted_as_it_unpacks(self):
        data = bytearray(zip_bytes([("my_player.py", AGENT),
                                    ("data.bin", bytes(3 << 20))]))
        # data.bin's declared size, in its central directory entry, set to 1 byte.
        entry = data.index(b"PK\x01\x02", data.index(b"PK\x01\x02") + 1)
        data[entry + 24:entry + 28] = (1).to_bytes(4, "little")
        with self.assertRaisesRegex(UploadError, "more than 2 MB unpacked|cannot be unpacked"):
            read_upload("team.zip", bytes(data), uploads.Caps(unpacked_bytes=2 << 20))

    def test_entries_counted_from_the_central_directory_first(self):
        """435,000 entries would cost zipfile seconds and hundreds of MB to list: the end
        record's count refuses them at once."""
        data = bytearray(zip_bytes([("my_player.py", AGENT)], zipfile.ZIP_STORED))
        end = data.rindex(b"PK\x05\x06")
        data[end + 8:end + 12] = (65000).to_bytes(2, "little") * 2
        started = time.monotonic()
        self.refused("team.zip", bytes(data), "65000 entries in the zip")
        self.assertLess(time.monotonic() - started, 1)

    def test_many_entries_whatever_the_count_says(self):
        names = [(f"d/{i}.txt", b"") for i in range(uploads.Caps(files=10).entries + 1)]
        with self.assertRaisesRegex(UploadError, "a version holds at most 10 files"):
            read_upload("team.zip", zip_bytes([("my_player.py", AGENT)] + names,
                                              zipfile.ZIP_STORED), uploads.Caps(files=10))

    def test_long_and_deep_paths(self):
        long_name = "/".join(["a" * 99] * 3) + ".py"
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT), (long_name, b"")]),
                     "a path of 302 characters; at most 200")
        deep = "/".join(["d"] * 30) + "/x.py"
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT), (deep, b"")]),
                     "folders 30 deep; at most 19")

    def test_names_leaving_the_folder(self):
        for name in ("../evil.py", "team/../../evil.py", "/etc/evil.py", "..\\evil.py",
                     "\\evil.py"):
            with self.subTest(name=name):
                self.refused("team.zip", zip_bytes([("my_player.py", AGENT), (name, b"")]),
                             "a name that leaves the folder")

    def test_symbolic_link(self):
        link = zipfile.ZipInfo("my_link")
        link.create_system = 3
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT), (link, b"/etc/shadow")]),
                     "a symbolic link")

    def test_what_a_name_cannot_hold(self):
        """Each refusal names the name, the character at fault and what to do."""
        for name, phrase in (
                ("a;b.py", "the character ';' (U+003B SEMICOLON) cannot be in a name"),
                ("x\ny.py", "the character '\\n' (U+000A) cannot be in a name"),
                ("-rf.py", "it begins with '-' (U+002D HYPHEN-MINUS)"),
                ("sub:dir/x.py", "'sub:dir': the character ':' (U+003A COLON)"),
                ("evil\u202egnp.py", "(U+202E RIGHT-TO-LEFT OVERRIDE) cannot be in a name"),
                ("no\u00a0break.py", "(U+00A0 NO-BREAK SPACE) cannot be in a name"),
                ("trailing .py ", "a name ending with a space or a dot"),
                ("aux.py", "'aux' is a device's name on Windows"),
                ("d/Com1.txt", "'Com1' is a device's name on Windows"),
                ("é" * 130 + ".py", "a name of 133 characters; at most 100"),
                ("d/" + "棋" * 90 + ".py", "a name of 273 bytes in UTF-8; at most 255"),
                ("back\\slash.py", "a name with '\\'")):
            with self.subTest(name=name):
                message = self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                                              (name, b"")]), phrase)
                self.assertTrue(message.startswith(repr(name)), message)
                if "'\\'" not in phrase:
                    self.assertIn("rename it and zip the folder again", message)

    def test_names_that_cannot_be_read(self):
        """A Unix name that is not UTF-8 says nothing of its encoding; a Windows name read
        in code page 850 to a symbol says how it was read."""
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                            (StoredName(b"caf\xe9.py", 3), b"")]),
                     "'caf\ufffd.py': a name whose bytes (b'caf\\xe9.py') are not UTF-8")
        message = self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                                      (StoredName(b"x\xfe.py", 0), b"")]),
                               "the character '\u25a0' (U+25A0 BLACK SQUARE)")
        self.assertTrue(message.startswith("'x\u25a0.py' (a name from Windows without the "
                                           "zip's UTF-8 mark, read in code page 850"), message)

    def test_one_name_composed_and_decomposed(self):
        """Two members that Linux tells apart and macOS and a reader do not."""
        self.refused("team.zip", zip_bytes([
            ("my_player.py", AGENT), ("stratégie.py", b"A = 1\n"),
            (unicodedata.normalize("NFD", "stratégie.py"), b"B = 2\n")]),
            "'stratégie.py': twice in the zip, its accents written two ways "
            "('strat\\xe9gie.py' and 'strate\\u0301gie.py', composed and decomposed)")

    def test_not_a_zip(self):
        self.refused("team.zip", b"PK\x03\x04 not really", "not a zip file")
        self.refused("team.tar.gz", b"\x1f\x8b", "send my_player.py or a .zip")

    def test_no_agent(self):
        self.refused("team.zip", zip_bytes([("agent.py", AGENT)]), "no my_player.py")
        self.refused("team.zip", zip_bytes([("a/my_player.py", AGENT), ("b/x.py", b"")]),
                     "no my_player.py")

    def test_not_utf8_python(self):
        self.refused("my_player.py", b"# caf\xe9\nx = 1\n", "my_player.py: not UTF-8 (byte 0xe9")
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                            ("helper.py", b"def f(:\n")]),
                     "helper.py line 1: not Python")
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                            ("lib/util.py", b"s = '\xff'\n")]),
                     "lib/util.py: not UTF-8 (byte 0xff")
        self.refused("team.zip", zip_bytes([("my_player.py", AGENT),
                                            ("équipe/stratégie.py", b"def f(:\n")]),
                     "équipe/stratégie.py line 1: not Python")

    def test_a_file_and_a_folder_of_one_name(self):
        """Neither could be written: refused with the name, not a server error."""
        for entries in ([("data", b"1"), ("data/x.txt", b"2")],
                        [("team/data/x.txt", b"2"), ("team/data", b"1")]):
            with self.subTest(entries=entries):
                self.refused("team.zip", zip_bytes([("my_player.py", AGENT)] + entries),
                             "both a file and a folder")

    def test_encrypted_and_duplicated(self):
        data = bytearray(zip_bytes([("my_player.py", AGENT)], zipfile.ZIP_STORED))
        # The general-purpose flag's bit 0 (encrypted), in the local and the central header.
        for header in (b"PK\x03\x04", b"PK\x01\x02"):
            offset = data.index(header) + (6 if header == b"PK\x03\x04" else 8)
            data[offset] |= 1
        self.refused("team.zip", bytes(data), "encrypted")
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate as it writes it
            twice = zip_bytes([("my_player.py", AGENT), ("my_player.py", AGENT)])
        self.refused("team.zip", twice, "twice in the zip")


class CompiledApartTest(SimpleTestCase):
    """The Python files are compiled in a child with caps (source_check): files that would
    take the arena's memory or its C stack are refused with a reason, in seconds."""

    def refused_within(self, content, phrase, seconds=25):
        started = time.monotonic()
        with self.assertRaises(UploadError) as caught:
            read_upload("my_player.py", content)
        self.assertLess(time.monotonic() - started, seconds)
        self.assertRegex(str(caught.exception), phrase)

    def test_a_sum_of_many_terms(self):
        self.refused_within(b"x = " + b"1+" * 200_000 + b"1\n",
                            "nested too deeply|compiler crashed|more than")

    def test_a_compile_bomb(self):
        """A list of 3 million names: gigabytes to compile, refused by the child's cap."""
        self.refused_within(b"a = 1\nx = [" + b"a," * 3_000_000 + b"]\n",
                            "needs more than 512 MB|more than 10 s")

    def test_the_reason_names_the_file_and_line(self):
        self.refused_within(AGENT + b"def broken(:\n", r"my_player.py line 5: not Python")


class ShownPathsTest(SimpleTestCase):
    """A reason holds the agent's tracebacks and the bridge's words, each with the folder the
    files were played from: the team reads the names of its upload."""

    def test_folders_written_away(self):
        temp = Path(tempfile.mkdtemp())
        (temp / "agents" / "8").mkdir(parents=True)
        (temp / "link").symlink_to(temp / "agents")
        agent, course = temp / "link" / "8", temp / "course"
        shown = ShownPaths([agent], course)
        real = temp / "agents" / "8"
        reason = (f'File "{agent}/my_player.py", line 2 / File "{real}/lib/util.py", line 1 / '
                  f'File "{course}/game_state_divercite.py", line 80 / '
                  f'File "{programs.PACKAGE}/course/bridge/agent_child.py", line 121 / '
                  f"No such file or directory: '{real}/données.txt' / cwd '{agent}' / "
                  f"{temp}/agents/80/x.py")
        self.assertEqual(shown(reason),
                         'File "my_player.py", line 2 / File "lib/util.py", line 1 / '
                         'File "game_state_divercite.py", line 80 / '
                         'File "divercite/course/bridge/agent_child.py", line 121 / '
                         "No such file or directory: 'données.txt' / cwd 'the agent's folder' "
                         f"/ {temp}/agents/80/x.py")
        self.assertEqual(ShownPaths()("File \"my_player.py\""), "File \"my_player.py\"")
