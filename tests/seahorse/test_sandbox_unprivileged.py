"""The sandbox under a service's own user, without cgroups, as docs/arena.md's systemd unit
runs the arena (`User=arena`; issue 55): as safe as under root.

The test makes a user of its own (useradd; removed after), gives it world-readable copies of
the engine, the runner, the package and the course, and runs the games as the arena does:
`divercite-match` started as that user (setpriv --reuid --regid --init-groups, the
environment systemd gives a service), the teams through `python3 -m divercite.course.engine
--sandbox --course ...`. Such a user cannot make control groups on a host that does not
delegate them (this one's hierarchies are root's), so the fallbacks alone hold the agents:
SIGSTOP while the opponent thinks, the watchdog's counts. Checked:
  - the agent's /etc is the sandbox's own (its user, localhost, the loader's cache), not the
    host's: no shadow, no host's users;
  - a file of the service's user, mode 0600, in a folder the sandbox shows (--readable, a
    venv's way in), is refused to the agent, as are its private folder and a file its group
    alone may read, while the folder's public file reads; a uid map alone (bubblewrap's
    --uid) would not refuse it, which the test shows too;
  - 20 games whose agent hits its memory limit, and 20 sandboxes whose owner is killed
    while they start, stopped (a frozen spare, as the bridge keeps one) or running, leave no
    process of the user behind, and no stopped bubblewrap or setpriv whose parent is the
    host's init.

Run by ctest (as root; skipped otherwise), or by hand from this folder:
/usr/bin/python3 -m unittest -v test_sandbox_unprivileged
"""

import json
import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest
import uuid

from bridge_support import COURSE, ENGINE, MATCH, SEAHORSE
from test_course_habits import in_parallel
from test_sandbox import HOSTILE, PACKAGE, SIMPLE_MOVES

# The games that hit their memory limit, and the owners killed with a stopped sandbox.
GAMES = 20
OWNERS = 20
SANDBOX = ["--sandbox", "--memory-mb", "256"]
STARTUP = ["-startuptimeout", "60"]
# How long after its owner's end a sandbox's processes may take to go (the cleaner's work).
GONE_SECONDS = 10.0
# What systemd gives a service's processes besides its user's names and home.
SERVICE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# The names the sandbox's own /etc may hold (divercite.sandbox.etc), and those it must.
ETC_ALLOWED = {"passwd", "group", "hosts", "hostname", "nsswitch.conf", "ld.so.cache",
               "localtime", "timezone", "alternatives"}
ETC_NEEDED = {"passwd", "group", "hosts", "nsswitch.conf", "ld.so.cache"}
SANDBOX_USER = 65534
# The users this test makes: the prefix, then the test's process id.
USER_PREFIX = "dvsandbox"
# An agent that reports what it can see, in the exception its first move raises.
PROBE_AGENT = textwrap.dedent('''\
    import json
    import os
    import pwd

    from player_divercite import PlayerDivercite

    HERE = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(HERE, "targets.json")) as listed:
        TARGETS = json.load(listed)


    def read(path):
        try:
            with open(path) as file:
                return file.read()
        except OSError as error:
            return type(error).__name__


    class MyPlayer(PlayerDivercite):
        def __init__(self, piece_type, name="probe"):
            super().__init__(piece_type, name)

        def compute_action(self, current_state, remaining_time=1e9, **kwargs):
            paths = ["/etc/passwd", "/etc/group", "/etc/shadow", "/etc/hostname"] + TARGETS
            found = {"etc": sorted(os.listdir("/etc")), "uid": os.getuid(),
                     "gid": os.getgid(), "user": pwd.getpwuid(os.getuid()).pw_name,
                     "files": {path: read(path) for path in paths}}
            raise RuntimeError("probe <<<" + json.dumps(found) + ">>>")
    ''')
# An owner of a sandbox, started frozen (as the bridge starts its spare) or not, killed by the
# test a moment after it says so.
OWNER = textwrap.dedent('''\
    import os, sys, time
    from divercite.sandbox import Limits, Sandbox, SandboxedProcess
    box = Sandbox(Limits(memory_mb=256), sys.argv[1], [], sys.argv[2])
    process = SandboxedProcess(box, [sys.executable, "-c", "import time; time.sleep(60)"],
                               os.environ, frozen=sys.argv[3] == "frozen")
    print(process.pid, flush=True)
    time.sleep(60)
    ''')
# How long after its sandbox's start each owner is killed, in turn: while bubblewrap sets the
# sandbox up (its init has no parent-death signal yet), or once it runs.
OWNER_DELAYS = (0.0, 0.01, 0.03, 0.06, 0.2)


def make_readable(folder):
    """Readable (and folders enterable) by every user, as an installed package is."""
    for parent, folders, files in os.walk(folder):
        os.chmod(parent, os.stat(parent).st_mode | 0o755)
        for name in files:
            path = os.path.join(parent, name)
            os.chmod(path, os.stat(path).st_mode | 0o644)


def processes_of(uid):
    """(pid, state, parent, command) of every process of the user `uid`, zombies apart."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}").st_uid != uid:
                continue
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{pid}/cmdline", "rb") as command:
                line = command.read().replace(b"\0", b" ").decode(errors="replace")[:100]
        except (OSError, IndexError):
            continue
        if fields[0] not in ("Z", "X"):
            found.append((int(pid), fields[0], int(fields[1]), line))
    return found


def stopped_orphans(uid):
    """The stopped bubblewrap and setpriv processes of `uid` whose parent is the host's init."""
    return [process for process in processes_of(uid)
            if process[1] in "Tt" and process[2] == 1 and
            re.search(r"(^|/)(bwrap|setpriv) ", process[3])]


def end_processes_of(uid):
    for pid, _, _, _ in processes_of(uid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def remove_abandoned_users():
    """Removes the users of this test's runs that were killed before their cleanup, and ends
    their processes."""
    for entry in pwd.getpwall():
        owner = entry.pw_name[len(USER_PREFIX):]
        if not entry.pw_name.startswith(USER_PREFIX) or not owner.isdigit():
            continue
        if os.path.exists(f"/proc/{owner}"):
            continue  # a run under way
        end_processes_of(entry.pw_uid)
        time.sleep(0.5)
        subprocess.run(["userdel", entry.pw_name], capture_output=True)


def left_behind(uid, seconds=GONE_SECONDS):
    """processes_of(uid) once there are none or `seconds` have passed."""
    deadline = time.monotonic() + seconds
    while processes_of(uid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return processes_of(uid)


@unittest.skipIf(shutil.which("bwrap") is None, "bubblewrap is missing: apt-get install "
                 "bubblewrap")
class UnprivilegedServiceTest(unittest.TestCase):
    """The games of an arena run by a user of its own (see the module's docstring)."""

    @classmethod
    def setUpClass(cls):
        if os.geteuid() != 0:
            raise unittest.SkipTest("this test makes a user of its own (useradd) to run the "
                                    "games as, as the arena's unit does (User=arena): run it "
                                    "as root")
        for tool in ("useradd", "userdel", "setpriv"):
            if shutil.which(tool) is None:
                raise unittest.SkipTest(f"{tool} is missing (passwd, util-linux)")
        for path in (ENGINE, MATCH, PACKAGE, COURSE, SEAHORSE):
            if not os.path.exists(path):
                raise AssertionError(f"missing {path}: build the project and check "
                                     "DIVERCITE_COURSE_DIR")
        remove_abandoned_users()
        cls.user = f"{USER_PREFIX}{os.getpid()}"
        subprocess.run(["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent",
                        "--shell", "/usr/sbin/nologin", cls.user], check=True,
                       capture_output=True)
        cls.addClassCleanup(cls.remove_user)
        entry = pwd.getpwnam(cls.user)
        cls.uid, cls.gid = entry.pw_uid, entry.pw_gid
        cls.root = tempfile.mkdtemp(prefix="sandbox_unprivileged_")
        cls.addClassCleanup(shutil.rmtree, cls.root, ignore_errors=True)
        os.chmod(cls.root, 0o755)
        # World-readable copies: the build tree and the course may be private to root.
        tree = os.path.join(cls.root, "tree")
        os.makedirs(os.path.join(tree, "bin"))
        cls.engine = shutil.copy(ENGINE, os.path.join(tree, "bin"))
        cls.match = shutil.copy(MATCH, os.path.join(tree, "bin"))
        cls.package = os.path.join(tree, "python")
        shutil.copytree(PACKAGE, cls.package, ignore=shutil.ignore_patterns("__pycache__"))
        cls.course = os.path.join(cls.root, "course", os.path.basename(COURSE))
        shutil.copytree(COURSE, cls.course, ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(SEAHORSE, os.path.join(cls.root, "course", "seahorse"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        make_readable(cls.root)
        cls.output = os.path.join(cls.root, "output")
        os.mkdir(cls.output, 0o700)
        os.chown(cls.output, cls.uid, cls.gid)
        cls.environment = {"PATH": SERVICE_PATH, "HOME": entry.pw_dir, "USER": cls.user,
                           "LOGNAME": cls.user, "SHELL": entry.pw_shell, "LANG": "C.UTF-8",
                           "PYTHONPATH": cls.package, "PYTHONDONTWRITEBYTECODE": "1"}
        # A host that delegates control groups to its users' services would give them: the
        # switch then keeps the test on the fallbacks, which it is about.
        described = cls.run_as([sys.executable, "-c", "from divercite.sandbox import "
                                "host_groups; print(host_groups().any())"])
        if described.stdout.strip() != "False":
            cls.environment["DIVERCITE_SANDBOX_CGROUPS"] = "off"

    @classmethod
    def end_processes(cls):
        """Ends what a failed test left of the user's processes (each test checks its own)."""
        end_processes_of(cls.uid)

    @classmethod
    def remove_user(cls):
        cls.end_processes()
        time.sleep(0.5)  # userdel refuses a user whose killed processes are still there
        subprocess.run(["userdel", cls.user], capture_output=True)
        # The sandbox's claims on cores, kept by user id (sandbox/cores.py): the user is gone.
        shutil.rmtree(os.path.join(tempfile.gettempdir(), f"divercite-cores-{cls.uid}"),
                      ignore_errors=True)

    @classmethod
    def as_user(cls, argv):
        return ["setpriv", f"--reuid={cls.uid}", f"--regid={cls.gid}", "--init-groups", "--",
                *argv]

    @classmethod
    def run_as(cls, argv, timeout=120):
        return subprocess.run(cls.as_user(argv), env=cls.environment, capture_output=True,
                              text=True, timeout=timeout, cwd=cls.root)

    def setUp(self):
        self.addCleanup(self.end_processes)

    def team(self, name, files):
        """A team folder under the class's, holding `files` ({name: text}), readable by all
        (as the arena's uploads are)."""
        folder = os.path.join(self.root, "class", name)
        os.makedirs(folder)
        for file_name, text in files.items():
            with open(os.path.join(folder, file_name), "w") as file:
                file.write(text)
        make_readable(folder)
        return os.path.join(folder, "my_player.py")

    def play(self, name, agent_path, games=1, bridge=(), clock="tc=60"):
        """(records, output) of `games` games of the agent against the engine, the runner
        and the bridge run as the service's user."""
        records = os.path.join(self.output, f"{name}.jsonl")
        engine = [f"cmd={sys.executable}", "arg=-m", "arg=divercite.course.engine"]
        engine += [f"arg={argument}" for argument in
                   [*SANDBOX, "--course", self.course, *bridge, agent_path]]
        done = self.run_as([self.match, "-engine", *engine, f"name={name}", clock,
                            "-engine", f"cmd={self.engine}", "name=engine", "depth=1",
                            "-games", str(games), "-seed", "1", *STARTUP,
                            "-records", records], timeout=120 + 30 * games)
        output = done.stdout + done.stderr
        self.assertEqual(done.returncode, 0, output)
        with open(records) as lines:
            return [json.loads(line) for line in lines if line.strip()], output

    def assertNothingLeft(self):
        self.assertEqual(left_behind(self.uid), [])
        self.assertEqual(stopped_orphans(self.uid), [])

    def test_the_agent_sees_its_own_etc_and_none_of_the_users_private_files(self):
        token = str(uuid.uuid4())
        # A folder of the service's user that the sandbox shows as it is (--readable).
        shown = os.path.join(self.root, f"shown-{token[:8]}")
        os.makedirs(os.path.join(shown, "private"))
        files = {"secret.txt": (0o600, self.uid, self.gid),
                 "private/notes.txt": (0o644, self.uid, self.gid),
                 "group.txt": (0o640, 0, self.gid),
                 "public.txt": (0o644, self.uid, self.gid)}
        for name, (mode, owner, group) in files.items():
            path = os.path.join(shown, name)
            with open(path, "w") as file:
                file.write(f"{token} {name}\n")
            os.chown(path, owner, group)
            os.chmod(path, mode)
        os.chown(os.path.join(shown, "private"), self.uid, self.gid)
        os.chmod(os.path.join(shown, "private"), 0o700)
        os.chown(shown, self.uid, self.gid)
        os.chmod(shown, 0o755)
        targets = [os.path.join(shown, name) for name in files]
        path = self.team("probe", {"my_player.py": PROBE_AGENT,
                                   "targets.json": json.dumps(targets)})
        records, output = self.play("probe", path, bridge=["--readable", shown])
        self.assertEqual(len(records), 1, output)
        reason = records[0]["reason"]
        found = re.search(r"probe <<<(.*)>>>", reason)
        self.assertIsNotNone(found, reason)
        seen = json.loads(found.group(1))
        etc = set(seen["etc"]) - {name for name in seen["etc"] if name.startswith("python3")}
        self.assertLessEqual(etc, ETC_ALLOWED, seen["etc"])
        self.assertLessEqual(ETC_NEEDED, etc, seen["etc"])
        self.assertEqual((seen["uid"], seen["gid"], seen["user"]),
                         (SANDBOX_USER, SANDBOX_USER, "nobody"))
        contents = seen["files"]
        users = [line.split(":")[0] for line in contents["/etc/passwd"].splitlines()]
        self.assertEqual(users, ["root", "nobody"])
        self.assertNotIn(self.user, contents["/etc/group"])
        self.assertEqual(contents["/etc/shadow"], "FileNotFoundError")
        for name in ("secret.txt", "private/notes.txt", "group.txt"):
            self.assertEqual(contents[os.path.join(shown, name)], "PermissionError", name)
        self.assertEqual(contents[os.path.join(shown, "public.txt")], f"{token} public.txt\n")
        self.assertNotIn(f"{token} secret.txt", output + reason)
        self.assertNothingLeft()

    def test_a_uid_map_alone_leaves_the_users_files_readable(self):
        # Why hidden.py covers such files: inside a user namespace that maps the service's
        # user to nobody, the kernel still checks access by the user outside.
        folder = tempfile.mkdtemp(dir=self.root)
        os.chmod(folder, 0o755)
        secret = os.path.join(folder, "secret.txt")
        with open(secret, "w") as file:
            file.write("secret\n")
        os.chown(secret, self.uid, self.gid)
        os.chmod(secret, 0o600)
        done = self.run_as(["bwrap", "--unshare-all", "--unshare-user", "--uid",
                            str(SANDBOX_USER), "--gid", str(SANDBOX_USER), "--ro-bind", "/", "/",
                            "--proc", "/proc", "--dev", "/dev", "--", "/bin/sh", "-c",
                            f"id -u; stat -c %u {secret}; cat {secret}"])
        self.assertEqual(done.stdout.split(), [str(SANDBOX_USER), str(SANDBOX_USER), "secret"],
                         done.stderr)

    def test_games_ended_by_the_memory_limit_leave_no_process_behind(self):
        def files(name):
            with open(name) as file:
                return file.read()

        agent = {"my_player.py": files(HOSTILE), "simple_moves.py": files(SIMPLE_MOVES),
                 "attack.json": json.dumps({"attack": "memory"})}
        # Two teams, two bridges at once, as an arena's workers run them.
        paths = {name: self.team(name, agent) for name in ("hog", "hog-too")}
        played = in_parallel(lambda name: self.play(name, paths[name], games=GAMES // 2),
                             list(paths))
        for name, (records, output) in played.items():
            self.assertEqual(len(records), GAMES // 2, output)
            for record in records:
                # The watchdog's count ends it (`limit`), or its address space's limit first
                # (a MemoryError, which the bridge counts as the agent's crash unless the
                # sandbox saw the limit itself): either way its memory limit ended the game.
                self.assertIn(record["termination"], ("limit", "crash"), record["reason"])
                self.assertRegex(record["reason"], "memory limit|MemoryError")
        self.assertNothingLeft()

    def test_owners_killed_while_their_sandbox_starts_leave_nothing_behind(self):
        folder = os.path.dirname(self.team("spare", {"my_player.py": "x = 1\n"}))
        owner = os.path.join(self.root, "owner.py")
        with open(owner, "w") as file:
            file.write(OWNER)
        os.chmod(owner, 0o644)
        left = []
        for attempt in range(OWNERS):
            frozen = "frozen" if attempt % 2 == 0 else "running"
            process = subprocess.Popen(
                self.as_user([sys.executable, owner, folder, self.package, frozen]),
                env=self.environment, stdout=subprocess.PIPE, text=True, cwd=self.root)
            try:
                self.assertTrue(process.stdout.readline().strip().isdigit())
                time.sleep(OWNER_DELAYS[attempt % len(OWNER_DELAYS)])
            finally:
                process.kill()
                process.wait()
                process.stdout.close()
            remaining = left_behind(self.uid)
            if remaining:
                left.append((attempt, frozen, remaining))
                self.end_processes()
        self.assertEqual(left, [])


if __name__ == "__main__":
    unittest.main()
