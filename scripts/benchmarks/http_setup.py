"""scripts/bench_http's set-up: a seller, a buyer, a certificate, three users; gunicorn."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from datetime import date
from pathlib import Path
from typing import Any

import requests

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.rulesets import get_ruleset
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.identity import identity
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party

ROOT = Path(__file__).resolve().parents[2]
# Every server of a run (bare Flask, the thin write, the app) is served the same way;
# scripts/bench_http's --workers and --threads set these.
GUNICORN = {"workers": 2, "threads": 4}


def gunicorn_args() -> list[str]:
    return [
        "--workers",
        str(GUNICORN["workers"]),
        "--worker-class",
        "gthread",
        "--threads",
        str(GUNICORN["threads"]),
        "--keep-alive",
        "30",
        "--log-level",
        "warning",
    ]


def prepare(url: str, certificates: int = 1) -> dict[str, Any]:
    engine = make_engine(url)
    upgrade(engine)

    def party(name: str, tax: str) -> str:
        new = NewParty(name=name, tax_id=tax, entity_type="c_corporation", tax_types=["CBT"])
        return run(engine, lambda uow: register_party(uow, SYSTEM, new))["id"]

    seller, buyer = party("Bench Seller", "B-1"), party("Bench Buyer", "B-2")
    # $19M of the $20M BRRAG fiscal-year cap, split between the certificates.
    new = NewCertificate(
        program="BRRAG",
        holder_party_id=seller,
        face_cents=1_900_000_000 // certificates,
        fiscal_year=2013,
        retained_jobs=1_900_000_000 // certificates // 150_000 + 1,  # BR-6: $1,500 a job-year
        award_years=1,
        nj_operations_since=date(2000, 1, 2),  # BR-1: over 10 years in New Jersey
        cannot_use_before_expiry=True,  # BR-2
    )
    certs = [
        run(engine, lambda uow: issue_certificate(uow, SYSTEM, new, get_ruleset()))["id"]
        for _ in range(certificates)
    ]
    identity.create_user(engine, "bench-eda@x.org", "authority", "bench-password")
    identity.create_user(engine, "bench-seller@x.org", "participant", "bench-password", seller)
    identity.create_user(engine, "bench-buyer@x.org", "participant", "bench-password", buyer)
    engine.dispose()
    return {"seller": seller, "buyer": buyer, "certificate_ids": certs}


class Server(subprocess.Popen[bytes]):
    port: int


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(app_spec: str, env: dict[str, str], cwd: str) -> Server:
    port = free_port()
    proc = Server(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            *gunicorn_args(),
            "--bind",
            f"127.0.0.1:{port}",
            app_spec,
        ],
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    proc.port = port
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=5)
            return proc
        except requests.RequestException:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGTERM)
    raise RuntimeError("gunicorn did not start")


def token(port: int, email: str) -> str:
    r = requests.post(
        f"http://127.0.0.1:{port}/api/v1/auth/token",
        json={"email": email, "password": "bench-password"},
        timeout=10,
    )
    r.raise_for_status()
    return str(r.json()["token"])
