"""HTTP benchmark: negotiated transfers (create, then approve) through gunicorn, against a
bare Flask endpoint served the same way, in the same run, driven by the same lean client.

The client is Debian's `wrk` (installed with apt-get when missing) with a Lua script for
the POST bodies, bearer tokens and Idempotency-Keys (scripts/benchmarks/wrk_*.lua). Its
CPU per request is reported (the kernel's rusage of the wrk process), so a reader can see
that the baseline is not bound by the client: the earlier Python client spent about 1 ms
of CPU per request, which held bare Flask to a fraction of what it serves.

`--before DIR` also measures the app in DIR (e.g. `git archive <commit> | tar -x -C DIR`)
in the same run, on its own database, for a before/after on the same machine load.

Usage: scripts/bench_http [--seconds S] [--connections N] [--backend sqlite|postgresql|both]
                          [--before DIR] [--workers 2] [--threads 4] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

import requests
import thin_app
from http_rows import rows_for
from http_setup import GUNICORN, ROOT, prepare, serve, token
from procstat import cpu_by_pid, cpu_spent, postgres_pids, workers
from report import emit
from sqlalchemy import create_engine, text

from market.adapters.db import make_engine
from market.services.kernel import clock
from market.services.trust import ledger

PG_ADMIN = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
HERE = Path(__file__).resolve().parent
ERA = "2013-06-30"
BARE_APP = """
from flask import Flask, jsonify
app = Flask(__name__)
@app.post("/ping")
def ping():
    return jsonify({"ok": True}), 201
"""


def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found is None:
        subprocess.run(["apt-get", "install", "-y", "wrk"], check=True, capture_output=True)
        found = shutil.which("wrk")
    if found is None:
        raise SystemExit("wrk is not installed and apt-get could not install it")
    return found


def run_wrk(
    port: int, script: str, env: dict[str, str], seconds: float, connections: int, master: int
) -> dict[str, Any]:
    """One wrk run; the app's, PostgreSQL's and wrk's own CPU seconds over it."""
    app_pids = [master, *workers(master)]
    app0, db0 = cpu_by_pid(app_pids), cpu_by_pid(postgres_pids())
    proc = subprocess.Popen(
        [
            ensure_wrk(),
            "--threads",
            "2",
            "--connections",
            str(connections),
            "--duration",
            f"{seconds:g}s",
            "--timeout",
            "10s",
            "--script",
            str(HERE / script),
            f"http://127.0.0.1:{port}",
        ],
        env=os.environ | env,
        stdout=subprocess.PIPE,
        text=True,
    )
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    app_cpu = cpu_spent(app0, cpu_by_pid(app_pids))
    db_cpu = cpu_spent(db0, cpu_by_pid(postgres_pids()))
    line = next((ln for ln in out.splitlines() if ln.startswith("WRK ")), None)
    if line is None:
        raise RuntimeError(f"wrk gave no summary:\n{out}")
    found = json.loads(line[4:])
    n = max(found["requests"], 1)
    seconds_run = found["duration_us"] / 1e6
    return {
        "requests_per_s": found["requests"] / seconds_run,
        "seconds": seconds_run,
        "transfers_per_s": found["approved"] / seconds_run,
        "p50_ms": found["p50_us"] / 1000,
        "p99_ms": found["p99_us"] / 1000,
        "errors": found["bad_status"] + found["socket_errors"],
        "cpu_ms": {
            "app": 1000 * app_cpu / n,
            "db": 1000 * db_cpu / n,
            "client": 1000 * (usage.ru_utime + usage.ru_stime) / n,
        },
    }


def bench_app(
    url: str, tree: Path, seconds: float, connections: int, certificates: int
) -> dict[str, Any]:
    setup = prepare(url, certificates)
    prom = tempfile.mkdtemp(prefix="bench-prom-")  # the workers' counters, added up at scrape
    env = os.environ | {
        "DATABASE_URL": url,
        "SECRET_KEY": "bench",
        "PYTHONPATH": str(tree),
        "PROMETHEUS_MULTIPROC_DIR": prom,
    }
    # The server entry point where the tree has one (market/wsgi.py), as scripts/run serves it.
    entry = "market.wsgi:app" if (tree / "market" / "wsgi.py").exists() else "market:create_app()"
    proc = serve(entry, env, str(tree))
    try:
        wrk_env = {
            "BENCH_SELLER": token(proc.port, "bench-seller@x.org"),
            "BENCH_EDA": token(proc.port, "bench-eda@x.org"),
            "BENCH_BUYER": token(proc.port, "bench-buyer@x.org"),
            "BENCH_BODY": json.dumps(
                {
                    "certificate_id": setup["certificate_ids"][0],
                    "buyer_party_id": setup["buyer"],
                    "amount_cents": 100_000,
                    "consideration_cents": 80_000,
                }
            ),
        }
        result = run_wrk(proc.port, "wrk_transfers.lua", wrk_env, seconds, connections, proc.pid)
        result |= write_batches(proc.port, result)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    engine = make_engine(url)
    report = ledger.verify(engine)
    engine.dispose()
    return result | {"verify_ok": report.ok, "events": report.events}


BATCH_METRICS = (
    "market_write_batch_size_count",
    "market_write_batch_size_sum",
    "market_write_batch_statements_total",
)


def write_batches(port: int, result: dict[str, Any]) -> dict[str, Any]:
    """Group commit's figures from /metrics (market_write_batch_size): the batches committed
    over the run (each one COMMIT, one fsync of the log), the units they carried and the
    statements they sent (market_write_batch_statements_total: the statements of a write
    request under load, its batch's shared among its units). A tree without the metrics
    (--before an older release) commits once per write request; its statements are not
    known (None)."""
    try:
        text_ = requests.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    except requests.RequestException:
        text_ = ""
    found = {
        line.split()[0]: float(line.split()[1])
        for line in text_.splitlines()
        if line.startswith(BATCH_METRICS)
    }
    batches = found.get("market_write_batch_size_count")
    writes = result["requests_per_s"] * result["seconds"]
    statements = found.get("market_write_batch_statements_total")
    per_request = None if statements is None else statements / max(writes, 1)
    if not batches:
        return {"commits_per_request": 1.0, "mean_batch": 1.0, "statements_per_request": None}
    return {
        "commits_per_request": batches / max(writes, 1),
        "mean_batch": found.get("market_write_batch_size_sum", 0) / batches,
        "statements_per_request": per_request,
    }


def bench_bare(tmp: str, seconds: float, connections: int) -> dict[str, Any]:
    Path(tmp, "bare_app.py").write_text(BARE_APP)
    proc = serve("bare_app:app", dict(os.environ), tmp)
    body = {"buyer_party_id": "pty_x", "amount_cents": 100_000, "consideration_cents": 80_000}
    try:
        env = {"BENCH_BODY": json.dumps(body)}
        return run_wrk(proc.port, "wrk_bare.lua", env, seconds, connections, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def bench_thin(tmp: str, seconds: float, connections: int) -> dict[str, Any]:
    """The thinnest honest ledger write (thin_app.py) under the same gunicorn and wrk."""
    tokens = {"BENCH_SELLER": "thin-seller-token", "BENCH_EDA": "thin-eda-token"}
    body = {
        "certificate_id": "cert_thin",
        "buyer_party_id": "pty_x",
        "amount_cents": 100_000,
        "consideration_cents": 80_000,
    }
    thin_app.setup(f"{tmp}/thin.db", "cert_thin", list(tokens.values()))
    env = os.environ | {"PYTHONPATH": str(HERE), "THIN_DB": f"{tmp}/thin.db"}
    proc = serve("thin_app:app", env, tmp)
    try:
        env = tokens | {"BENCH_BODY": json.dumps(body)}
        return run_wrk(proc.port, "wrk_transfers.lua", env, seconds, connections, proc.pid)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def with_database(backend: str, tmp: str, use: Any) -> Any:
    if backend == "sqlite":
        return use(f"sqlite:///{tmp}/bench-{uuid.uuid4().hex[:6]}.db")
    name = f"market_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        return use(PG_ADMIN.rsplit("/", 1)[0] + f"/{name}")
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=12)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--certificates", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="gunicorn workers, every server")
    parser.add_argument("--threads", type=int, default=4, help="threads per worker")
    parser.add_argument("--before", type=Path, help="also measure the app tree in this folder")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    GUNICORN.update(workers=args.workers, threads=args.threads)
    # The certificates are of fiscal year 2013: the business date is their era, so the
    # carryforward window is open (for the set-up here and for every app served).
    os.environ.setdefault("MARKET_TODAY", ERA)
    clock.configure(os.environ["MARKET_TODAY"])
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    trees = [("", ROOT)] + ([(" (before)", args.before.resolve())] if args.before else [])
    rows: list[Any] = []
    with tempfile.TemporaryDirectory() as tmp:
        bare = bench_bare(tmp, args.seconds, args.connections)
        thin = bench_thin(tmp, args.seconds, args.connections)
        rows += [
            (
                "thin ledger write (Flask + raw sqlite3): write requests/s",
                thin["requests_per_s"],
                "bare Flask requests/s",
                bare["requests_per_s"],
                thin["requests_per_s"] / bare["requests_per_s"],
                "reference",
                True,
            ),
            (
                "thin ledger write: p50 / p99 ms",
                thin["p50_ms"],
                "p99 ms",
                thin["p99_ms"],
                None,
                "reference",
                True,
            ),
            (
                "thin ledger write: CPU ms per request, app",
                thin["cpu_ms"]["app"],
                "client",
                thin["cpu_ms"]["client"],
                None,
                "reference",
                thin["errors"] == 0,
            ),
            (
                "bare Flask: p50 / p99 ms",
                bare["p50_ms"],
                "p99 ms",
                bare["p99_ms"],
                None,
                "reference",
                True,
            ),
        ]
        for backend in backends:
            for label, tree in trees:

                def use(url: str, tree: Path = tree) -> dict[str, Any]:
                    return bench_app(url, tree, args.seconds, args.connections, args.certificates)

                rows += rows_for(backend, label, with_database(backend, tmp, use), bare, thin)
    emit(rows, args.json)


if __name__ == "__main__":
    main()
