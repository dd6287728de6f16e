"""A class's ladder (python3 -m divercite.ladder, issue 34): 12 teams' agents, sandboxed,
every pair played, the standings and the report; then a 13th team, and only its games.

The teams: the course's three example players, eight habit agents of issue 22 and a hostile
agent that forks until stopped, each in a folder of its own as my_player.py (with the files it
imports beside it). One game a pair keeps the test short (a ladder's default is two, both
colours on one opening).

Run by ctest, or by hand from this folder: /usr/bin/python3 -m unittest -v test_ladder
"""

import hashlib
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

from bridge_support import AGENTS, COURSE, CourseEngineTestCase
from test_sandbox import HOSTILE, PACKAGE, SIMPLE_MOVES, processes_with
COURSE_PLAYERS = {"random": "random_player_divercite.py", "greedy": "greedy_player_divercite.py",
                  "example": "my_player.py"}
HABITS = ("class_state", "globals", "whoami", "clock_planner", "noisy", "unseeded",
          "unserialisable", "late_raising")


class LadderTest(CourseEngineTestCase):
    def make_team(self, name, agent, extra=()):
        folder = os.path.join(self.class_dir, name)
        os.makedirs(folder)
        shutil.copy(agent, os.path.join(folder, "my_player.py"))
        for path in extra:
            shutil.copy(path, folder)
        return folder

    def ladder(self, *options):
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [PACKAGE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        result = subprocess.run(
            [sys.executable, "-m", "divercite.ladder", self.class_dir, "--out", self.out,
             "--games", "1", "--tc", "30", "--concurrency", "2", "--memory-mb", "512",
             "--estimate", "50", *options],
            capture_output=True, text=True, env=environment, timeout=600)
        return result

    def pair_files(self):
        folder = os.path.join(self.out, "pairs")
        return {path.name: hashlib.sha256(path.read_bytes()).hexdigest()
                for path in pathlib.Path(folder).glob("*.jsonl")}

    def test_twelve_teams_then_a_thirteenth(self):
        self.class_dir = os.path.join(self.temp, "class")
        self.out = os.path.join(self.temp, "ladder")
        for name, file in COURSE_PLAYERS.items():
            self.make_team(name, os.path.join(COURSE, file))
        for name in HABITS:
            self.make_team(name, os.path.join(AGENTS, f"{name}_player.py"), [SIMPLE_MOVES])
        forker = self.make_team("forker", HOSTILE, [SIMPLE_MOVES])
        with open(os.path.join(forker, "attack.json"), "w") as orders:
            json.dump({"attack": "fork"}, orders)

        result = self.ladder()
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertIn("12 teams, 66 pairs; 66 to play", result.stdout)
        self.assertIn("50 teams:", result.stdout)
        with open(os.path.join(self.out, "standings.json")) as text:
            written = json.load(text)
        standings = written["standings"]
        self.assertEqual(len(standings), 12)
        # How the 66 games ended, as the pairs' records say, printed with the standings (the
        # forker, the raising template and some habit agents lose games by illegal moves).
        terminations = written["terminations"]
        ended = {}
        for path in pathlib.Path(self.out, "pairs").glob("*.jsonl"):
            for line in path.read_text().splitlines():
                how = json.loads(line)["termination"]
                ended[how] = ended.get(how, 0) + 1
        self.assertEqual(terminations, ended)
        self.assertEqual(sum(terminations.values()), 66, terminations)
        self.assertRegex(result.stdout, r"\n66 games \(\d+ \w+(, \d+ \w+)+\); the reasons "
                         r"are in each pair's records and report\n")
        for entry in standings:
            self.assertEqual(entry["games"], 11, entry)
            self.assertIsNotNone(entry["elo_interval"])
        # The forker loses each game it moves in; the course's template (which raises) may
        # fail first.
        points = {s["name"]: s["points"] for s in standings}
        self.assertLessEqual(points["forker"], 1)
        self.assertLessEqual(points["example"], 1)
        files = self.pair_files()
        self.assertEqual(len(files), 66)
        for name in files:
            self.assertTrue(os.path.isfile(os.path.join(self.out, "pairs", name[:-6],
                                                        "index.html")), name)
        for name in [n for n in files if "forker" in n and "example" not in n]:
            with open(os.path.join(self.out, "pairs", name)) as lines:
                (record,) = [json.loads(line) for line in lines]
            self.assertIn("process limit", record["reason"])
            self.assertNotEqual(record["result"], "1/2-1/2")
        with open(os.path.join(self.out, "index.html")) as page:
            text = page.read()
        self.assertEqual(text.count("<tr><td class=\"n\">"), 12)
        self.assertIn("href=\"pairs/class_state--clock_planner/index.html\"", text)

        # A thirteenth team: its 12 games only, in two shards (as two Slurm array tasks run
        # them), every other pair's records untouched.
        self.make_team("late_entry", os.path.join(AGENTS, "globals_player.py"), [SIMPLE_MOVES])
        to_play = 0
        for shard in ("1/2", "2/2"):
            again = self.ladder("--shard", shard)
            self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
            counts = re.search(r"13 teams, 78 pairs; (\d+) to play", again.stdout)
            self.assertIsNotNone(counts, again.stdout)
            to_play += int(counts.group(1))
        self.assertEqual(to_play, 12)
        after = self.pair_files()
        self.assertEqual({name: digest for name, digest in after.items() if name in files},
                         files)
        self.assertEqual(sorted(set(after) - set(files)),
                         sorted(n for n in after if "late_entry" in n))
        with open(os.path.join(self.out, "timings.jsonl")) as lines:
            timings = [json.loads(line) for line in lines]
        self.assertEqual(len(timings), 78)
        self.assertTrue(all("late_entry" in (t["a"], t["b"]) for t in timings[66:]))

        # The report of the whole, as the merge step after the shards makes it; then a run
        # with nothing left to play.
        report = self.ladder("--report")
        self.assertEqual(report.returncode, 0, report.stderr)
        with open(os.path.join(self.out, "standings.json")) as text:
            standings = json.load(text)["standings"]
        self.assertEqual(sorted(s["games"] for s in standings), [12] * 13)
        third = self.ladder()
        self.assertEqual(third.returncode, 0, third.stderr)
        self.assertIn("13 teams, 78 pairs; 0 to play", third.stdout)
        self.assertEqual(self.pair_files(), after)
        self.assertEqual(processes_with(self.class_dir), [])

    def test_a_class_without_two_teams_is_refused(self):
        self.class_dir = os.path.join(self.temp, "empty")
        self.out = os.path.join(self.temp, "ladder")
        self.make_team("alone", os.path.join(COURSE, "random_player_divercite.py"))
        result = self.ladder()
        self.assertEqual(result.returncode, 2)
        self.assertIn("1 team folder(s) holding my_player.py; a ladder needs two or more",
                      result.stderr)
