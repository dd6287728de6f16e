"""Untrusted agents in the sandbox (course_engine.py --sandbox, issue 34): hostile agents are
stopped with the reason in their game's record and touch nothing outside; the students'
habits still play.

Each hostile agent (agents/hostile/hostile_player.py) lies in a team folder of its own
beside another team's, as a class's agents do, and makes one attack on its first move, under
divercite-match against the engine. Every attack is bounded in count and time, so that a
missing sandbox would fail these tests without harming the machine. Those of issue 42 fight
back: links planted in their folder, the runner's environment read through /proc, processes
that wake each other while the opponent thinks (measured from outside), memory hidden where
no process maps it, io_uring, protocol lines in an exception's text; each test checks too
that nothing of the agent outlives its game and that nothing leaks into the records or the
runner's output.

Run by ctest, or by hand from this folder: /usr/bin/python3 -m unittest -v test_sandbox
"""

import collections
import datetime
import json
import os
import shutil
import socket
import stat
import subprocess
import sys
import threading
import time
import unittest
import uuid

from bridge_support import (AGENTS, ENGINE, HERE, MATCH, WRAPPER, CourseEngineTestCase,
                            finish_match, run_match)
from test_course_habits import HABITS, habit_agent, in_parallel

HOSTILE = os.path.join(AGENTS, "hostile", "hostile_player.py")
LIMIT_FORGER = os.path.join(AGENTS, "hostile", "limit_forger_player.py")
FORKING_ENGINE = os.path.join(HERE, "engines", "forking_engine.py")
# The package with its compiled core: the build tree's, beside the engine.
PACKAGE = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(ENGINE))), "python")
SIMPLE_MOVES = os.path.join(AGENTS, "simple_moves.py")
# A small memory limit: the memory attack stops early, and hurts nothing if unconfined.
SANDBOX = ["--sandbox", "--memory-mb", "256"]
# For a bridge's start (it stages the sandbox's files and checks that the agent imports) on
# a loaded machine: the runner's default, 10 s, is for engines that start at once.
STARTUP = ["-startuptimeout", "60"]
# How the runner records an agent's exception (the bridge names it, `info string crash:`).
RAISED = "crash"
# How the runner records a game that a limit of the sandbox ended.
LIMIT = "limit"
# The variable that makes the sandbox do without cgroups (SIGSTOP and seccomp instead).
NO_CGROUPS = {"DIVERCITE_SANDBOX_CGROUPS": "off"}
# The runner's variable that no agent may read (its value is a fresh token each test).
TOKEN_VARIABLE = "DIVERCITE_TEST_TOKEN"
# How often the tests read, from outside, the agents' CPU time and the host's shared memory.
SAMPLE_SECONDS = 0.02
# The share of its opponent's thinking time an agent's processes may use meanwhile.
FROZEN_SHARE = 0.05
# The sandbox's default memory limit, and what the host's shared memory may exceed it by.
DEFAULT_MEMORY_MB = 2048
SHMEM_SLACK_MB = 64
# The hidden memory agents' clock: filling 2 GB takes seconds, 20 on a loaded machine.
MEMORY_CLOCK = "tc=120"
# The opponent's clock while the frozen agent's processes are watched.
OPPONENT_CLOCK = "tc=15"
# Whether this kernel gives each thread's run time in ns (CONFIG_SCHED_INFO).
SCHEDSTAT = os.path.exists("/proc/self/schedstat")


def sandboxed(agent_path, *options, sandbox=SANDBOX):
    return [f"cmd={WRAPPER}"] + [f"arg={option}" for option in sandbox + list(options)] + [
        f"arg={agent_path}"]


def processes_with(text):
    """The command lines of this machine's processes that hold `text`."""
    found = []
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                line = command.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in line:
            found.append(line)
    return found


class Listener:
    """A TCP port on 127.0.0.1 that counts the connections it gets."""

    def __init__(self, test):
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen()
        self.port = self.socket.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()
        test.addCleanup(self.socket.close)

    def _accept(self):
        while True:
            try:
                connection, _ = self.socket.accept()
            except OSError:
                return
            self.connections += 1
            connection.close()


class HostileTeams(CourseEngineTestCase):
    """Team folders holding the hostile agent, and its games under divercite-match."""

    def team(self, name, attack, target=None, marker=None):
        """A team folder holding the hostile agent ordered to make `attack`."""
        folder = os.path.join(self.temp, "class", name)
        os.makedirs(folder)
        shutil.copy(HOSTILE, os.path.join(folder, "my_player.py"))
        shutil.copy(SIMPLE_MOVES, folder)
        with open(os.path.join(folder, "attack.json"), "w") as orders:
            json.dump({"attack": attack, "target": target, "marker": marker}, orders)
        return os.path.join(folder, "my_player.py")

    def play(self, name, agent_path, games=1, opponent="depth=1", sandbox=SANDBOX, env=None,
             extra=(), clock="tc=20"):
        records = os.path.join(self.temp, f"{name}.jsonl")
        process = run_match(["-engine", *sandboxed(agent_path, sandbox=sandbox), f"name={name}",
                             clock, "-engine", f"cmd={ENGINE}", "name=engine", opponent,
                             "-games", str(games), "-seed", "1", *STARTUP, *extra], records,
                            env=env)
        return finish_match(self, process, records)

    def play_attacks(self, attacks, marker=None, **options):
        """One game of a team for each attack, {name: (attack, target, termination, what the
        record's reason holds)}, in parallel, each checked to end so; (played: {name:
        (records, output)}, the agents' paths)."""
        paths = {name: self.team(name, attack, target, marker)
                 for name, (attack, target, _, _) in attacks.items()}
        played = in_parallel(lambda name: self.play(name, paths[name], **options),
                             list(attacks))
        for name, (records, output) in played.items():
            _, _, termination, reason = attacks[name]
            with self.subTest(agent=name):
                self.assertEqual(len(records), 1, output)
                self.assertEqual(records[0]["termination"], termination, records[0]["reason"])
                self.assertIn(reason, records[0]["reason"])
        return played, paths


class HostileAgentsTest(HostileTeams):
    """Each attack is stopped; the game is recorded with why; nothing outside is touched."""

    def test_attacks_are_stopped_and_recorded(self):
        # Another team's agent, and a file of the runner's, that no agent may read.
        other = os.path.join(self.temp, "class", "other_team")
        os.makedirs(other)
        secret = os.path.join(other, "my_player.py")
        with open(secret, "w") as text:
            text.write("# another team's agent\n")
        planted = os.path.join(self.temp, "class", "planted.txt")
        listener = Listener(self)
        marker = f"{os.getpid() % 1000}.{threading.get_ident() % 100000}"
        attacks = {
            # name: (attack, target, termination, what the record's reason holds)
            "reader": ("read", secret, RAISED, "FileNotFoundError"),
            # Its /tmp is its own: the file is written there, and is gone with the game.
            "writer": ("write", planted, "normal", ""),
            "network": ("connect", listener.port, RAISED, "ConnectionRefusedError"),
            "forker": ("fork", None, LIMIT, "process limit"),
            # Its MemoryError (the address-space limit) is seen inside its process only, and
            # the bridge takes no agent's word for a limit (issue 55): its own error.
            "hog": ("memory", None, RAISED, "MemoryError"),
            "cores": ("cores", None, "normal", ""),
            "lingerer": ("linger", marker, "normal", ""),
        }
        self.play_attacks(attacks, marker)
        self.assertFalse(os.path.exists(planted))
        self.assertEqual(listener.connections, 0)
        # Nothing an agent started outlives its game: not the forker's children, not the
        # lingerer's detached sleep, not a sandbox.
        self.assertEqual(processes_with(f"sleep {marker}"), [])
        self.assertEqual(processes_with(os.path.join(self.temp, "class")), [])

    def test_nothing_of_the_agent_runs_while_its_opponent_thinks(self):
        # The opponent thinks 0.5 s a move: a process left running would get about 1 s by
        # the agent's third move.
        path = self.team("background", "background")
        records, output = self.play("background", path, opponent="st=0.5")
        self.assertEqual(records[0]["termination"], "normal", records[0]["reason"])

    def test_files_written_beside_the_agent_stay_in_its_game(self):
        path = self.team("beside", "beside")
        records, output = self.play("beside", path, games=2)
        self.assertEqual([r["termination"] for r in records], ["normal"] * 2, output)
        self.assertFalse(os.path.exists(os.path.join(os.path.dirname(path), "seen.txt")))


def leftovers(text, seconds=3.0):
    """processes_with(text), once they are gone or `seconds` have passed: the sandbox's end
    is a moment behind the runner's."""
    deadline = time.monotonic() + seconds
    while processes_with(text) and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes_with(text)


def cpu_seconds_of(pid):
    """The CPU time the process's threads have used, in seconds: their run times in ns
    (schedstat, precise where stat's utime+stime count 10 ms ticks); None once gone."""
    if not SCHEDSTAT:
        try:
            with open(f"/proc/{pid}/stat") as status:
                fields = status.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    total = 0
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as schedstat:
                total += int(schedstat.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as command:
            return command.read()
    except OSError:
        return b""


def agent_processes(folder, names=None):
    """{(pid, start time): CPU seconds} of the processes whose command line holds `folder`,
    but the runner and the bridge, its child (their command lines hold the agent's path);
    `names` gets each one's command line and parent, for a report."""
    found = {}
    # Not another team's whose name begins with this one's.
    wanted = (folder.encode() + b"/", folder.encode() + b"\0")
    runner = MATCH.encode()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        line = command_line(pid)
        if not any(text in line for text in wanted) or line.startswith(runner):
            continue
        try:
            with open(f"/proc/{pid}/stat") as status:
                fields = status.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if command_line(fields[1]).startswith(runner):
            continue
        seconds = cpu_seconds_of(pid)
        if seconds is not None:
            found[(int(pid), fields[19])] = seconds
            if names is not None and int(pid) not in names:
                shown = line.replace(b"\0", b" ").decode(errors="replace")[:70]
                names[int(pid)] = f"{shown}... (parent {fields[1]})"
    return found


class Sampler:
    """Calls `read()` every SAMPLE_SECONDS on a thread of its own, keeping (time, value)."""

    def __init__(self, test, read):
        self.read = read
        self.samples = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        test.addCleanup(self.stop)

    def _run(self):
        try:  # ahead of the busy processes it watches, where it may (as root)
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
        except OSError:
            pass
        while not self.done.is_set():
            moment = time.time()
            self.samples.append((moment, self.read()))
            self.done.wait(max(SAMPLE_SECONDS - (time.time() - moment), 0.001))

    def stop(self):
        self.done.set()
        self.thread.join()
        return self.samples


def shmem_mb():
    with open("/proc/meminfo") as meminfo:
        for line in meminfo:
            if line.startswith("Shmem:"):
                return int(line.split()[1]) / 1024
    return 0.0


def thinking_windows(log_path, engine):
    """(start, end) in seconds since the epoch of every move `engine` thought: from the `go`
    the runner sent it to its `bestmove` (the protocol log's timestamps)."""
    windows, started = [], None
    with open(log_path) as log:
        for text in log:
            stamp, _, _, name, direction, line = text.rstrip("\n").split(" ", 5)
            if name != engine:
                continue
            moment = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
            if direction == ">" and line.startswith("go"):
                started = moment
            elif direction == "<" and line.startswith("bestmove") and started is not None:
                windows.append((started, moment))
                started = None
    return windows


def cpu_during(windows, samples):
    """(CPU seconds the sampled processes gained, seconds sampled, {(window number, pid):
    CPU seconds}) over the pairs of consecutive samples that both fall inside one window. A
    process first seen in the later sample counts with all its CPU time (it started
    meanwhile)."""
    sampled, gains = 0.0, collections.Counter()
    for (before_time, before), (after_time, after) in zip(samples, samples[1:]):
        inside = [number for number, (start, end) in enumerate(windows, 1)
                  if start <= before_time and after_time <= end]
        if not inside:
            continue
        sampled += after_time - before_time
        for key, seconds in after.items():
            gains[(inside[0], key[0])] += max(seconds - before.get(key, 0.0), 0.0)
    return sum(gains.values()), sampled, gains


def texts_of(records_path, *more):
    """Everything a match wrote: its records, its output, and the files `more`."""
    found = []
    for path in (records_path, records_path + ".log", *more):
        if os.path.exists(path):
            with open(path, errors="replace") as text:
                found.append(text.read())
    return "\n".join(found)


class HostileAgentsFightBackTest(HostileTeams):
    """Agents that fight the sandbox back (issue 42): links planted in their folder, the
    runner's environment read through /proc, woken processes while the opponent thinks,
    memory hidden where no process maps it, io_uring, forged protocol lines, a limit forged
    on the bridge's pipe (issue 55). Each is refused or stopped; nothing of it outlives its
    game, and nothing leaks."""

    def assertNothingLeft(self, path):
        # The folder's path followed by a separator: not another team's whose name begins
        # with this one's (every process of the agent's holds the agent's path).
        self.assertEqual(leftovers(os.path.dirname(path) + os.sep), [])

    def test_links_out_of_the_folder_are_refused(self):
        secret = f"secret-{uuid.uuid4()}"
        other = os.path.join(self.temp, "class", "other_team")
        os.makedirs(other)
        with open(os.path.join(other, "notes.txt"), "w") as notes:
            notes.write(f"{secret}\n")
        links = {
            # name: (the link planted, where it leads, termination, what the reason holds)
            "looter": ("loot.txt", "../other_team/notes.txt", "crash", "loot.txt"),
            "host": ("host", "/etc", "crash", "host"),
            "looper": ("loop", ".", "normal", ""),
        }
        paths = {}
        for name, (link, destination, _, _) in links.items():
            attack = "loop" if link == "loop" else "links"
            paths[name] = self.team(name, attack, [link])
            os.symlink(destination, os.path.join(os.path.dirname(paths[name]), link))
        played = in_parallel(lambda name: self.play(name, paths[name]), list(links))
        for name, (records, output) in played.items():
            link, _, termination, named = links[name]
            with self.subTest(agent=name):
                self.assertEqual(len(records), 1, output)
                reason = records[0]["reason"]
                self.assertEqual(records[0]["termination"], termination, reason)
                self.assertIn(named, reason)
                if termination == "crash":
                    self.assertIn("outside the folder", reason)
                everything = texts_of(os.path.join(self.temp, f"{name}.jsonl"))
                self.assertNotIn(secret, everything)
                self.assertNotIn("passwd", everything)  # /etc's listing
                self.assertNothingLeft(paths[name])

    def test_the_staged_folder_is_private(self):
        if PACKAGE not in sys.path:
            sys.path.insert(0, PACKAGE)
        from divercite.sandbox import Limits, Sandbox
        folder = os.path.dirname(self.team("private", "beside"))
        os.makedirs(os.path.join(folder, "data"))
        with open(os.path.join(folder, "data", "weights.txt"), "w") as weights:
            weights.write("1 2 3\n")
        box = Sandbox(Limits(), folder, [], PACKAGE)
        try:
            status = os.stat(box.stage)
            self.assertEqual(stat.S_IMODE(status.st_mode), 0o700)
            if os.geteuid() == 0:
                self.assertEqual(status.st_uid, 65534)
            for parent, folders, files in os.walk(box.stage):
                for name in folders + files:
                    path = os.path.join(parent, name)
                    mode = os.lstat(path).st_mode
                    if not stat.S_ISLNK(mode):
                        self.assertEqual(mode & 0o044, 0, f"{path}: {stat.filemode(mode)}")
        finally:
            box.close()

    def test_escapes_are_refused_and_nothing_leaks(self):
        token = str(uuid.uuid4())
        environment = dict(os.environ, **{TOKEN_VARIABLE: token})
        attacks = {
            # name: (attack, target, termination, what the record's reason holds)
            "environ": ("environ", TOKEN_VARIABLE, "normal", ""),
            "io_uring": ("io_uring", None, "normal", ""),
            "newlines": ("newlines", None, RAISED, "boom\\nbestmove RC00"),
        }
        played, paths = self.play_attacks(attacks, env=environment)
        for name, (records, output) in played.items():
            with self.subTest(agent=name):
                self.assertNotIn("played 'RC00'", records[0]["reason"])
                self.assertNotIn(token, texts_of(os.path.join(self.temp, f"{name}.jsonl")))
                self.assertNothingLeft(paths[name])

    def test_woken_processes_stay_frozen_while_the_opponent_thinks(self):
        runs = {"cgroups": None, "no-cgroups": dict(os.environ, **NO_CGROUPS)}
        paths = {name: self.team(name, "frozen") for name in runs}

        def match(name):
            log = os.path.join(self.temp, f"{name}.protocol")
            names = {}
            sampler = Sampler(self, lambda: agent_processes(os.path.dirname(paths[name]), names))
            # The opponent on a clock, not st=0.5 (whose move must come within 0.5 s more):
            # on a loaded machine a slow move costs it time, not the game.
            records, output = self.play(name, paths[name], opponent=OPPONENT_CLOCK,
                                        env=runs[name],
                                        extra=["-log", f"file={log}"])
            samples = sampler.stop()
            return records, output, names, cpu_during(thinking_windows(log, "engine"), samples)

        played = in_parallel(match, list(runs))
        for name, (records, output, names, (gained, sampled, gains)) in played.items():
            share = gained / sampled if sampled else 1.0
            print(f"\n{name}: its processes used {gained:.3f} s of CPU in {sampled:.2f} s of "
                  f"its opponent's thinking ({share:.1%})", file=sys.stderr)
            most = "; ".join(f"{seconds:.3f} s in window {window} by {pid} {names.get(pid)}"
                             for (window, pid), seconds in gains.most_common(3) if seconds)
            with self.subTest(agent=name):
                self.assertEqual(len(records), 1, output)
                self.assertEqual(records[0]["termination"], "normal", records[0]["reason"])
                # Its moves on a 15 s clock, less the sampling's gaps on a loaded machine.
                self.assertGreater(sampled, 4.0)
                self.assertLess(share, FROZEN_SHARE, most)
                self.assertNothingLeft(paths[name])

    def hidden_memory(self, attack, environment):
        """(record, how far above its level before the game the host's shared memory rose,
        in MB) of a game of the agent that makes `attack`, under the default memory
        limit."""
        name = f"{attack}{'-no-cgroups' if environment else ''}"
        path = self.team(name, attack)
        before = shmem_mb()
        sampler = Sampler(self, shmem_mb)
        records, output = self.play(name, path, sandbox=["--sandbox"], env=environment,
                                    clock=MEMORY_CLOCK)
        peak = max(value for _, value in sampler.stop()) - before
        print(f"\n{name}: the host's Shmem rose {peak:.0f} MB", file=sys.stderr)
        self.assertEqual(len(records), 1, output)
        self.assertNothingLeft(path)
        return records[0], peak

    def test_a_limit_the_agent_forges_is_its_own_error(self):
        # Issue 55: a limit in the record is the sandbox's finding, never the agent's words
        # on the bridge's pipe; in the sandbox or not.
        for name, sandbox in (("forger", SANDBOX), ("forger-unboxed", [])):
            with self.subTest(agent=name):
                folder = os.path.join(self.temp, "class", name)
                os.makedirs(folder)
                path = os.path.join(folder, "my_player.py")
                shutil.copy(LIMIT_FORGER, path)
                records, output = self.play(name, path, sandbox=sandbox)
                self.assertEqual(len(records), 1, output)
                reason = records[0]["reason"]
                # Lost by its own error, its words quoted: a limit's reason starts with them.
                self.assertEqual(records[0]["termination"], RAISED, reason)
                self.assertFalse(reason.startswith("memory limit"), reason)
                self.assertIn("forged by the agent", reason)
                self.assertNothingLeft(path)

    def test_hidden_memory_counts_against_the_limit(self):
        for attack in ("memfd", "shm"):
            with self.subTest(attack=attack):
                record, peak = self.hidden_memory(attack, None)
                self.assertLess(peak, DEFAULT_MEMORY_MB + SHMEM_SLACK_MB)
                self.assertEqual(record["termination"], LIMIT, record["reason"])
                self.assertTrue(record["reason"].startswith("memory limit"), record["reason"])

    def test_hidden_memory_is_refused_without_cgroups(self):
        environment = dict(os.environ, **NO_CGROUPS)
        for attack in ("memfd", "shm"):
            with self.subTest(attack=attack):
                record, peak = self.hidden_memory(attack, environment)
                self.assertLess(peak, SHMEM_SLACK_MB)
                self.assertEqual(record["termination"], RAISED, record["reason"])
                self.assertRegex(record["reason"], r"PermissionError|Errno 1\]")

    def test_files_on_its_tmpfs_count_against_the_limit(self):
        # 600 MB of files on its memory-backed folders under a 256 MB limit: the kernel's
        # count holds them with cgroups, the watchdog's count of its tmpfs without.
        for name, environment in (("tmpfs", None), ("tmpfs-no-cgroups",
                                                    dict(os.environ, **NO_CGROUPS))):
            with self.subTest(agent=name):
                path = self.team(name, "tmpfs")
                records, output = self.play(name, path, env=environment, clock=MEMORY_CLOCK)
                self.assertEqual(len(records), 1, output)
                self.assertEqual(records[0]["termination"], "limit", records[0]["reason"])
                self.assertTrue(records[0]["reason"].startswith("memory limit"),
                                records[0]["reason"])
                self.assertNothingLeft(path)


class SandboxedEngineTest(CourseEngineTestCase):
    """Any engine through python3 -m divercite.sandbox.run: ours plays as outside; a forking
    one is stopped with the reason, and nothing it started survives its game."""

    def engine(self, program, name):
        return [f"cmd={sys.executable}", "arg=-m", "arg=divercite.sandbox.run",
                "arg=--memory-mb", "arg=512", f"arg={program}", f"name={name}"]

    def play(self, name, engine, limit):
        records = os.path.join(self.temp, f"{name}.jsonl")
        environment = dict(os.environ, PYTHONPATH=PACKAGE)
        process = run_match(["-engine", *engine, limit, "-engine", f"cmd={ENGINE}",
                             "name=plain", "depth=2", "-games", "2", "-seed", "1", *STARTUP],
                            records, env=environment)
        return finish_match(self, process, records)

    def test_our_engine_plays_in_the_sandbox(self):
        records, output = self.play("boxed", self.engine(ENGINE, "boxed"), "depth=2")
        self.assertEqual([r["termination"] for r in records], ["normal"] * 2, output)

    def test_a_forking_engine_is_stopped(self):
        records, output = self.play("forking", self.engine(FORKING_ENGINE, "forking"), "tc=10")
        self.assertEqual(len(records), 2, output)
        for record in records:
            self.assertIn("process limit", record["reason"])
        self.assertEqual(processes_with(FORKING_ENGINE), [])


class HabitsInTheSandboxTest(CourseEngineTestCase):
    """The students' habits of issue 22 play inside the sandbox as they do outside it."""

    def test_each_habit_agent_plays_as_without_the_sandbox(self):
        def match(name):
            records = os.path.join(self.temp, f"{name}.jsonl")
            process = run_match(
                ["-engine", *sandboxed(habit_agent(name)), f"name={name}",
                 "tc=1" if name == "hanging" else "tc=30",
                 "-engine", f"cmd={ENGINE}", "name=engine", "depth=1", "-games", "2",
                 "-repeat", "-openings", "random", "plies=2", "-seed", "1", *STARTUP],
                records)
            return finish_match(self, process, records)

        played = in_parallel(match, list(HABITS))
        for name, (records, output) in played.items():
            termination, reason = HABITS[name][0]
            with self.subTest(agent=name):
                self.assertEqual(len(records), 2, output)
                for record in records:
                    self.assertEqual(record["termination"], termination, record["reason"])
                    self.assertIn(reason, record["reason"])


class SandboxRefusalsTest(unittest.TestCase):
    def test_limits_without_the_sandbox_are_refused(self):
        result = subprocess.run([WRAPPER, "--memory-mb", "100", HOSTILE],
                                capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 2)
        self.assertIn("need --sandbox", result.stderr)


if __name__ == "__main__":
    unittest.main()
