"""TECH allocation simulator benchmark (PRODUCT.md 8.3): GET
/api/v1/tech/allocations/{fy}/simulation over N applicants (default 10,000), through the
HTTP endpoint (Flask's WSGI stack in process: routing, token, service, JSON), on SQLite and,
when reachable, PostgreSQL. Goal: under 200 ms. Usage:
scripts/bench_simulator [--applicants N] [--runs N] [--backend sqlite|postgresql|both]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date
from pathlib import Path

from sqlalchemy import create_engine, text

from market import create_app
from market.domain.rulesets import get_ruleset
from market.services.identity import identity
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, register_party
from market.services.tech import simulator, tech

PG = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BATCH = 500
EMAIL = f"eda-{uuid.uuid4().hex[:8]}@bench.nj"


def seed(engine: object, applicants: int) -> None:
    rules = get_ruleset()
    for start in range(0, applicants, BATCH):
        with UnitOfWork(engine) as uow:  # type: ignore[arg-type]
            for i in range(start, min(applicants, start + BATCH)):
                party = register_party(
                    uow,
                    SYSTEM,
                    NewParty(
                        name=f"Biotech {i}",
                        tax_id=f"B{i}",
                        entity_type="c_corporation",
                        tax_types=["CBT"],
                        us_employees=40,
                        nj_full_time_employees=12,
                        formed_on="2006-03-01",
                        operating_income_cents_by_year={"2010": -1, "2011": -1},
                    ),
                )
                tech.submit_application(
                    uow,
                    SYSTEM,
                    rules,
                    tech.NewTechApplication(
                        party_id=party["id"],
                        received_on=date(2013, 1 + i % 6, 1 + i % 28),
                        nol_cents=0,
                        allocation_factor="1",
                        seller_tax_regime="CBT",
                        rnd_credit_cents=(50_000 + (i * 7919) % 2_000_000) * 100,
                        in_innovation_zone=i % 10 == 0,
                        receipt_reason="paper filing (benchmark)",  # TB-6: the Authority's
                    ),
                )
            uow.commit()
        print(f"  seeded {min(applicants, start + BATCH)}/{applicants}", file=sys.stderr)


def measure(url: str, applicants: int, runs: int) -> list[float]:
    app = create_app(
        {"DATABASE_URL": url, "TESTING": True, "SECRET_KEY": "bench", "MARKET_TODAY": "2013-06-30"}
    )
    engine = app.extensions["market.engine"]
    seed(engine, applicants)
    identity.create_user(engine, EMAIL, "authority", "bench-password")
    client = app.test_client()
    token = client.post(
        "/api/v1/auth/token", json={"email": EMAIL, "password": "bench-password"}
    ).json["token"]
    headers = {"Authorization": f"Bearer {token}"}
    cold: list[tuple[float, float]] = []
    warm: list[tuple[float, float]] = []
    for run in range(runs + 1):
        simulator.clear_cache()
        for kind in (cold, warm):  # computed, then the same ledger state again
            start, cpu = time.perf_counter(), time.process_time()
            r = client.get("/api/v1/tech/allocations/2013/simulation", headers=headers)
            if run:  # the first run warms SQLAlchemy's statement caches
                kind.append(
                    ((time.perf_counter() - start) * 1000, (time.process_time() - cpu) * 1000)
                )
            assert r.status_code == 200 and len(r.json["allocations"]) == applicants
            assert r.json["triggered"] and r.json["total_cents"] == 6_000_000_000
    engine.dispose()
    return cold, warm


def report(name: str, figures: tuple[list[tuple[float, float]], ...]) -> None:
    """Wall time, and the CPU time this process spent (what a machine not shared with
    other work would take, less the database server's own time on PostgreSQL)."""
    for label, pairs in zip(("computed", "same ledger state"), figures, strict=True):
        wall = sorted(w for w, _ in pairs)
        cpu = sorted(c for _, c in pairs)
        print(
            f"{name} {label}: wall median {statistics.median(wall):.1f} ms "
            f"(best {wall[0]:.1f}, max {wall[-1]:.1f}), CPU median "
            f"{statistics.median(cpu):.1f} ms, {len(wall)} runs (goal < 200 ms); "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--applicants", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    args = parser.parse_args()
    if args.backend in ("sqlite", "both"):
        with tempfile.TemporaryDirectory() as tmp:
            url = f"sqlite:///{Path(tmp) / 'bench.db'}"
            from market.adapters.db import make_engine
            from market.adapters.migrate import upgrade

            upgrade(make_engine(url))
            report("sqlite", measure(url, args.applicants, args.runs))
    if args.backend in ("postgresql", "both"):
        admin = create_engine(PG, isolation_level="AUTOCOMMIT")
        name = f"market_bench_{uuid.uuid4().hex[:8]}"
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = PG.rsplit("/", 1)[0] + f"/{name}"
        try:
            from market.adapters.db import make_engine
            from market.adapters.migrate import upgrade

            upgrade(make_engine(url))
            report("postgresql", measure(url, args.applicants, args.runs))
        finally:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


if __name__ == "__main__":
    main()
