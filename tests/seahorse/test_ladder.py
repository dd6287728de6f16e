"""A class's ladder (python3 -m divercite.ladder, issue 34): 12 teams' agents, sandboxed,
every pair played, the standings and the report; then a 13th team, and only its games.

The teams: the course's three example players, eight habit agents of issue 22 and a hostile
agent that forks until stopped, each in a folder of its own as my_player.py (with the files it
imports beside it). One game a pair keeps the test short (a ladder's default is two, both
colours from the empty board).

Then (issue 42) a ladder that no agent's output breaks: an agent writing 200 MB on stderr, one
writing bytes that are not UTF-8 and raising with them, and a team whose folder links to
another team's file (refused, reported, not played); and a pair whose match raises.

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
import tempfile
import time
import unittest
import uuid
from unittest import mock

from bridge_support import AGENTS, COURSE, GREEDY, RANDOM, CourseEngineTestCase, agent
from test_sandbox import HOSTILE, PACKAGE, SIMPLE_MOVES, leftovers

sys.path.insert(0, PACKAGE)
from divercite import ladder, match  # noqa: E402
COURSE_PLAYERS = {"random": "random_player_divercite.py", "greedy": "greedy_player_divercite.py",
                  "example": "my_player.py"}
HABITS = ("class_state", "globals", "whoami", "clock_planner", "noisy", "unseeded",
          "unserialisable", "late_raising")
# The ladder run through this, to read its own peak memory (its process's alone, not the
# runner's or the agents') as it exits: argv[1] is the file that receives it, in KB.
MEASURED = ("import atexit, resource, runpy, sys\n"
            "peak = sys.argv.pop(1)\n"
            "atexit.register(lambda: open(peak, 'w').write(\n"
            "    str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)))\n"
            "runpy.run_module('divercite.ladder', run_name='__main__', alter_sys=True)\n")


class LadderTest(CourseEngineTestCase):
    def make_team(self, name, agent, extra=()):
        folder = os.path.join(self.class_dir, name)
        os.makedirs(folder)
        shutil.copy(agent, os.path.join(folder, "my_player.py"))
        for path in extra:
            shutil.copy(path, folder)
        return folder

    def ladder(self, *options, peak=None):
        """Runs the ladder (options after the defaults here override them); with `peak`, a
        file that receives its process's peak resident memory in KB."""
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [PACKAGE] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
        start = ["-m", "divercite.ladder"] if peak is None else ["-c", MEASURED, peak]
        result = subprocess.run(
            [sys.executable, *start, self.class_dir, "--out", self.out,
             "--games", "1", "--tc", "30", "--concurrency", "2", "--memory-mb", "512",
             "--estimate", "50", *options],
            capture_output=True, text=True, errors="replace", env=environment, timeout=600)
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
            # A limit hit is a termination of its own, its reason first.
            self.assertEqual(record["termination"], "limit", record["reason"])
            self.assertTrue(record["reason"].startswith("process limit"), record["reason"])
            self.assertNotEqual(record["result"], "1/2-1/2")
        with open(os.path.join(self.out, "index.html")) as page:
            text = page.read()
        # The standings table and the cross table of the one writer (divercite._core).
        table = text.split("<table class=\"standings\" id=\"standings\">")[1].split("</table>")[0]
        self.assertEqual(table.split("<tbody>")[1].count("<tr>"), 12)
        cross = text.split("<table class=\"cross\" id=\"cross-table\">")[1].split("</table>")[0]
        self.assertEqual(cross.count("<td class=\"self\"></td>"), 12)
        self.assertIn("href=\"pairs/class_state--clock_planner/index.html\"", cross)

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
        # The boxes of the last games end a moment after the ladder, by their cleaners
        # (under load, seconds after).
        self.assertEqual(leftovers(self.class_dir, seconds=10), [])

    def test_a_class_without_two_teams_is_refused(self):
        self.class_dir = os.path.join(self.temp, "empty")
        self.out = os.path.join(self.temp, "ladder")
        self.make_team("alone", os.path.join(COURSE, "random_player_divercite.py"))
        result = self.ladder()
        self.assertEqual(result.returncode, 2)
        self.assertIn("1 team folder(s) holding my_player.py; a ladder needs two or more",
                      result.stderr)

    def test_no_agent_output_breaks_the_ladder(self):
        """Six teams, sandboxed, two games a pair from the empty board: one writes 200 MB on
        stderr as it is imported (each of its processes), one writes bytes that are not UTF-8
        at every move and raises once with them in its exception, one's folder holds a link
        to another team's secret file (refused, listed, never played), and three of the
        course's players. The ladder ends with its standings, its own process under 300 MB
        (ru_maxrss as it exits), and the secret in none of its outputs."""
        self.class_dir = os.path.join(self.temp, "class")
        self.out = os.path.join(self.temp, "ladder")
        self.make_team("flooding", agent("flooding"), [SIMPLE_MOVES])
        self.make_team("garbled", agent("garbled"), [SIMPLE_MOVES])
        victim = self.make_team("greedy", GREEDY)
        secret = f"the greedy team's secret {uuid.uuid4().hex}"
        with open(os.path.join(victim, "secret.txt"), "w") as text:
            text.write(secret + "\n")
        thief = self.make_team("thief", agent("stealing"))
        os.symlink(os.path.join("..", "greedy", "secret.txt"), os.path.join(thief, "notes.txt"))
        self.make_team("random", RANDOM)
        self.make_team("example", os.path.join(COURSE, COURSE_PLAYERS["example"]))

        peak_file = os.path.join(self.temp, "peak")
        started = time.monotonic()
        result = self.ladder("--games", "2", "--tc", "10", peak=peak_file)
        seconds = time.monotonic() - started
        said = result.stdout + result.stderr
        self.assertEqual(result.returncode, 0, said)
        self.assertRegex(result.stdout, r"^refused: thief: the agent's folder \S+thief: "
                         r"notes\.txt: a link to \.\./greedy/secret\.txt, outside the folder")
        self.assertIn("5 teams, 10 pairs; 10 to play", result.stdout)
        with open(peak_file) as text:
            peak_mb = int(text.read()) / 1024
        print(f"\nthe ladder: {seconds:.0f} s, its peak {peak_mb:.0f} MB", file=sys.stderr)
        self.assertLess(peak_mb, 300)

        with open(os.path.join(self.out, "standings.json"), encoding="utf-8") as text:
            written = json.load(text)
        self.assertEqual(written["teams"], 5)
        self.assertEqual(sorted(s["name"] for s in written["standings"]),
                         ["example", "flooding", "garbled", "greedy", "random"])
        for entry in written["standings"]:
            self.assertEqual(entry["games"], 8, entry)
        self.assertEqual([r["name"] for r in written["refused"]], ["thief"])
        self.assertIn("notes.txt: a link to ../greedy/secret.txt", written["refused"][0]["reason"])
        self.assertEqual(written["failures"], [])
        self.assertEqual(sum(written["terminations"].values()), 20)
        self.assertIn("refused: thief: ", result.stdout.split("\n20 games", 1)[1])
        with open(os.path.join(self.out, "index.html"), encoding="utf-8") as page:
            text = page.read()
        self.assertIn("<td>thief</td>", text)
        self.assertIn("from the empty board", text)

        # Every pair: both colours, from the empty board; the thief in no pair.
        pairs = sorted(pathlib.Path(self.out, "pairs").glob("*.jsonl"))
        self.assertEqual(len(pairs), 10)
        for path in pairs:
            self.assertNotIn("thief", path.name)
            with open(path, encoding="utf-8", errors="replace") as lines:
                games = [json.loads(line) for line in lines]
            self.assertEqual([(g["start"], g["opening"]) for g in games],
                             [("startpos", "")] * 2, path.name)
            a, b = path.name[:-len(".jsonl")].split("--")
            self.assertEqual({(g["p1"], g["p2"]) for g in games}, {(a, b), (b, a)}, path.name)
        # The flooding agent plays its games to their end (its output costs it nothing).
        with open(os.path.join(self.out, "pairs", "flooding--random.jsonl")) as lines:
            self.assertEqual({json.loads(line)["termination"] for line in lines}, {"normal"})

        # The secret in none of the ladder's outputs.
        self.assertNotIn(secret, said)
        for path in pathlib.Path(self.out).rglob("*"):
            if path.is_file():
                self.assertNotIn(secret.encode(), path.read_bytes(), path)
        # The boxes of the last games end a moment after the ladder, by their cleaners
        # (under load, seconds after).
        self.assertEqual(leftovers(self.class_dir, seconds=10), [])


class PlayPairTest(unittest.TestCase):
    """A pair whose match fails by anything, an exception included, is recorded with why;
    the ladder goes on to the standings."""

    def setUp(self):
        folder = tempfile.mkdtemp(prefix="ladder_play_pair_")
        self.addCleanup(shutil.rmtree, folder, ignore_errors=True)
        self.settings = ladder.Settings(class_dir=pathlib.Path(folder, "class"),
                                        out=pathlib.Path(folder, "ladder"))
        (self.settings.out / "pairs").mkdir(parents=True)
        self.a = ladder.Team("a", pathlib.Path(folder, "a", "my_player.py"))
        self.b = ladder.Team("b", pathlib.Path(folder, "b", "my_player.py"))

    def test_an_exception_is_a_recorded_failure(self):
        odd = b"\xff\xfe not utf-8".decode("utf-8", "surrogateescape")
        with mock.patch.object(match, "run", side_effect=KeyError(odd)):
            why = ladder.play_pair(self.settings, self.a, self.b)
        self.assertRegex(why, r"^a against b: KeyError: .*not utf-8")
        failed = self.settings.pair_path("a", "b", ".failed")
        self.assertIn("KeyError", failed.read_text(encoding="utf-8"))
        why.encode("utf-8")  # printable: no surrogates

        # The standings say it, with no game played: printed, in standings.json and the page.
        with mock.patch.object(match, "run", side_effect=OSError("disk full")):
            failures = ladder.play(self.settings, [self.a, self.b], progress=lambda line: None)
        self.assertEqual(failures, ["a against b: OSError: disk full"])
        result = ladder.report(self.settings, [self.a, self.b])
        self.assertEqual(result.failures, [("a", "b", "OSError: disk full")])
        self.assertIn("failed: a - b: OSError: disk full",
                      ladder.text_report(result, [self.a, self.b], self.settings, None))
        ladder.write_report(result, [self.a, self.b], self.settings)
        written = json.loads((self.settings.out / "standings.json").read_text())
        self.assertEqual(written["failures"],
                         [{"a": "a", "b": "b", "reason": "OSError: disk full"}])
        self.assertIn("OSError: disk full", (self.settings.out / "index.html").read_text())

        # Once the pair has its games, the failure is gone.
        with mock.patch.object(ladder.pairs, "finished_games", return_value=self.settings.games):
            self.assertIsNone(ladder.play_pair(self.settings, self.a, self.b))
        self.assertFalse(failed.exists())

    def test_the_runners_output_is_kept_in_part(self):
        """A runner that writes 100 MB of lines that are not UTF-8 on stderr and fails: a
        MatchError with its last lines, decoded, and the count of the others."""
        flood = ("import os\n"
                 "for _ in range(100):\n"
                 "    os.write(2, b'\\xff\\xfe\\x80 not utf-8\\n' * 65536)\n"
                 "os.write(1, b'\\xff out\\n')\n"
                 "raise SystemExit(3)\n")
        with self.assertRaises(match.MatchError) as caught:
            match._run([sys.executable, "-c", flood], timeout=60)
        said = str(caught.exception)
        self.assertRegex(said, r"^divercite-match exited with status 3: \.\.\. \(6553592 more "
                               r"lines\)\n\ufffd\ufffd\ufffd not utf-8\n")
        self.assertEqual(said.count("not utf-8"), match.SAID_LINES)
