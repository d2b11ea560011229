"""Witnesses for the tests: a real `flask --app market witness serve` process on a free
loopback port, and an in-process one whose answers a test may tamper with."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from market.adapters.signing import load_signer
from market.adapters.witness_http import Answer, make_server
from market.adapters.witness_state import WitnessState
from market.services.trust.witness_server import Witness, log_keys


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Running:
    name: str
    url: str
    vkey: str
    state: Path
    key_file: Path

    @property
    def config_line(self) -> str:
        return f"{self.name} {self.url} {self.vkey}"


@contextmanager
def witness_process(
    tmp: Path, name: str, log_vkeys: list[str], port: int | None = None
) -> Iterator[Running]:
    """The witness command in its own process, stopped (by its pid) on leaving."""
    port = port or free_port()
    key_file, state = tmp / f"{name.replace('/', '_')}.key", tmp / f"{name.replace('/', '_')}-state"
    args = ["--name", name, "--key-file", str(key_file), "--port", str(port)]
    args += ["--state", str(state), *(a for k in log_vkeys for a in ("--log-key", k))]
    env = {**os.environ, "SECRET_KEY": "witness-test", "DATABASE_URL": f"sqlite:///{tmp}/w.db"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "flask", "--app", "market", "witness", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
        cwd=tmp,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # printed once the socket listens
        assert f"listening on http://127.0.0.1:{port}" in first, first
        vkey = first.rsplit("(", 1)[1].rstrip(")\n")
        yield Running(name, f"http://127.0.0.1:{port}", vkey, state, key_file)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        if proc.stdout is not None:
            proc.stdout.close()


@contextmanager
def witness_thread(
    tmp: Path,
    name: str,
    log_vkey: str,
    change: Callable[[Answer], Answer] = lambda a: a,
) -> Iterator[Running]:
    """The same witness service in this process; `change` rewrites its answers."""
    key_file, state = tmp / f"{name.replace('/', '_')}.key", tmp / f"{name.replace('/', '_')}-state"
    w = Witness(load_signer(key_file, name, create=True), log_keys([log_vkey]), WitnessState(state))
    server = make_server("127.0.0.1", 0, lambda body: change(w.add_checkpoint(body)), w.monitor)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        port = server.server_address[1]
        yield Running(name, f"http://127.0.0.1:{port}", w.vkey, state, key_file)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def wait_until(check: Callable[[], bool], seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
