"""Crash: gunicorn serves the app while clients propose and approve transfers; the whole
process group is SIGKILLed during the load and restarted, several times. After each
restart every transfer acknowledged with a 2xx is in the ledger, no transfer is
half-applied, conservation holds and the ledger verifies."""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import signal
import socket
import subprocess
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import Engine, text

from market.adapters.db import make_engine
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificates
from market.services.identity import identity
from market.services.identity.token_digest import TokenHasher
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from market.services.trust.ledger import verify
from tests.conftest import ERA_TODAY
from tests.helpers import brrag_award_kwargs
from tests.proof.conftest import SCALE
from tests.proof.world import M, check_conservation

RULES = get_ruleset("A1178")
ROOT = Path(__file__).resolve().parents[2]
CLIENTS = 8  # more than one gunicorn thread each: batches of several units form


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """gunicorn in its own session, so one killpg reaches the master and every worker."""

    def __init__(self, database_url: str, log: Path, key_file: Path) -> None:
        self.database_url = database_url
        self.key_file = key_file
        self.log = log
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = os.environ | {
            "DATABASE_URL": self.database_url,
            "MARKET_ARGON2_FAST": "1",
            "MARKET_TODAY": ERA_TODAY,  # the era the suite runs in (tests/conftest.py)
            "SECRET_KEY": "crash-test",
            "TOKEN_HASH_KEY_FILE": str(self.key_file),  # the tokens the test issued
        }
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    str(ROOT / ".venv/bin/gunicorn"),
                    "--workers",
                    "2",
                    "--worker-class",
                    "gthread",
                    "--threads",
                    "4",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                    "market:create_app()",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-2000:]
            try:
                if requests.get(f"{self.base}/api/v1/openapi.json", timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.1)
        raise AssertionError("gunicorn did not answer within 30 s: " + self.log.read_text()[-2000:])

    def kill(self, sig: int = signal.SIGKILL) -> None:
        assert self.proc is not None
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, sig)
        self.proc.wait(timeout=30)
        self.proc = None


class Acks:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.proposed: dict[str, dict[str, Any]] = {}
        self.approved: dict[str, dict[str, Any]] = {}
        self.unexpected: list[str] = []
        self.errors = 0


def _issue(uow: Any, new: certificates.NewCertificate) -> dict[str, Any]:
    return certificates.issue_certificate(uow, SYSTEM, new, RULES)


def _token(
    engine: Engine, hasher: TokenHasher, role: str, party_id: str | None = None
) -> dict[str, str]:
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    identity.create_user(engine, email, role, "correct horse battery", party_id)
    actor = identity.check_password(engine, email, "correct horse battery")
    return {"Authorization": f"Bearer {identity.issue_token(engine, actor, 24, hasher)}"}


def _load(
    base: str,
    certs: list[dict[str, Any]],
    buyer: str,
    headers: dict[str, dict[str, str]],
    acks: Acks,
    stop: threading.Event,
    seed: int,
) -> None:
    rng = random.Random(seed)
    http = requests.Session()
    while not stop.is_set():
        cert = rng.choice(certs)
        amount = rng.randint(1, 3) * M // 100
        try:
            r = http.post(
                f"{base}/api/v1/transfers",
                json={
                    "certificate_id": cert["id"],
                    "buyer_party_id": buyer,
                    "amount_cents": amount,
                    "consideration_cents": amount,
                },
                headers=headers[cert["holder_party_id"]],
                timeout=10,
            )
            if r.status_code == 201:
                with acks.lock:
                    acks.proposed[r.json()["id"]] = r.json()
            elif r.status_code not in (409, 422):
                acks.unexpected.append(f"propose {r.status_code} {r.text[:200]}")
                continue
            if r.status_code != 201:
                continue
            t = r.json()
            # The buyer consents first (PRODUCT.md 8.2); a refusal (422) leaves it awaiting.
            r = http.post(
                f"{base}/api/v1/transfers/{t['id']}/confirm", json={}, headers=headers[buyer]
            )
            if r.status_code != 200:
                if r.status_code not in (409, 422):
                    acks.unexpected.append(f"confirm {r.status_code} {r.text[:200]}")
                continue
            r = http.post(
                f"{base}/api/v1/transfers/{t['id']}/approve", json={}, headers=headers["auth"]
            )
            if r.status_code == 200:
                with acks.lock:
                    acks.approved[t["id"]] = r.json()
            elif r.status_code not in (409, 422):
                acks.unexpected.append(f"approve {r.status_code} {r.text[:200]}")
        except requests.RequestException:
            with acks.lock:
                acks.errors += 1  # the server was killed under us: expected
            time.sleep(0.05)


def _check_after_restart(engine: Engine, base: str, auth: dict[str, str], acks: Acks) -> None:
    with engine.connect() as conn:
        transfers = {
            r["id"]: dict(r) for r in conn.execute(text("SELECT * FROM transfers")).mappings()
        }
        streams = {
            (r.stream, r.type)
            for r in conn.execute(text("SELECT stream, type FROM events WHERE stream LIKE 'tr%'"))
        }
        conn.rollback()
    for transfer_id in acks.proposed:
        r = requests.get(f"{base}/api/v1/transfers/{transfer_id}", headers=auth, timeout=10)
        assert r.status_code == 200, (transfer_id, r.status_code)
        assert (f"transfer-{transfer_id}", "TRANSFER_PROPOSED") in streams
    for transfer_id, body in acks.approved.items():
        assert transfers[transfer_id]["status"] == "approved"
        assert transfers[transfer_id]["buyer_certificate_id"] == body["buyer_certificate_id"]
        assert (f"transfer-{transfer_id}", "TRANSFER_APPROVED") in streams
    # No transfer is half-applied: each approved one has its buyer certificate, and each
    # seller certificate's transferred cents are exactly its approved transfers.
    rows = {r["id"]: r for r in check_conservation(engine)}
    spent: dict[str, int] = {}
    for t in transfers.values():
        if t["status"] == "approved":
            child = rows[t["buyer_certificate_id"]]
            assert child["parent_id"] == t["certificate_id"]
            assert child["face_cents"] == t["amount_cents"]
            assert child["holder_party_id"] == t["buyer_party_id"]
            spent[t["certificate_id"]] = spent.get(t["certificate_id"], 0) + t["amount_cents"]
        else:
            assert t["buyer_certificate_id"] is None
    for cert_id, row in rows.items():
        if row["is_original"]:
            assert row["transferred_cents"] == spent.get(cert_id, 0), cert_id
    report = verify(engine)
    assert report.ok, report.problems


@pytest.mark.slow
def test_acknowledged_transfers_survive_sigkill(database_url: str, tmp_path: Path) -> None:
    engine = make_engine(database_url)
    try:
        sellers = []
        for i in range(2):
            new = NewParty(f"Crash seller {i}", f"cs-{i}", "c_corporation", ["CBT"])
            sellers.append(run(engine, lambda uow, n=new: register_party(uow, SYSTEM, n))["id"])
        new = NewParty("Crash buyer", "cb-0", "c_corporation", ["CBT"])
        buyer = run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"]
        certs = []
        for i in range(4):
            issue = certificates.NewCertificate(
                "BRRAG", sellers[i % 2], 10 * M, 2014 + i // 2, **brrag_award_kwargs(10 * M)
            )
            certs.append(run(engine, lambda uow, n=issue: _issue(uow, n)))
        key_file = tmp_path / "token_hash_key"
        key_file.write_text(secrets.token_hex(32))
        hasher = TokenHasher(bytes.fromhex(key_file.read_text()))
        headers = {s: _token(engine, hasher, "participant", s) for s in sellers}
        headers["auth"] = _token(engine, hasher, "authority")
        headers[buyer] = _token(engine, hasher, "participant", buyer)
        server = Server(database_url, tmp_path / "gunicorn.log", key_file)
        acks = Acks()
        for kill in range(SCALE.crash_kills):
            server.start()
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=_load,
                    args=(server.base, certs, buyer, headers, acks, stop, kill * 100 + i),
                )
                for i in range(CLIENTS)
            ]
            for t in threads:
                t.start()
            time.sleep(SCALE.crash_load_seconds * random.uniform(0.7, 1.3))
            server.kill(signal.SIGKILL)
            stop.set()
            for t in threads:
                t.join(timeout=30)
            server.start()
            try:
                _check_after_restart(engine, server.base, headers["auth"], acks)
            finally:
                server.kill(signal.SIGTERM)
        assert not acks.unexpected, acks.unexpected[:5]
        assert len(acks.approved) >= SCALE.crash_kills, (len(acks.proposed), len(acks.approved))
        print(
            f"crash: {SCALE.crash_kills} kills, {len(acks.proposed)} proposed and "
            f"{len(acks.approved)} approved acknowledged, {acks.errors} requests cut off"
        )
    finally:
        engine.dispose()
