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
"""
import json
import multiprocessing
import os
import socket
import subprocess
import time

from player_divercite import PlayerDivercite
from simple_moves import first_legal_action

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "attack.json")) as orders:
    ORDERS = json.load(orders)


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
