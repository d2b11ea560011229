"""A PostgreSQL cluster the test owns (initdb and pg_ctl from Debian's PostgreSQL 15, in a
temp folder, on a free loopback port), so a test may stop and restart it; the shared
server on 5432 is never touched. PostgreSQL refuses to run as root: as root, the
cluster runs as the `postgres` system user (runuser), in a folder that user owns."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.ops_servers import IN_CI, free_port

BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
SYSTEM_USER = "postgres"


class Cluster:
    def __init__(self, home: Path, port: int) -> None:
        self.home, self.port = home, port
        self.data, self.log = home / "data", home / "server.log"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/market"

    def _run(self, *args: str, timeout: float = 60) -> None:
        argv = [str(BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", SYSTEM_USER, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        if done.returncode != 0:
            raise AssertionError(f"{args[0]} failed: {done.stdout}{done.stderr}")

    def start(self) -> float:
        """Start the server and wait until it takes connections; the seconds it took."""
        began = time.monotonic()
        options = f"-p {self.port} -k {self.home} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        return time.monotonic() - began

    def stop(self) -> None:
        """Fast shutdown: every session is ended, as a restart by the operators does."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")


def _need_postgres() -> None:
    problem = None
    if not (BIN / "initdb").exists():
        problem = f"{BIN}/initdb is missing (apt-get install postgresql-15)"
    elif os.geteuid() == 0 and shutil.which("runuser") is None:
        problem = "runuser is missing (util-linux)"
    if problem:
        if IN_CI:
            pytest.fail(problem + "; CI requires it", pytrace=False)
        pytest.skip(problem)


@contextmanager
def own_cluster() -> Iterator[Cluster]:
    _need_postgres()
    home = Path(tempfile.mkdtemp(prefix="market-pg-"))
    if os.geteuid() == 0:
        shutil.chown(home, SYSTEM_USER, SYSTEM_USER)
    cluster = Cluster(home, free_port())
    try:
        cluster._run(
            "initdb", "-D", str(cluster.data), "-U", "postgres", "-A", "trust", "-E", "UTF8"
        )
        cluster.start()
        cluster._run(
            "createdb", "-h", "127.0.0.1", "-p", str(cluster.port), "-U", "postgres", "market"
        )
        yield cluster
    finally:
        with contextlib.suppress(AssertionError):  # already stopped
            cluster.stop()
        shutil.rmtree(home, ignore_errors=True)
