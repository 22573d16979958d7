"""A throwaway PostgreSQL cluster for the server's tests and ``make load``, and a real ``tabletop serve`` on any URL.

The cluster is made with the machine's own ``initdb`` and ``pg_ctl`` (found in ``$TABLETOP_POSTGRES_BIN``, else on
``PATH``, else in ``/usr/lib/postgresql/*/bin``) in a new temporary folder (in memory where it can, unless it is
to be durable), listens on a Unix socket in that folder only (no TCP port to collide on), trusts local
connections, and runs without fsync unless asked to be durable. PostgreSQL refuses to run as root: under root its
processes run as the ``postgres`` system user (else ``nobody``), who owns the folder.
"""

from __future__ import annotations

import os
import pwd
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx

__all__ = ["Cluster", "ClusterError", "find_binaries", "running_cluster", "start_serve"]

#: Where the binaries are looked for first: a folder holding ``initdb``, ``pg_ctl`` and ``postgres``.
ENV = "TABLETOP_POSTGRES_BIN"
_TOOLS = ("initdb", "pg_ctl", "postgres")
#: The superuser the cluster is made with (and every URL connects as).
USER = "tabletop"


class ClusterError(RuntimeError):
    """PostgreSQL is installed but the cluster could not be made, started or reached."""


def _complete(folder: Path) -> bool:
    return all(os.access(folder / tool, os.X_OK) for tool in _TOOLS)


def _version(folder: Path) -> tuple[int, ...]:
    return tuple(int(n) for n in re.findall(r"\d+", folder.parent.name)) or (0,)


def find_binaries() -> Path | None:
    """The folder of PostgreSQL's server binaries, or ``None`` where none are installed.

    ``$TABLETOP_POSTGRES_BIN``, when set, must be such a folder: a wrong one is a broken setup, not a missing one.
    """
    named = os.environ.get(ENV)
    if named:
        if not _complete(Path(named)):
            raise ClusterError(f"${ENV}={named} holds no executable {', '.join(_TOOLS)}")
        return Path(named)
    found = shutil.which("pg_ctl")
    if found is not None and _complete(Path(found).resolve().parent):
        return Path(found).resolve().parent
    installed = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if _complete(p)]
    return max(installed, key=_version) if installed else None


def _owner() -> pwd.struct_passwd | None:
    """The unprivileged user the cluster runs as under root; ``None``: run as ourselves."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise ClusterError("running as root, and there is neither a 'postgres' nor a 'nobody' user to run PostgreSQL")


def _memory() -> str | None:
    """A roomy memory-backed folder for a cluster that need not be durable (``None``: the usual temporary folder).

    Made and removed there, a cluster costs no disk writes: initdb is faster, and so is removing it on a disk
    that trims every deleted block.
    """
    shm = Path("/dev/shm")
    try:
        roomy = shm.is_dir() and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free > 1 << 30
    except OSError:
        return None
    return str(shm) if roomy else None


class Cluster:
    """One PostgreSQL cluster in its own temporary folder; :meth:`start`, :meth:`create_database`, :meth:`stop`."""

    def __init__(self, binaries: Path, *, durable: bool = False) -> None:
        self.binaries = binaries
        self.durable = durable
        self.owner = _owner()
        self.folder = Path(tempfile.mkdtemp(prefix="tabletop-pg-", dir=None if durable else _memory()))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.running = False

    def _run(self, *args: str, timeout: float = 120) -> None:
        kwargs: dict[str, Any] = {}
        if self.owner is not None:
            kwargs = {"user": self.owner.pw_uid, "group": self.owner.pw_gid, "extra_groups": []}
        done = subprocess.run(
            [str(self.binaries / args[0]), *args[1:]],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=self.folder,
            **kwargs,
        )
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-3000:] if self.log.exists() else ""
            what = " ".join(a for a in args[:2] if not a.startswith("-"))
            raise ClusterError(f"{what} failed ({done.returncode}):\n{done.stdout}{done.stderr}{log}")

    def start(self) -> None:
        """initdb and ``pg_ctl start -w``: raises :class:`ClusterError` (with PostgreSQL's words) if it fails."""
        if self.owner is not None:
            os.chown(self.folder, self.owner.pw_uid, self.owner.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync")
        self._run("pg_ctl", "start", "-w", "-t", "60", "-D", str(self.data), "-l", str(self.log), "-o", self._options)
        self.running = True

    @property
    def _options(self) -> str:
        fast = "" if self.durable else " -c fsync=off -c full_page_writes=off"
        return f"-c listen_addresses='' -k {self.folder} -c max_connections=200{fast}"

    def restart(self) -> None:
        """Stop the server (fast: its clients are cut off) and start it again on the same data."""
        self._run(
            "pg_ctl",
            "restart",
            "-w",
            "-t",
            "60",
            "-m",
            "fast",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            self._options,
        )

    def url(self, database: str = "postgres") -> str:
        """The SQLAlchemy URL of ``database`` through psycopg 3 over the cluster's socket."""
        return f"postgresql+psycopg://{USER}@/{database}?host={self.folder}"

    def create_database(self, name: str | None = None) -> str:
        """A new empty database (named ``name``, else a fresh one); its URL."""
        import psycopg

        name = name or f"t{uuid.uuid4().hex[:12]}"
        with psycopg.connect(host=str(self.folder), user=USER, dbname="postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"'.encode())
        return self.url(name)

    def stop(self) -> None:
        """Stop the cluster (immediately: it is thrown away) and remove its folder."""
        try:
            if self.running:
                try:
                    self._run("pg_ctl", "stop", "-w", "-m", "immediate", "-D", str(self.data), timeout=60)
                except (ClusterError, subprocess.TimeoutExpired):
                    pid = self.data / "postmaster.pid"
                    if pid.exists():
                        os.kill(int(pid.read_text().split()[0]), signal.SIGKILL)
                self.running = False
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


@contextmanager
def running_cluster(binaries: Path, *, durable: bool = False) -> Iterator[Cluster]:
    """A started cluster, stopped and removed on leaving (also when it failed to start).

    ``durable``: flush commits to disk as a real deployment does (the tests' cluster does not: it is faster).
    """
    cluster = Cluster(binaries, durable=durable)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def start_serve(database: str, port: int, rate: int = 100_000) -> subprocess.Popen[bytes]:
    """A real ``tabletop serve`` on the SQLAlchemy URL ``database``, answering on loopback ``port``."""
    exe = Path(sys.executable).parent / "tabletop"
    with tempfile.TemporaryFile() as err:  # a file, not a pipe: a long run's warnings never fill it and block
        proc = subprocess.Popen(
            [str(exe), "serve", "--port", str(port), "--database", database, "--rate", str(rate)],
            stdout=subprocess.DEVNULL,
            stderr=err,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
                return proc
            except httpx.HTTPError:
                time.sleep(0.1)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        err.seek(0)
        said = err.read().decode(errors="replace")[-3000:]
    raise AssertionError(f"tabletop serve did not start on {database.rsplit('@', maxsplit=1)[-1]}:\n{said}")
