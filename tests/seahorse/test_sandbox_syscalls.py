"""The sandbox's seccomp filter (divercite.sandbox.syscalls): what Python agents do still works
under it, and the calls it refuses are refused.

Each test runs a small Python program under bubblewrap with the filter, as the sandbox runs an
agent (box.py's Sandbox.command, less the staging and the limits; as root, as the user nobody),
and reads what it prints: `ok` once every check passed, or the exception that failed it.

Run by ctest, or by hand from this folder: /usr/bin/python3 -m unittest -v test_sandbox_syscalls
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

from bridge_support import COURSE, SEAHORSE, SOURCE

sys.path.insert(0, os.path.join(SOURCE, "python"))
from divercite.sandbox import syscalls  # noqa: E402
from divercite.sandbox import etc  # noqa: E402
from divercite.sandbox.box import give_to, system_mounts  # noqa: E402

try:
    import seccomp
except ImportError:
    seccomp = None

# How long one program may run (multiprocessing's spawn starts interpreters).
PROGRAM_SECONDS = 60
NOBODY = "65534"
# Where the sandbox shows the program it runs.
PROGRAM = "/run/program/main.py"
# What every program starts with: a raw system call by name, its result and errno.
PRELUDE = """\
import ctypes, errno, os, signal, sys
LIBC = ctypes.CDLL(None, use_errno=True)
NUMBERS = {numbers!r}

def call(name, *arguments):
    ctypes.set_errno(0)
    result = LIBC.syscall(ctypes.c_long(NUMBERS[name]),
                          *[ctypes.c_long(argument) for argument in arguments])
    return result, ctypes.get_errno()

def refused(name, *arguments, expected=errno.EPERM):
    result, error = call(name, *arguments)
    assert (result, error) == (-1, expected), (name, result, errno.errorcode.get(error))

"""
# Every call the programs make by number.
RAW_CALLS = ("io_uring_setup", "unshare", "ptrace", "clone", "kill", "tgkill", "prctl",
             "bpf", "userfaultfd", "perf_event_open", "keyctl", "mount", "setns", "kcmp",
             "process_vm_readv", "pidfd_getfd", "memfd_secret", "personality", "socket",
             "clone3")
CLONE_NEWNET = 0x40000000


def sandboxed(code, shared_memory=False, readable=()):
    """(exit code, output) of `code` run by this Python in the sandbox with the filter, as
    the file PROGRAM (multiprocessing's spawn imports it again in its children)."""
    with tempfile.TemporaryDirectory() as folder, tempfile.TemporaryDirectory() as private, \
            tempfile.TemporaryFile() as compiled:
        os.chmod(folder, 0o755)
        with open(os.path.join(folder, os.path.basename(PROGRAM)), "w") as program:
            program.write(code)
        # The sandbox's own /etc (numpy's BLAS is found through its alternatives/).
        etc_folder = etc.make(os.path.join(private, "etc"))
        if os.geteuid() == 0:
            give_to(int(NOBODY), private)
        compiled.write(syscalls.compiled_filter(shared_memory=shared_memory))
        compiled.seek(0)
        filter_fd = compiled.fileno()
        prefix = []
        if os.geteuid() == 0:
            prefix = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
        command = [*prefix, "bwrap", "--unshare-all", "--unshare-user", "--disable-userns",
                   "--die-with-parent", "--new-session", *system_mounts(etc_folder),
                   "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm",
                   "--tmpfs", "/tmp"]
        command += ["--ro-bind", folder, os.path.dirname(PROGRAM)]
        for shown in readable:
            command += ["--ro-bind", shown, shown]
        command += ["--chdir", "/tmp", "--seccomp", str(filter_fd), "--clearenv",
                    "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "HOME", "/tmp",
                    "--setenv", "OPENBLAS_NUM_THREADS", "2", "--",
                    sys.executable, PROGRAM]
        done = subprocess.run(command, pass_fds=[filter_fd], stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=PROGRAM_SECONDS)
    return done.returncode, done.stdout


@unittest.skipIf(seccomp is None, "libseccomp's Python module is missing: "
                 "apt-get install python3-seccomp")
@unittest.skipIf(shutil.which("bwrap") is None, "bubblewrap is missing: "
                 "apt-get install bubblewrap")
class FilterTestCase(unittest.TestCase):
    def run_checks(self, body, shared_memory=False, readable=()):
        """Runs the prelude and `body` in the sandbox; it must print `ok` last."""
        numbers = {name: seccomp.resolve_syscall(seccomp.Arch.NATIVE, name)
                   for name in RAW_CALLS}
        code = PRELUDE.format(numbers=numbers) + textwrap.dedent(body) + '\nprint("ok")\n'
        status, output = sandboxed(code, shared_memory, readable)
        self.assertEqual((status, output.strip().splitlines()[-1:]), (0, ["ok"]), output)


class AllowedTest(FilterTestCase):
    """What agents do works."""

    def test_numpy(self):
        self.run_checks("""
            import numpy
            generator = numpy.random.default_rng(7)
            a = generator.random((400, 400))
            assert numpy.allclose((a @ numpy.linalg.inv(a + numpy.eye(400))).shape, (400, 400))
            numpy.random.seed(3)
            assert 0 <= numpy.random.randint(10) < 10
            """)

    def test_threads_and_sleep(self):
        self.run_checks("""
            import threading, time, queue
            results = queue.Queue()
            threads = [threading.Thread(target=lambda n=n: results.put(n)) for n in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(results.get() for _ in range(8)) == list(range(8))
            started = time.monotonic()
            time.sleep(0.05)
            assert time.monotonic() - started >= 0.05
            """)

    def test_subprocess_and_fork(self):
        self.run_checks("""
            import subprocess
            subprocess.run(["/bin/true"], check=True)
            assert subprocess.run([sys.executable, "-c", "print(6 * 7)"], check=True,
                                  capture_output=True, text=True).stdout == "42\\n"
            child = os.fork()
            if child == 0:
                os._exit(3)
            assert os.waitpid(child, 0)[1] == 3 << 8
            """)

    def test_multiprocessing(self):
        self.run_checks("""
            import multiprocessing

            def square(n):
                return n * n

            if __name__ == "__main__":
                for method in ("fork", "forkserver", "spawn"):
                    with multiprocessing.get_context(method).Pool(2) as pool:
                        assert pool.map(square, range(6)) == [0, 1, 4, 9, 16, 25], method
                lock = multiprocessing.Lock()
                with lock:
                    pass
            """)

    def test_asyncio_and_sockets(self):
        self.run_checks("""
            import asyncio, socket
            left, right = socket.socketpair()
            left.sendall(b"ping")
            assert right.recv(4) == b"ping"

            async def main():
                async def echo(reader, writer):
                    writer.write(await reader.readline())
                    await writer.drain()
                    writer.close()
                server = await asyncio.start_server(echo, "127.0.0.1", 0)
                port = server.sockets[0].getsockname()[1]
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(b"hello\\n")
                assert await reader.readline() == b"hello\\n"
                writer.close()
                server.close()
                await asyncio.sleep(0.01)

            asyncio.run(main())
            socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()
            socket.getaddrinfo("localhost", 80)
            """)

    def test_signals_but_sigcont(self):
        self.run_checks("""
            import fcntl, threading, time
            child = os.fork()
            if child == 0:
                time.sleep(30)
                os._exit(0)
            os.kill(child, signal.SIGSTOP)
            assert os.waitpid(child, os.WUNTRACED)[1] == (signal.SIGSTOP << 8) | 0x7f
            os.kill(child, signal.SIGKILL)
            assert os.waitpid(child, 0)[1] == signal.SIGKILL
            signal.signal(signal.SIGUSR1, lambda *_: None)
            signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
            LIBC.prctl(1, int(signal.SIGTERM), 0, 0, 0)  # PR_SET_PDEATHSIG
            reader, writer = os.pipe()
            fcntl.fcntl(reader, 10, int(signal.SIGUSR1))  # F_SETSIG
            fcntl.fcntl(reader, fcntl.F_SETFL, os.O_NONBLOCK)
            """)

    def test_shared_memory_allowed(self):
        self.run_checks("""
            os.close(os.memfd_create("agent"))
            segment = LIBC.shmget(0, 4096, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
            assert segment >= 0, ctypes.get_errno()
            assert LIBC.shmctl(segment, 0, None) == 0  # IPC_RMID
            """, shared_memory=True)

    def test_course_framework(self):
        course_root = os.path.dirname(COURSE)
        self.run_checks(f"""
            sys.path[:0] = [{COURSE!r}, {SEAHORSE!r}]
            import seahorse
            from seahorse.game.light_action import LightAction
            from board_divercite import BoardDivercite
            from game_state_divercite import GameStateDivercite
            from player_divercite import PlayerDivercite
            players = [PlayerDivercite("W", name="first"), PlayerDivercite("B", name="second")]
            left = {{p.get_id(): {{c + t: (3 if t == "R" else 2) for c in "RGBY" for t in "CR"}}
                    for p in players}}
            state = GameStateDivercite(scores={{p.get_id(): 0 for p in players}},
                                       next_player=players[0], players=players,
                                       rep=BoardDivercite(env={{}}, dim=[9, 9]), step=0,
                                       players_pieces_left=left)
            actions = list(state.get_possible_light_actions())
            assert len(actions) == 164, len(actions)
            state = state.apply_action(actions[0])
            assert len(list(state.get_possible_light_actions())) > 0
            """, readable=[course_root])


class RefusedTest(FilterTestCase):
    """The calls the filter refuses are refused, with EPERM (clone3: ENOSYS)."""

    def test_kernel_interfaces(self):
        self.run_checks("""
            parameters = ctypes.create_string_buffer(256)
            refused("io_uring_setup", 8, ctypes.addressof(parameters))
            for name in ("bpf", "userfaultfd", "perf_event_open", "keyctl", "kcmp",
                         "process_vm_readv", "pidfd_getfd", "memfd_secret"):
                refused(name, 0, 0, 0, 0, 0)
            refused("personality", 0xffffffff)
            refused("mount", 0, 0, 0, 0, 0)
            refused("setns", 0, 0)
            """)

    def test_namespaces(self):
        self.run_checks(f"""
            refused("unshare", 0x10000000)  # CLONE_NEWUSER
            refused("unshare", 0x20000)  # CLONE_NEWNS
            for flags in (0x10000000, {CLONE_NEWNET}, 0x20000000, 0x20000):
                result, error = call("clone", flags | int(signal.SIGCHLD), 0, 0, 0, 0)
                if result == 0:
                    os._exit(0)
                assert (result, error) == (-1, errno.EPERM), (hex(flags), result, error)
            """)

    def test_clone3_falls_back(self):
        self.run_checks("""
            refused("clone3", 0, 0, expected=errno.ENOSYS)
            """)

    def test_ptrace(self):
        self.run_checks("""
            refused("ptrace", 0, 0, 0, 0)  # PTRACE_TRACEME
            child = os.fork()
            if child == 0:
                signal.pause()
                os._exit(0)
            refused("ptrace", 16, child, 0, 0)  # PTRACE_ATTACH
            os.kill(child, signal.SIGKILL)
            os.waitpid(child, 0)
            """)

    def test_sigcont(self):
        self.run_checks("""
            import fcntl, time
            child = os.fork()
            if child == 0:
                time.sleep(30)
                os._exit(0)
            try:
                os.kill(child, signal.SIGCONT)
                raise AssertionError("SIGCONT sent")
            except PermissionError:
                pass
            # The upper half of the register is not read by the kernel, nor by the filter.
            refused("kill", child, (1 << 32) | int(signal.SIGCONT))
            refused("tgkill", child, child, int(signal.SIGCONT))
            assert LIBC.sigqueue(child, int(signal.SIGCONT), 0) == -1  # rt_sigqueueinfo
            assert ctypes.get_errno() == errno.EPERM
            pidfd = os.pidfd_open(child)
            try:
                signal.pidfd_send_signal(pidfd, signal.SIGCONT)
                raise AssertionError("SIGCONT sent through a pidfd")
            except PermissionError:
                pass
            # The other ways a process could have SIGCONT sent: its parent's death, its
            # descriptor's I/O, its child's exit, a POSIX timer.
            refused("prctl", 1, int(signal.SIGCONT))  # PR_SET_PDEATHSIG
            reader, writer = os.pipe()
            try:
                fcntl.fcntl(reader, 10, int(signal.SIGCONT))  # F_SETSIG
                raise AssertionError("F_SETSIG to SIGCONT")
            except PermissionError:
                pass
            result, error = call("clone", int(signal.SIGCONT), 0, 0, 0, 0)
            if result == 0:
                os._exit(0)
            assert (result, error) == (-1, errno.EPERM), (result, error)
            timer = ctypes.c_void_p()
            assert LIBC.timer_create(1, None, ctypes.byref(timer)) == -1
            assert ctypes.get_errno() == errno.EPERM
            os.kill(child, signal.SIGTERM)
            assert os.waitpid(child, 0)[1] == signal.SIGTERM
            """)

    def test_sched_setaffinity(self):
        self.run_checks("""
            cores = os.sched_getaffinity(0)
            try:
                os.sched_setaffinity(0, cores)
                raise AssertionError("sched_setaffinity allowed")
            except PermissionError:
                pass
            """)

    def test_socket_families(self):
        self.run_checks("""
            for family in (17, 38, 40):  # AF_PACKET, AF_ALG, AF_VSOCK
                refused("socket", family, 1, 0)
            """)

    def test_shared_memory_refused(self):
        self.run_checks("""
            try:
                os.memfd_create("agent")
                raise AssertionError("memfd_create allowed")
            except PermissionError:
                pass
            assert LIBC.shmget(0, 4096, 0o1600) == -1
            assert ctypes.get_errno() == errno.EPERM
            assert LIBC.msgget(0, 0o1600) == -1
            assert ctypes.get_errno() == errno.EPERM
            """)


@unittest.skipIf(seccomp is None, "libseccomp's Python module is missing")
class ListTest(unittest.TestCase):
    """The filter holds none of the refused calls (its pseudo code names every rule)."""

    def filtered(self, shared_memory):
        with tempfile.TemporaryFile("w+") as code:
            syscalls.syscall_filter(shared_memory=shared_memory).export_pfc(code)
            code.seek(0)
            return set(re.findall(r'filter for syscall "(\w+)"', code.read()))

    def test_refused_not_allowed(self):
        self.assertFalse(set(syscalls.ALLOWED) & set(syscalls.REFUSED))
        self.assertFalse(set(syscalls.SHARED_MEMORY) & set(syscalls.REFUSED))
        for shared_memory in (False, True):
            named = self.filtered(shared_memory)
            self.assertFalse(named & set(syscalls.REFUSED), shared_memory)
            self.assertIn("clone3", named)  # refused with ENOSYS
            self.assertEqual(shared_memory, bool(named & set(syscalls.SHARED_MEMORY)))

    def test_arm64_knows_the_checked_calls(self):
        checked = ({"clone", "clone3", "socket"} | set(syscalls.SIGNAL_ARGUMENT) |
                   {call for call, *_ in syscalls.SIGNAL_COMMANDS} | set(syscalls.SHARED_MEMORY))
        unknown = {name for name in checked
                   if seccomp.resolve_syscall(seccomp.Arch.AARCH64, name) < 0}
        self.assertEqual(unknown, set())


if __name__ == "__main__":
    unittest.main()
