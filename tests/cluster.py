"""Processes for the several-node tests, each test-owned, on loopback, in its own session
(process group) so SIGKILL takes a whole node, master and workers at once: application
nodes (gunicorn, two workers each) and delivery workers (`flask --app market worker`),
all sharing one database, one signing key, one checkpoint folder and one token key, as
the machines of one deployment do."""

from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import requests
from requests.exceptions import ChunkedEncodingError

from market.adapters.signing import create_key_file
from tests.conftest import ERA_TODAY
from tests.ops_servers import ROOT, free_port, wait_until_up

REQUEST_TIMEOUT_S = 20


def shared_settings(database_url: str, tmp: Path, smtp_port: int) -> dict[str, str]:
    """The environment every process of the deployment gets."""
    key, token_key = tmp / "signing_key.pem", tmp / "token_hash_key"
    if not key.exists():
        create_key_file(key)
        token_key.write_text(secrets.token_hex(32))
        token_key.chmod(0o600)
    return dict(
        os.environ,
        DATABASE_URL=database_url,
        SECRET_KEY="nodes-secret",
        TOKEN_HASH_KEY_FILE=str(token_key),
        MARKET_TODAY=ERA_TODAY,
        LOG_FORMAT="json",
        SIGNING_KEY_FILE=str(key),
        CHECKPOINT_DIR=str(tmp / "checkpoints"),
        SMTP_HOST="127.0.0.1",
        SMTP_PORT=str(smtp_port),
        WEBHOOK_ALLOW_PRIVATE_NETWORKS="true",
        DELIVERY_BACKOFF_BASE_S="0",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",  # a SIGKILLed process's lines are in its log all the same
    )


class Proc:
    def __init__(self, name: str, args: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.log = name, log
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                args,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self) -> None:
        """SIGKILL to the whole process group: no handler runs, nothing is flushed."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> int:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        return int(self.proc.returncode)

    def lines(self) -> list[dict[str, Any]]:
        """The log's JSON lines (gunicorn's own plain lines skipped)."""
        found = []
        for line in self.log.read_text().splitlines():
            if line.startswith("{"):
                try:
                    found.append(json.loads(line))
                except ValueError:
                    continue
        return found


class Node(Proc):
    """market.wsgi:app under gunicorn, two workers."""

    def __init__(self, name: str, env: dict[str, str], tmp: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = [sys.executable, "-m", "gunicorn", "--workers", "2", "--timeout", "60"]
        args += ["--bind", f"127.0.0.1:{self.port}", "--log-level", "warning", "market.wsgi:app"]
        super().__init__(name, args, env, tmp / f"{name}.log")

    def wait_up(self) -> None:
        wait_until_up(f"{self.url}/healthz", self.proc, self.log)  # type: ignore[arg-type]


def start_worker(name: str, env: dict[str, str], tmp: Path, tick_every: float) -> Proc:
    args = ["flask", "--app", "market", "worker", "--poll", "0.1"]
    return Proc(name, [*args, "--tick-every", str(tick_every)], env, tmp / f"{name}.log")


class Client:
    """One client thread's view of the deployment: every POST carries an Idempotency-Key,
    and a request its node does not answer (the node died, the connection broke) is sent
    again, same key, to the next node, which it then keeps using: a write is applied and
    acknowledged once however many nodes it took."""

    def __init__(self, nodes: list[str], prefer: int) -> None:
        self.nodes, self.at = list(nodes), prefer % len(nodes)
        self.session = requests.Session()
        self.retried = 0

    def send(self, method: str, path: str, headers: dict[str, str], body: Any = None) -> Any:
        if method == "POST":
            headers = headers | {"Idempotency-Key": uuid.uuid4().hex}
        for _ in range(3 * len(self.nodes)):
            url = self.nodes[self.at]
            try:
                return self.session.request(
                    method, url + path, json=body, headers=headers, timeout=REQUEST_TIMEOUT_S
                )
            except (requests.ConnectionError, requests.Timeout, ChunkedEncodingError):
                self.retried += 1
                self.at = (self.at + 1) % len(self.nodes)
                self.session.close()  # no pooled connection to the dead node
                time.sleep(0.1)
        raise AssertionError(f"no node answered {method} {path}")


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> float:
    """Seconds until `check` held (an AssertionError naming `what` past `seconds`)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():
            return time.monotonic() - start
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")
