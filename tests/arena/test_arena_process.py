"""The arena as a class runs it (issue 43): a real `divercite-arena serve` with the course's
three example players and two hostile agents uploaded through the API, killed with SIGKILL
in the middle of games and started again.

Checked: every version settled with its reason (the course's template, which raises, and the
hostile agents rejected; the random and greedy players ready); every finished game's record
replays legally with the package's rules and agrees with its row; the standings served list
the ready versions and the house opponents; after the kill, and after a stop by SIGTERM, no
process of the arena plays on; every game finished before the kill is kept as it was, the
games it cut are played again by the next start, and no game is counted twice.

    cd tests/arena && /usr/bin/python3 -m unittest -v test_arena_process
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import tempfile
import unittest
from pathlib import Path

from arena_process import Server, add_teams, init, poll, zip_of
from arena_support import AGENTS, COURSE

from divercite.records import GameRecord

HOSTILE = AGENTS / "hostile" / "hostile_player.py"
SIMPLE_MOVES = AGENTS / "simple_moves.py"
# An agent whose games last seconds (0.15 s a move, 3 s of its 5 s clock): the test kills the
# arena while one of them is surely being played.
STEADY = """import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="steady"):
        super().__init__(piece_type, name)

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        time.sleep(0.15)
        return first_legal_action(current_state)
"""


def processes_holding(text: str):
    """The pids of the processes whose command line holds `text`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                line = file.read().replace(b"\0", b" ").decode("utf-8", "replace")
            with open(f"/proc/{entry}/stat") as file:
                zombie = file.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            continue
        if text in line and not zombie and int(entry) != os.getpid():
            found.append(int(entry))
    return found


class ArenaProcessTest(unittest.TestCase):
    def setUp(self):
        self.temp = Path(tempfile.mkdtemp(prefix="divercite_arena_process_"))
        self.addCleanup(shutil.rmtree, self.temp, ignore_errors=True)
        self.folder = self.temp / "arena"
        self.server = None
        self.addCleanup(self.stop_server)

    def stop_server(self):
        if self.server is not None and self.server.process.poll() is None:
            self.server.kill()

    def hostile_team(self, name, attack):
        folder = self.temp / "uploads" / name
        folder.mkdir(parents=True)
        shutil.copy(HOSTILE, folder / "my_player.py")
        shutil.copy(SIMPLE_MOVES, folder)
        (folder / "attack.json").write_text(json.dumps({"attack": attack, "marker": 43}))
        return zip_of(folder)

    def steady_team(self):
        folder = self.temp / "uploads" / "steady"
        folder.mkdir(parents=True)
        (folder / "my_player.py").write_text(STEADY)
        shutil.copy(SIMPLE_MOVES, folder)
        return zip_of(folder)

    def done_games(self):
        return {game["id"]: game for game in self.server.json("/api/games")["games"]
                if game["result"] is not None}

    def test_class_arena_killed_and_started_again(self):
        init(self.folder, tc=5)
        uploads = {
            "rand": ("my_player.py",
                     (COURSE / "divercite" / "random_player_divercite.py").read_bytes()),
            "greed": ("my_player.py",
                      (COURSE / "divercite" / "greedy_player_divercite.py").read_bytes()),
            "template": ("my_player.py", (COURSE / "divercite" / "my_player.py").read_bytes()),
            "steady": ("steady.zip", self.steady_team()),
            "forker": ("forker.zip", self.hostile_team("forker", "fork")),
            "forger": ("forger.zip", self.hostile_team("forger", "newlines")),
        }
        tokens = add_teams(self.folder, *uploads)
        self.server = Server(self.folder, workers=2)
        versions = {}
        for team, (name, content) in uploads.items():
            status, answer = self.server.upload(tokens[team], name, content)
            self.assertEqual(status, 201, answer)
            self.assertEqual(answer["status"], "checking")
            versions[team] = answer["version"]

        def settled():
            states = {team: self.server.json(f"/api/agents/{version}", tokens[team])
                      for team, version in versions.items()}
            return states if all(s["status"] != "checking" for s in states.values()) else None
        states = poll(settled, 240, "every upload checked", detail=self.situation)
        for team in ("rand", "greed", "steady"):
            self.assertEqual(states[team]["status"], "ready", states[team])
        for team in ("template", "forker", "forger"):
            self.assertEqual(states[team]["status"], "rejected", states[team])
            self.assertTrue(states[team]["reason"], states[team])
        self.assertIn("MethodNotImplementedError", states["template"]["reason"])
        # The forger's exception text holds protocol lines: kept as text, never taken as a move.
        self.assertIn("boom\\nbestmove RC00", states["forger"]["reason"])
        self.assertNotIn("played 'RC00'", states["forger"]["reason"])

        # Killed in the middle of a game of a team (its bridge and sandbox running).
        def team_game_playing():
            for game in self.server.json("/api/games")["games"]:
                if game["result"] is None and "steady" in (game["p1"], game["p2"]):
                    return game
            return None
        playing = poll(team_game_playing, 180, "a game of the team steady being played",
                       interval=0.2, detail=self.situation)
        before = self.done_games()
        kept = {pk: hashlib.sha256(self.server.request(f"/api/games/{pk}/record")[1]).hexdigest()
                for pk in before}
        self.server.kill()
        cut = [pk for pk, status in self.game_states().items() if status == "playing"]
        self.assertIn(playing["id"], cut, "steady's game was not being played at the kill")
        agents = str(self.folder / "agents")
        poll(lambda: not processes_holding(agents), 20,
             "the killed arena's games stopped (no process with its agents' path)")

        self.server = Server(self.folder, workers=2)
        self.assertIn("cut by the last stop: queued again", self.server.output())
        poll(lambda: all(self.game_states()[pk] == "done" for pk in cut), 240,
             f"the cut games {cut} played again", detail=self.situation)
        poll(lambda: len(self.done_games()) >= len(before) + 6, 240, "six more games",
             detail=self.situation)
        # A stop ends the games being played (queued again) before the process exits: no
        # thread is left in the database or the package's engine while Python exits.
        self.assertEqual(self.server.stop(), 0)
        self.assertIn("Stopped;", self.server.output())
        poll(lambda: not processes_holding(agents), 20,
             "the stopped arena's games ended (no process with its agents' path)")

        self.server = Server(self.folder, workers=0)
        after = self.done_games()
        for pk, digest in kept.items():
            self.assertIn(pk, after)
            record = self.server.request(f"/api/games/{pk}/record")[1]
            self.assertEqual(hashlib.sha256(record).hexdigest(), digest, f"game {pk} changed")
        self.check_records(after)
        standings = {line["team"]: line for line in self.server.json("/api/standings")["standings"]}
        for name in ("rand", "greed", "steady", "random", "engine-40k", "skypiea_v5"):
            self.assertIn(name, standings)
        for name in ("template", "forker", "forger", "course-random"):
            self.assertNotIn(name, standings)
        counted = sum(line["games"] for line in standings.values())
        # A game lost to the loaded machine (the house's 0.1 s engine starved of its core)
        # counts nowhere and is played again (play/fairness.py).
        rated = [game for game in after.values()
                 if game["purpose"] != "check" and not game["set_aside"]]
        self.assertEqual(counted, 2 * len(rated), "a game counted twice, or not at all")
        for game in after.values():
            if game["set_aside"]:
                self.assertTrue(game["set_aside"].startswith("worker overloaded: "), game)
        self.server.stop()

    def rows(self, query: str):
        """The rows of `query` on the arena's database (read by the test, not the API: the
        queued games too)."""
        with sqlite3.connect(self.folder / "arena.sqlite3", timeout=30) as connection:
            return connection.execute(query).fetchall()

    def game_states(self):
        """{id: status} of every game in the database."""
        return dict(self.rows("SELECT id, status FROM arena_game"))

    def situation(self) -> str:
        """Every game as the database has it, then the arena's last lines: what a failed
        wait shows."""
        games = self.rows(
            "SELECT g.id, g.purpose, e1.name, e2.name, g.status, g.attempts, g.worker,"
            " g.queued, g.started, g.ended, g.termination, g.reason, g.set_aside"
            " FROM arena_game g"
            " JOIN arena_version v1 ON v1.id = g.p1_id"
            " JOIN arena_entry e1 ON e1.id = v1.entry_id"
            " JOIN arena_version v2 ON v2.id = g.p2_id"
            " JOIN arena_entry e2 ON e2.id = v2.entry_id"
            " ORDER BY g.id")
        lines = [" | ".join(str(field)[:160] for field in game) for game in games]
        return ("games (id | purpose | p1 | p2 | status | attempts | worker | queued | started"
                " | ended | termination | reason | set aside):\n" + "\n".join(lines)
                + "\nthe arena's last lines:\n" + self.server.output())

    def check_records(self, games):
        for pk, game in games.items():
            status, body = self.server.request(f"/api/games/{pk}/record")
            self.assertEqual(status, 200)
            self.assertEqual(body.count(b"\n"), 1, f"game {pk}: one JSON line")
            record = GameRecord.from_json(body.decode())
            positions = record.positions()  # ValueError on an illegal move
            self.assertEqual((record.p1, record.p2), (game["p1"], game["p2"]))
            self.assertEqual(record.result, game["result"])
            self.assertEqual(record.final, [game["score1"], game["score2"]])
            if record.termination == "normal":
                self.assertEqual(len(positions), 41, f"game {pk}")
                self.assertEqual(list(positions[-1].scores), record.final)
            else:
                self.assertTrue(record.reason, f"game {pk} ended by {record.termination}")


if __name__ == "__main__":
    unittest.main()
