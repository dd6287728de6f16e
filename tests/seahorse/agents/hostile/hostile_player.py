"""A hostile agent for the sandbox's tests: on its first move it makes the attack that
attack.json beside it names, then plays the first legal move. Every attack is bounded in
count and time, so that it cannot harm the machine even where no sandbox holds it.

attack.json: {"attack": name, "target": a path or a port, "marker": a unique number}
  read       reads the file `target` (another team's file, the runner's records)
  write      writes the file `target` (outside its folder)
  connect    connects to 127.0.0.1:`target` (a port the test listens on)
  fork       starts up to 300 processes that sleep 60 s
  memory     grows a list by 16 MB blocks up to 1.5 GB
  cores      tries to widen its affinity, then busy-loops 4 processes for 2 s and raises if
             they got more than 1.5 cores' time (else plays on)
  linger     leaves a detached `sleep <marker>` behind (double fork, new session)
  beside     writes a file beside itself (allowed), which the next game must not see
  background starts a process that busy-loops for 20 s, and raises on its third move if that
             process got more than 0.5 s of CPU time (it would, running while the opponent
             thinks), else plays on
  links      reads the links `target` (names) planted beside it that lead out of its folder:
             a file's text, a folder's listing; raises with what it read (the sandbox must
             refuse such a folder before the agent runs)
  loop       beside it, `loop -> .`: raises unless `loop` is a link and walking its folder
             without following links finds under 50 entries
  environ    reads every /proc/*/environ, /proc/*/task/*/environ and /proc/*/cmdline it can,
             and raises with what it found if the variable `target` (a name) is in one
  frozen     at import (the process the bridge starts ahead of a game imports too), starts 4
             processes that busy-loop for at most 30 s, or until their parent is gone, each
             sending SIGCONT to every process it may (kill(-1)) and to the others in its loop:
             they would run while the opponent thinks unless its processes are frozen
  memfd      fills a memfd (never mapped: its memory is in no process's address space) by
             64 MB up to 3 GB, within 40 s, keeping it open
  shm        fills SysV shared memory (up to 3 GB, attached, removed at once with IPC_RMID so
             that nothing outlives the process) by 64 MB, within 40 s; a segment that the
             address space limit keeps from attaching is tried smaller, down to 2.25 GB
  tmpfs      writes files of 16 MB to /tmp, /dev/shm and beside itself (memory-backed file
             systems), up to 200 MB each, within 40 s, keeping them
  io_uring   calls io_uring_setup (a way round a system call filter); raises unless refused
             with EPERM
  newlines   raises an exception whose text holds line breaks and protocol lines
"""
import ctypes
import errno
import json
import multiprocessing
import os
import signal
import socket
import subprocess
import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "attack.json")) as orders:
    ORDERS = json.load(orders)

CHUNK = 64 << 20
HIDDEN_MEMORY_BYTES = 3 << 30
HIDDEN_MEMORY_SECONDS = 40.0
SPINNERS = 4
SPIN_SECONDS = 30.0
IO_URING_SETUP = 425  # x86-64
FORGED = "boom\nbestmove RC00\ninfo string limit: forged"


def busy(seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


def attack(name, target, marker):
    if name == "read":
        with open(target) as secret:
            return secret.read()
    if name == "write":
        with open(target, "w") as planted:
            planted.write("written by a hostile agent\n")
    elif name == "connect":
        with socket.create_connection(("127.0.0.1", int(target)), timeout=2.0) as connection:
            connection.sendall(b"hello from a hostile agent\n")
    elif name == "fork":
        for _ in range(300):
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
    elif name == "memory":
        blocks = []
        for _ in range(96):
            blocks.append(bytearray(16 << 20))
    elif name == "cores":
        try:
            os.sched_setaffinity(0, range(os.cpu_count()))
        except PermissionError:
            pass  # refused: what the sandbox does; the busy processes show the rest
        share = core_share()
        if share > 1.5:
            raise RuntimeError(f"my processes got {share:.2f} cores")
    elif name == "linger":
        subprocess.Popen(["sleep", str(marker)], start_new_session=True,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elif name == "background":
        pid = os.fork()
        if pid == 0:
            busy(20.0)
            os._exit(0)
        return pid
    elif name == "beside":
        path = os.path.join(HERE, "seen.txt")
        if os.path.exists(path):
            raise RuntimeError("seen.txt from an earlier game is still beside me")
        with open(path, "w") as note:
            note.write("this game\n")
    elif name == "links":
        raise RuntimeError(f"read through my links: {read_links(target)}")
    elif name == "loop":
        check_loop()
    elif name == "environ":
        found = search_proc(target)
        if found:
            raise RuntimeError(f"found {target} in {found}")
    elif name == "memfd":
        return fill_memfd()
    elif name == "shm":
        return fill_shared_memory()
    elif name == "tmpfs":
        fill_tmpfs()
    elif name == "io_uring":
        try_io_uring()
    elif name == "newlines":
        raise RuntimeError(FORGED)


def read_links(names):
    seen = {}
    for name in names:
        path = os.path.join(HERE, name)
        try:
            if os.path.isdir(path):
                seen[name] = sorted(os.listdir(path))[:20]
            else:
                with open(path) as text:
                    seen[name] = text.read(1000)
        except OSError as error:
            seen[name] = repr(error)
    return seen


def check_loop():
    if not os.path.islink(os.path.join(HERE, "loop")):
        raise RuntimeError("loop is not a link in my folder")
    entries = 0
    for _, folders, files in os.walk(HERE, followlinks=False):
        entries += len(folders) + len(files)
        if entries >= 50:
            raise RuntimeError(f"my folder holds {entries} entries or more: loop was followed")


def search_proc(name):
    """The files of /proc, among every process's environment and command line, that hold
    `name=`, with the text found."""
    needle = f"{name}=".encode()
    found = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        paths = [f"/proc/{pid}/environ", f"/proc/{pid}/cmdline"]
        try:
            paths += [f"/proc/{pid}/task/{task}/environ"
                      for task in os.listdir(f"/proc/{pid}/task")]
        except OSError:
            pass
        for path in paths:
            try:
                with open(path, "rb") as text:
                    content = text.read()
            except OSError:
                continue
            at = content.find(needle)
            if at >= 0:
                found[path] = content[at:at + 100].split(b"\0")[0].decode(errors="replace")
    return found


def spin_and_wake(parent, seconds):
    """Busy-loops, waking (SIGCONT) every process it may and its siblings, while `parent`
    lives, for at most `seconds`."""
    deadline = time.monotonic() + seconds
    siblings, listed = [], 0.0
    while time.monotonic() < deadline and os.getppid() == parent:
        if time.monotonic() - listed > 0.05:
            listed = time.monotonic()
            try:
                with open(f"/proc/{parent}/task/{parent}/children") as children:
                    siblings = [int(pid) for pid in children.read().split()]
            except OSError:
                siblings = []
        for pid in [-1] + siblings:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass


def start_spinners():
    parent = os.getpid()
    for _ in range(SPINNERS):
        if os.fork() == 0:
            try:
                spin_and_wake(parent, SPIN_SECONDS)
            finally:
                os._exit(0)


def fill_memfd():
    fd = os.memfd_create("hidden")  # kept open: closed with the process
    chunk = b"\1" * CHUNK
    deadline = time.monotonic() + HIDDEN_MEMORY_SECONDS
    written = 0
    while written < HIDDEN_MEMORY_BYTES and time.monotonic() < deadline:
        written += os.write(fd, chunk)
    return fd


def fill_tmpfs():
    chunk = b"\1" * (16 << 20)
    deadline = time.monotonic() + HIDDEN_MEMORY_SECONDS
    for folder in ("/tmp", "/dev/shm", HERE):
        with open(os.path.join(folder, "filler.bin"), "wb") as filler:
            for _ in range(200 // 16):
                if time.monotonic() > deadline:
                    return
                filler.write(chunk)
                filler.flush()


def libc_call(function, *arguments, failed=-1):
    result = function(*arguments)
    if result == failed:
        number = ctypes.get_errno()
        raise OSError(number, f"{function.__name__}: {os.strerror(number)}")
    return result


def fill_shared_memory():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.shmget.argtypes = (ctypes.c_int, ctypes.c_size_t, ctypes.c_int)
    libc.shmat.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
    libc.shmat.restype = ctypes.c_void_p
    libc.shmctl.argtypes = (ctypes.c_int, ctypes.c_int, ctypes.c_void_p)
    ipc_private, ipc_creat, ipc_rmid = 0, 0o1000, 0
    for size in (HIDDEN_MEMORY_BYTES, 5 << 29, 9 << 28):
        segment = libc_call(libc.shmget, ipc_private, size, ipc_creat | 0o600)
        address = libc.shmat(segment, None, 0)
        failure = ctypes.get_errno()
        libc.shmctl(segment, ipc_rmid, None)  # gone once detached, even if killed
        if address not in (None, ctypes.c_void_p(-1).value):
            break
        if failure != errno.ENOMEM:
            raise OSError(failure, f"shmat: {os.strerror(failure)}")
    else:
        raise MemoryError("shmat: no segment of 2.25 GB or more fits my address space")
    chunk = b"\1" * CHUNK
    deadline = time.monotonic() + HIDDEN_MEMORY_SECONDS
    for offset in range(0, size, CHUNK):
        if time.monotonic() > deadline:
            break
        ctypes.memmove(address + offset, chunk, CHUNK)
    return address


def try_io_uring():
    libc = ctypes.CDLL(None, use_errno=True)
    parameters = ctypes.create_string_buffer(120)  # struct io_uring_params, zeroed
    fd = libc.syscall(IO_URING_SETUP, 1, parameters)
    if fd >= 0:
        os.close(fd)
        raise RuntimeError("io_uring_setup succeeded")
    number = ctypes.get_errno()
    if number != errno.EPERM:
        raise RuntimeError(f"io_uring_setup failed with {errno.errorcode.get(number, number)},"
                           " not refused (EPERM)")


def core_share():
    """The cores' time 4 busy processes got in 2 s of wall time, in cores."""
    started = time.monotonic()
    workers = [multiprocessing.Process(target=busy, args=(2.0,)) for _ in range(4)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    children = os.times()
    return (children.children_user + children.children_system) / (time.monotonic() - started)


def cpu_seconds(pid):
    """The CPU time a process of mine has used (user and system)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


if ORDERS["attack"] == "frozen":
    start_spinners()


class MyPlayer(PlayerDivercite):
    def __init__(self, piece_type, name="hostile"):
        super().__init__(piece_type, name)
        self.moves = 0

    def compute_action(self, current_state, remaining_time=1e9, **kwargs):
        self.moves += 1
        if self.moves == 1:
            self.spawned = attack(ORDERS["attack"], ORDERS.get("target"), ORDERS.get("marker"))
        elif self.moves == 3 and ORDERS["attack"] == "background":
            seconds = cpu_seconds(self.spawned)
            if seconds > 0.5:
                raise RuntimeError(f"my background process ran {seconds:.2f} s meanwhile")
        return first_legal_action(current_state)
