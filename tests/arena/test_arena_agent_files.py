"""A team's files as a French class writes them, played for real (issue 57): a zip made by
Windows' own zip (names in code page 850, no UTF-8 flag) whose `my_player.py` imports
`stratégie.py` and reads `données.txt`, uploaded to a real `divercite-arena serve` and
played, in the sandbox through the course bridge, by a worker on another machine's footing
(`divercite-arena worker`, its own folder) and by serve's own worker; and an agent whose
helper fails at import, whose reason names its files as the upload does, never the folder the
arena or the worker keeps them in.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_agent_files
"""

from __future__ import annotations

import io
import shutil
import tempfile
import unittest
import zipfile
from pathlib import Path

from arena_process import Server, Worker, add_teams, add_worker_token, init, poll

STRATEGY = """def premier_coup(état):
    \"\"\"The first legal action in a fixed order (piece, then cell).\"\"\"
    coups = état.get_possible_light_actions()
    return min(coups, key=lambda coup: (coup.data["piece"], coup.data["position"]))
"""
AGENT = """from pathlib import Path

from player_divercite import PlayerDivercite
from stratégie import premier_coup


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="accents"):
        super().__init__(piece_type, name)
        self.données = (Path(__file__).parent / "données.txt").read_text(encoding="utf-8")

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        assert self.données == "thé\\n", self.données
        return premier_coup(current_state)
"""
BROKEN = """from player_divercite import PlayerDivercite
import helper


class MyPlayer(PlayerDivercite):
    pass
"""


class WindowsName(zipfile.ZipInfo):
    """A member as Windows' "Compress to ZIP file" writes it: its name in the OEM code page
    (850, Windows in French), the UTF-8 flag clear, made on MS-DOS/FAT."""

    def __init__(self, name: str):
        super().__init__(name)
        self.create_system = 0

    def _encodeFilenameFlags(self):  # zipfile writes any name that is not ASCII in UTF-8
        return self.filename.encode("cp850"), self.flag_bits & ~0x800


def zip_of(files, member=str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(member(name), content.encode("utf-8"))
    return buffer.getvalue()


class AgentFilesTest(unittest.TestCase):
    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_arena_files_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)
        self.folder = self.temp / "arena"
        init(self.folder, tc=5)
        self.tokens = add_teams(self.folder, "accents", "broken")
        self.running = []
        self.addCleanup(self.stop_all)

    def stop_all(self):
        for process in self.running:
            if process.process.poll() is None:
                process.kill()

    def upload_and_check(self, server, team, name, content):
        """The version's state once its check game is played."""
        status, answer = server.upload(self.tokens[team], name, content)
        self.assertEqual(status, 201, answer)
        version = answer["version"]

        def checked():
            state = server.json(f"/api/agents/{version}", self.tokens[team])
            return state if state["status"] != "checking" else None
        return poll(checked, 180, f"{team}'s version {version} checked")

    def assert_named_as_uploaded(self, reason, *folders):
        # The bridge names the exception's file and line (its traceback is in the team's log
        # of the game).
        self.assertIn("importing my_player.py failed: ValueError in helper.py, line 1 (import)",
                      reason)
        for folder in folders:
            self.assertNotIn(str(folder), reason)
        self.assertNotIn("/agents/", reason)
        self.assertNotIn("/versions/", reason)

    def test_played_by_a_remote_worker_and_by_serve(self):
        french = zip_of({"équipe/my_player.py": AGENT, "équipe/stratégie.py": STRATEGY,
                         "équipe/données.txt": "thé\n"}, WindowsName)
        self.assertIn("donn\x82es.txt".encode("latin-1"), french)  # é in code page 850
        broken = zip_of({"my_player.py": BROKEN, "helper.py": "raise ValueError('no')\n"})

        # Another machine's worker, with a folder of its own, plays the check games.
        token = add_worker_token(self.folder, "far")
        server = Server(self.folder, workers=0)
        self.running.append(server)
        worker_folder = self.temp / "worker"
        worker = Worker(server.address, token, worker_folder)
        self.running.append(worker)
        state = self.upload_and_check(server, "accents", "équipe.zip", french)
        self.assertEqual(state["status"], "ready", state)
        state = self.upload_and_check(server, "broken", "broken.zip", broken)
        self.assertEqual(state["status"], "rejected", state)
        self.assert_named_as_uploaded(state["reason"], worker_folder, self.temp)
        self.assertEqual(len(list((worker_folder / "versions").iterdir())), 2)

        # serve's own worker, on the arena's folder.
        self.assertEqual(worker.stop(), 0)
        worker.process.stdout.close()
        server.stop()
        server = Server(self.folder, workers=1)
        self.running.append(server)
        state = self.upload_and_check(server, "broken", "broken.zip", broken)
        self.assertEqual(state["status"], "rejected", state)
        self.assert_named_as_uploaded(state["reason"], self.folder, self.temp)
        state = self.upload_and_check(server, "accents", "équipe.zip", french)
        self.assertEqual(state["status"], "ready", state)
        server.stop()


if __name__ == "__main__":
    unittest.main()
