"""HTTP benchmark: negotiated transfers (create, then approve) through gunicorn, against a
bare Flask endpoint served the same way, in the same run, with the same clients.

Usage: scripts/bench_http [--seconds S] [--clients N] [--backend sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import socket
import statistics
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import requests
from report import emit
from sqlalchemy import create_engine, text

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.rulesets import get_ruleset
from market.services import identity, ledger
from market.services.actor import SYSTEM
from market.services.certificates import NewCertificate, issue_certificate
from market.services.parties import NewParty, register_party
from market.services.runner import run

ROOT = Path(__file__).resolve().parents[2]
PG_ADMIN = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BARE_APP = """
from flask import Flask, jsonify
app = Flask(__name__)
@app.post("/ping")
def ping():
    return jsonify({"ok": True}), 201
"""
GUNICORN = [
    "--workers",
    "2",
    "--worker-class",
    "gthread",
    "--threads",
    "2",
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
    )
    certs = [
        run(engine, lambda uow: issue_certificate(uow, SYSTEM, new, get_ruleset()))["id"]
        for _ in range(certificates)
    ]
    identity.create_user(engine, "bench-eda@x.org", "authority", "bench-password")
    identity.create_user(engine, "bench-seller@x.org", "participant", "bench-password", seller)
    engine.dispose()
    return {"seller": seller, "buyer": buyer, "certificate_ids": certs}


def serve(app_spec: str, port: int, env: dict[str, str], cwd: str) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), *GUNICORN, "--bind", f"127.0.0.1:{port}", app_spec],
        env=env,
        cwd=cwd,
        start_new_session=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=5)
            return proc
        except requests.RequestException:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGTERM)
    raise RuntimeError("gunicorn did not start")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def workers(master: int) -> list[int]:
    path = Path(f"/proc/{master}/task/{master}/children")
    return [int(p) for p in path.read_text().split()] if path.exists() else []


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_by_pid(pids: list[int]) -> dict[int, float]:
    """CPU seconds (user + system) each process has used so far."""
    used = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        used[pid] = (int(fields[11]) + int(fields[12])) / CLK_TCK
    return used


def postgres_pids() -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() == "postgres":
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def drive(port: int, seconds: float, clients: int, op: Any, master: int) -> dict[str, Any]:
    latencies: list[float] = []
    errors = [0]
    done = [0]
    lock = threading.Lock()
    stop = time.time() + seconds
    samples: list[list[float]] = []

    def client(i: int) -> None:
        session = requests.Session()
        mine: list[float] = []
        ok = err = 0
        while time.time() < stop:
            good, lats = op(session, port, i)
            mine += lats
            if good:
                ok += 1
            else:
                err += 1
        with lock:
            latencies.extend(mine)
            errors[0] += err
            done[0] += ok

    def sampler() -> None:
        while time.time() < stop:
            samples.append([rss_mb(w) for w in workers(master)])
            time.sleep(0.5)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    threads.append(threading.Thread(target=sampler))
    app_pids = [master, *workers(master)]
    app0, db0 = cpu_by_pid(app_pids), cpu_by_pid(postgres_pids())
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    start = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.time() - start
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    app_cpu = cpu_spent(app0, cpu_by_pid(app_pids))
    db_cpu = cpu_spent(db0, cpu_by_pid(postgres_pids()))
    client_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)
    latencies.sort()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    first = samples[len(samples) // 4] if samples else []
    last = samples[-1] if samples else []
    return {
        "ops_per_s": done[0] / elapsed,
        "requests_per_s": len(latencies) / elapsed,
        "p50_ms": q[49] * 1000,
        "p99_ms": q[98] * 1000,
        "errors": errors[0],
        "rss_peak_mb": max((max(s) for s in samples if s), default=0.0),
        "rss_quarter_mb": max(first, default=0.0),
        "rss_end_mb": max(last, default=0.0),
        # CPU milliseconds per request: the app's gunicorn processes, PostgreSQL's
        # processes (0 for SQLite, which runs inside the app) and this client.
        "cpu_ms": {
            name: 1000 * spent / max(len(latencies), 1)
            for name, spent in (("app", app_cpu), ("db", db_cpu), ("client", client_cpu))
        },
    }


def transfer_op(tokens: dict[str, str], setup: dict[str, Any]) -> Any:
    seller = {"Authorization": f"Bearer {tokens['seller']}"}
    eda = {"Authorization": f"Bearer {tokens['eda']}"}

    def op(session: requests.Session, port: int, i: int) -> tuple[bool, list[float]]:
        """Client i sells from certificate i mod the number issued."""
        base = f"http://127.0.0.1:{port}/api/v1"
        ids = setup["certificate_ids"]
        body = {
            "certificate_id": ids[i % len(ids)],
            "buyer_party_id": setup["buyer"],
            "amount_cents": 100_000,
            "consideration_cents": 80_000,
        }
        t0 = time.perf_counter()
        r = session.post(
            f"{base}/transfers", json=body, headers=seller | {"Idempotency-Key": uuid.uuid4().hex}
        )
        t1 = time.perf_counter()
        if r.status_code != 201:
            return False, [t1 - t0]
        a = session.post(
            f"{base}/transfers/{r.json()['id']}/approve", json={}, headers=eda, timeout=30
        )
        t2 = time.perf_counter()
        return a.status_code == 200, [t1 - t0, t2 - t1]

    return op


def bare_op(session: requests.Session, port: int, _i: int) -> tuple[bool, list[float]]:
    t0 = time.perf_counter()
    r = session.post(f"http://127.0.0.1:{port}/ping", json={}, timeout=30)
    return r.status_code == 201, [time.perf_counter() - t0]


def token(port: int, email: str) -> str:
    r = requests.post(
        f"http://127.0.0.1:{port}/api/v1/auth/token",
        json={"email": email, "password": "bench-password"},
        timeout=10,
    )
    r.raise_for_status()
    return str(r.json()["token"])


def bench_backend(
    url: str, seconds: float, clients: int, tmp: str, certificates: int = 1
) -> dict[str, Any]:
    setup = prepare(url, certificates)
    env = os.environ | {"DATABASE_URL": url, "SECRET_KEY": "bench"}
    port = free_port()
    proc = serve("market:create_app()", port, env, str(ROOT))
    try:
        tokens = {
            "eda": token(port, "bench-eda@x.org"),
            "seller": token(port, "bench-seller@x.org"),
        }
        ours = drive(port, seconds, clients, transfer_op(tokens, setup), proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    Path(tmp, "bare_app.py").write_text(BARE_APP)
    bare_port = free_port()
    proc = serve("bare_app:app", bare_port, dict(os.environ), tmp)
    try:
        bare = drive(bare_port, seconds, clients, bare_op, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    engine = make_engine(url)
    report = ledger.verify(engine)
    engine.dispose()
    return {"ours": ours, "bare": bare, "verify_ok": report.ok, "events": report.events}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--certificates",
        type=int,
        default=1,
        help="certificates the clients sell from (1: every client sells from the same one)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        if args.backend in ("sqlite", "both"):
            results["sqlite"] = bench_backend(
                f"sqlite:///{tmp}/bench.db", args.seconds, args.clients, tmp, args.certificates
            )
        if args.backend in ("postgresql", "both"):
            name = f"market_bench_{uuid.uuid4().hex[:8]}"
            admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
            url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
            try:
                results["postgresql"] = bench_backend(
                    url, args.seconds, args.clients, tmp, args.certificates
                )
            finally:
                with admin.connect() as conn:
                    conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
                admin.dispose()
    rows = []
    for backend, r in results.items():
        ours, bare = r["ours"], r["bare"]
        ratio = ours["requests_per_s"] / bare["requests_per_s"]
        growth = ours["rss_end_mb"] / max(ours["rss_quarter_mb"], 1)
        rows += [
            (
                f"{backend}: transfers/s (create + approve)",
                ours["ops_per_s"],
                "",
                None,
                None,
                "reported",
                True,
            ),
            (
                f"{backend}: write requests/s",
                ours["requests_per_s"],
                "bare Flask requests/s",
                bare["requests_per_s"],
                ratio,
                ">= 0.40",
                ratio >= 0.40,
            ),
            (
                f"{backend}: p50 latency ms",
                ours["p50_ms"],
                "bare Flask p50 ms",
                bare["p50_ms"],
                None,
                "reported",
                True,
            ),
            (
                f"{backend}: p99 latency ms",
                ours["p99_ms"],
                "bare Flask p99 ms",
                bare["p99_ms"],
                None,
                "<= 50",
                ours["p99_ms"] <= 50,
            ),
            (f"{backend}: errors", ours["errors"], "", None, None, "0", ours["errors"] == 0),
            (
                f"{backend}: CPU ms per write request (all processes)",
                sum(ours["cpu_ms"].values()),
                "bare Flask CPU ms per request",
                sum(bare["cpu_ms"].values()),
                sum(ours["cpu_ms"].values()) / max(sum(bare["cpu_ms"].values()), 1e-9),
                "reported",
                True,
            ),
            *(
                (
                    f"{backend}: CPU ms per write request, {name}",
                    ours["cpu_ms"][name],
                    f"bare Flask {name}",
                    bare["cpu_ms"][name],
                    None,
                    "reported",
                    True,
                )
                for name in ("app", "db", "client")
            ),
            (
                f"{backend}: worker peak RSS MB",
                ours["rss_peak_mb"],
                "bare Flask worker MB",
                bare["rss_peak_mb"],
                None,
                "< 150",
                ours["rss_peak_mb"] < 150,
            ),
            (
                f"{backend}: worker RSS end / quarter",
                growth,
                "",
                None,
                None,
                "<= 1.10 (flat)",
                growth <= 1.10,
            ),
            (
                f"{backend}: ledger verifies after the run ({r['events']} events)",
                float(r["verify_ok"]),
                "",
                None,
                None,
                "1",
                r["verify_ok"],
            ),
        ]
    emit(rows, args.json)


if __name__ == "__main__":
    main()
