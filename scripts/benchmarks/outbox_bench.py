"""Outbox benchmark (issue 18).

1. Latency: commits listing events at a paced rate (default 100 events/s for 10 s) while
   the real worker (`flask --app market worker`, a separate process) tails the ledger and
   delivers a "*" webhook to a local HTTP receiver; latency = arrival at the receiver minus
   the event's `recorded_at` (taken just before the commit). Prints p50 and p99.
2. Write-path cost: closed-loop writes (one listing per unit of work) for a few seconds
   with no worker, then with the worker running, alternating; the ratio of writes/s (with /
   without), and the writer's own CPU per write (with / without). The write path itself
   writes nothing for the outbox (the events table is the outbox), so the throughput ratio
   is the consumer's competition for the machine and the database, and the CPU ratio the
   write path's own cost.

`--postgres` runs on a fresh database on TEST_DATABASE_URL's server (dropped after).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from market.adapters.db import make_engine  # noqa: E402
from market.adapters.migrate import upgrade  # noqa: E402
from market.domain.commands.trading import CreateListing  # noqa: E402
from market.domain.rulesets import get_ruleset  # noqa: E402
from market.services.certificates import certificates  # noqa: E402
from market.services.identity import identity  # noqa: E402
from market.services.kernel.actor import SYSTEM, Actor  # noqa: E402
from market.services.kernel.runner import run  # noqa: E402
from market.services.notify import webhooks  # noqa: E402
from market.services.notify.delivery import Settings  # noqa: E402
from market.services.parties import parties  # noqa: E402
from market.services.trading import listings  # noqa: E402

RULES = get_ruleset("A1178")
M = 100_000_000


def when(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


class Backlogged(ThreadingHTTPServer):
    request_queue_size = 128  # the default 5 drops concurrent connects (1 s SYN retries)


class Receiver:
    def __init__(self) -> None:
        self.arrivals: dict[int, float] = {}
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                receiver.arrivals.setdefault(body["data"]["seq"], time.time())
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = Backlogged(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def setup(engine: Any) -> tuple[Actor, str, Actor]:
    def command(uow: Any) -> tuple[str, str]:
        seller = parties.register_party(
            uow,
            SYSTEM,
            parties.NewParty("Bench Seller", f"55-{uuid.uuid4().hex[:7]}", "llc", ["CBT"]),
        )
        cert = certificates.issue_certificate(
            uow, SYSTEM, certificates.NewCertificate("BRRAG", seller["id"], 10 * M, 2014), RULES
        )
        return seller["id"], cert["id"]

    seller_id, cert_id = run(engine, command)
    user = identity.create_user(
        engine,
        f"seller-{uuid.uuid4().hex[:6]}@bench.test",
        "participant",
        "bench-password",
        seller_id,
    )
    eda = identity.create_user(
        engine, f"eda-{uuid.uuid4().hex[:6]}@bench.test", "authority", "bench-password"
    )
    return Actor(user["id"], "participant", seller_id), cert_id, Actor(eda["id"], "authority")


def write(engine: Any, seller: Actor, cert_id: str) -> None:
    run(
        engine,
        lambda uow: listings.create_listing(uow, seller, CreateListing(cert_id, 100, 100), RULES),
    )


def start_worker(url: str, poll: float) -> subprocess.Popen[bytes]:
    env = os.environ | {
        "DATABASE_URL": url,
        "WEBHOOK_ALLOW_PRIVATE_NETWORKS": "true",
        "SECRET_KEY": "bench",
    }
    return subprocess.Popen(
        ["flask", "--app", "market", "worker", "--poll", str(poll), "--tick-every", "0"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process (Linux /proc), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def stop(worker: subprocess.Popen[bytes]) -> None:
    worker.send_signal(signal.SIGTERM)
    worker.wait(timeout=30)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def latency(
    engine: Any, url: str, seller: Actor, cert_id: str, rate: float, seconds: float, poll: float
) -> dict[str, Any]:
    with engine.connect() as conn:
        start_seq = int(conn.execute(text("select seq from ledger_head")).scalar() or 0)
    receiver = Receiver()
    webhooks.register(engine, eda_actor, receiver.url, ["*"], Settings(allow_private_networks=True))
    worker = start_worker(url, poll)
    time.sleep(2)  # let it start
    cpu0 = cpu_seconds(worker.pid)  # its start-up is not the events' cost
    n = int(rate * seconds)
    t0 = time.monotonic()
    behind = 0
    for i in range(n):
        due = t0 + i / rate
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        elif now - due > 0.05:
            behind += 1
        write(engine, seller, cert_id)
    achieved = n / (time.monotonic() - t0)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len([s for s in receiver.arrivals if s > start_seq]) < n:
        time.sleep(0.05)
    worker_cpu = cpu_seconds(worker.pid)
    stop(worker)
    receiver.server.shutdown()
    with engine.connect() as conn:
        rows = conn.execute(
            text("select seq, recorded_at from events where seq > :s"), {"s": start_seq}
        )
        recorded = {r.seq: when(r.recorded_at) for r in rows}
    hook = [receiver.arrivals[s] - t for s, t in recorded.items() if s in receiver.arrivals]
    return {
        "events": n,
        "target_rate": rate,
        "achieved_rate": round(achieved, 1),
        "late_sends": behind,
        "webhooks_arrived": len(hook),
        "webhook_p50_ms": round(1000 * pct(hook, 0.50), 1),
        "webhook_p99_ms": round(1000 * pct(hook, 0.99), 1),
        "webhook_mean_ms": round(1000 * statistics.fmean(hook), 1),
        "worker_cpu_ms_per_event": round(1000 * (worker_cpu - cpu0) / n, 2),
        "worker_poll_s": poll,
    }


def throughput(engine: Any, seller: Actor, cert_id: str, seconds: float) -> tuple[float, float]:
    """Writes/s, and the writer's own CPU ms per write (what the write path costs)."""
    done, t0, cpu0 = 0, time.monotonic(), time.process_time()
    while time.monotonic() - t0 < seconds:
        write(engine, seller, cert_id)
        done += 1
    return done / (time.monotonic() - t0), 1000 * (time.process_time() - cpu0) / done


def write_cost(
    engine: Any, url: str, seller: Actor, cert_id: str, seconds: float, rounds: int, poll: float
) -> dict[str, Any]:
    without, with_ = [], []
    for _ in range(rounds):
        without.append(throughput(engine, seller, cert_id, seconds))
        worker = start_worker(url, poll)
        time.sleep(1.5)
        with_.append(throughput(engine, seller, cert_id, seconds))
        stop(worker)
    a = statistics.median(w for w, _ in without)
    b = statistics.median(w for w, _ in with_)
    ca = statistics.median(c for _, c in without)
    cb = statistics.median(c for _, c in with_)
    return {
        "writes_per_s_without_worker": round(a, 1),
        "writes_per_s_with_worker": round(b, 1),
        "throughput_ratio_with_over_without": round(b / a, 3),
        "writer_cpu_ms_per_write_without": round(ca, 3),
        "writer_cpu_ms_per_write_with": round(cb, 3),
        "writer_cpu_ratio_with_over_without": round(cb / ca, 3),
        "rounds": rounds,
        "seconds_each": seconds,
    }


def main() -> None:
    global eda_actor
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rate", type=float, default=100.0)
    p.add_argument("--seconds", type=float, default=10.0)
    p.add_argument("--cost-seconds", type=float, default=3.0)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--poll", type=float, default=0.25, help="the worker's poll interval")
    p.add_argument("--postgres", action="store_true")
    args = p.parse_args()
    admin = None
    if args.postgres:
        base = os.environ.get(
            "TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
        )
        name = f"market_bench_outbox_{os.getpid()}"
        admin = create_engine(base, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = base.rsplit("/", 1)[0] + f"/{name}"
    else:
        url = f"sqlite:///{tempfile.mkdtemp()}/bench.db"
    engine = make_engine(url)
    try:
        upgrade(engine)
        seller, cert_id, eda_actor = setup(engine)
        out = {"database": engine.dialect.name}
        out["latency"] = latency(engine, url, seller, cert_id, args.rate, args.seconds, args.poll)
        out["write_path"] = write_cost(
            engine, url, seller, cert_id, args.cost_seconds, args.rounds, args.poll
        )
        print(json.dumps(out, indent=2))
    finally:
        engine.dispose()
        if admin is not None:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()


eda_actor: Actor

if __name__ == "__main__":
    main()
