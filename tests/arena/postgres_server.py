"""A PostgreSQL server of the tests' own: a cluster made by initdb in a temporary folder,
listening on a free port of 127.0.0.1 with a password, stopped and removed at the end.

Debian's server programs (/usr/lib/postgresql/N/bin, the newest N). initdb refuses to run as
root: as root, the cluster is the `postgres` user's (Debian's package makes it).

    with PostgresServer() as server:
        server.url          # postgresql://arena:PASSWORD@127.0.0.1:PORT/arena
        server.stop(); server.start()   # a restart, the data kept
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from typing import Optional

USER = "arena"
DATABASE = "arena"


def server_programs() -> Optional[Path]:
    """The folder of initdb and pg_ctl: Debian's newest, or the one on PATH; None if none."""
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
                      key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0)
    if versions:
        return versions[-1].parent
    found = shutil.which("pg_ctl")
    return Path(found).parent if found else None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PostgresServer:
    def __init__(self):
        self.programs = server_programs()
        if self.programs is None:
            raise RuntimeError("no PostgreSQL server programs (initdb, pg_ctl): install "
                               "Debian's postgresql (scripts/install-deps.sh arena)")
        self.folder = Path(tempfile.mkdtemp(prefix="divercite_postgres_"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.password = secrets.token_urlsafe(16)
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self.as_user = ["runuser", "-u", "postgres", "--"]
        password_file = self.folder / "password"
        password_file.write_text(self.password + "\n")
        if self.as_user:
            os.chown(password_file, pwd.getpwnam("postgres").pw_uid, -1)
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth-local=trust",
                  "--auth-host=scram-sha-256", f"--pwfile={password_file}", "-E", "UTF8",
                  "--no-sync")
        password_file.unlink()
        self.start()
        self._run("createdb", "-h", str(self.folder), "-p", str(self.port), "-U", USER, DATABASE)

    @property
    def url(self) -> str:
        return f"postgresql://{USER}:{self.password}@127.0.0.1:{self.port}/{DATABASE}"

    def _run(self, program: str, *args: str):
        done = subprocess.run([*self.as_user, str(self.programs / program), *args],
                              capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-2000:]}")
        return done

    def start(self):
        """Starts the server (again), waiting until it accepts connections."""
        options = (f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w",
                  "-t", "60", "start")

    def stop(self, mode: str = "fast"):
        """Stops the server: "fast" (its clients cut), or "immediate" (as a kill -9 would)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def close(self):
        try:
            self.stop("immediate")
        except RuntimeError:
            pass  # already stopped
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> "PostgresServer":
        return self

    def __exit__(self, *exc):
        self.close()
