"""Units of work of any size: `expire-carryforwards` over N certificates and a TECH
allocation commit of N applicants, each one unit of work, timed at two sizes; the ratio
time(large) / time(small) is what linear time gives as large / small (10 for 10k/100k).
Time is reported as CPU seconds (this process, plus PostgreSQL's processes) and wall
seconds; on a shared machine the CPU figure is the one to judge linearity by.

Set-up is fast and goes through the unit of work and the projections: one party, one
certificate and one TECH application are made by the services, and their events are
appended again N times with fresh ids (a bulk copy, so the payloads are the services'
own). Only the timed command is measured.

Usage: scripts/bench_units [--small N] [--large N] [--backend sqlite|postgresql|both]
[--case expire|tech|both] [--json]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from typing import Any

from procstat import cpu_by_pid, cpu_spent, postgres_pids
from report import emit
from sqlalchemy import Engine, create_engine, text

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.events import upcast
from market.domain.rulesets import A1178
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.certificates.certificates import NewCertificate, issue_certificate
from market.services.kernel.actor import SYSTEM
from market.services.kernel.numbering import new_id
from market.services.kernel.runner import run
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, register_party
from market.services.tech import tech, tech_allocations

PG_ADMIN = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
BATCH = 20_000  # events appended per set-up unit of work


@contextmanager
def database(backend: str, tmp: str) -> Iterator[Engine]:
    if backend == "sqlite":
        engine = make_engine(f"sqlite:///{tmp}/units-{uuid.uuid4().hex[:6]}.db")
        upgrade(engine)
        yield engine
        engine.dispose()
        return
    name = f"market_units_{uuid.uuid4().hex[:8]}"
    admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine = make_engine(PG_ADMIN.rsplit("/", 1)[0] + f"/{name}")
    try:
        upgrade(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def appended(engine: Engine, command: Callable[[UnitOfWork], Any], type_: str) -> dict[str, Any]:
    """Run `command`; the payload of the event of `type_` it appended."""
    with UnitOfWork(engine) as uow:
        command(uow)
        payload = next(e.payload for e in uow.appended if e.type == type_)
        uow.commit()
    return payload


def copies(
    engine: Engine, n: int, make: Callable[[int], list[tuple[str, str, dict[str, Any]]]]
) -> None:
    """Append the events `make(i)` gives, for i in range(n), BATCH copies per unit of work."""
    for start in range(0, n, BATCH):
        with UnitOfWork(engine) as uow:
            for i in range(start, min(start + BATCH, n)):
                for stream, type_, payload in make(i):
                    uow.append(stream, upcast(type_, payload), SYSTEM.label, new_stream=True)
            uow.commit()


def party(i: int) -> NewParty:
    return NewParty(
        name=f"Bench {i}",
        tax_id=f"BU-{i:08d}",
        entity_type="c_corporation",
        tax_types=["CBT"],
        us_employees=30,
        nj_full_time_employees=15,
        formed_on="2005-01-01",
    )


def expire_setup(engine: Engine, n: int) -> None:
    holder = run(engine, lambda uow: register_party(uow, SYSTEM, party(0)))["id"]
    new = NewCertificate(
        program="BRRAG",
        holder_party_id=holder,
        face_cents=1_000,
        fiscal_year=2013,
        retained_jobs=1,  # BR-6: $1,500 a retained job for one year covers $10
        award_years=1,
        nj_operations_since=date(2000, 1, 2),  # BR-1: over 10 years in New Jersey
        cannot_use_before_expiry=True,  # BR-2
    )
    template = appended(
        engine, lambda uow: issue_certificate(uow, SYSTEM, new, A1178), "CERT_ISSUED"
    )

    def held(i: int) -> list[tuple[str, str, dict[str, Any]]]:
        cert_id = new_id("cert")
        payload = template | {
            "certificate_id": cert_id,
            "number": f"BRRAG-2013-B{i:07d}",
            "root_id": cert_id,
            "is_original": False,
            "origin": "transfer",
            "carryover_last_year": 2020,
        }
        return [(f"certificate-{cert_id}", "CERT_ISSUED", payload)]

    copies(engine, n, held)


def expire_run(engine: Engine, n: int) -> None:
    done = run(engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2030))
    assert len(done) == n, len(done)


def tech_setup(engine: Engine, n: int) -> None:
    first = appended(engine, lambda uow: register_party(uow, SYSTEM, party(0)), "PARTY_REGISTERED")
    application = tech.NewTechApplication(
        party_id=first["party_id"],
        received_on=date(2013, 5, 1),
        nol_cents=0,
        allocation_factor="1",
        seller_tax_regime="CBT",
        rnd_credit_cents=5_000_000,
        receipt_reason="paper filing (benchmark)",  # TB-6: a receipt the Authority records
    )
    template = appended(
        engine,
        lambda uow: tech.submit_application(uow, SYSTEM, A1178, application),
        "TECH_APPLICATION_RECEIVED",
    )

    def applicant(i: int) -> list[tuple[str, str, dict[str, Any]]]:
        party_id, app_id = new_id("pty"), new_id("tapp")
        registered = first | {"party_id": party_id, "tax_id": f"BU-{i + 1:08d}"}
        received = template | {"application_id": app_id, "party_id": party_id}
        return [
            (f"party-{party_id}", "PARTY_REGISTERED", registered),
            (f"tech-{app_id}", "TECH_APPLICATION_RECEIVED", received),
        ]

    copies(engine, n - 1, applicant)


def tech_run(engine: Engine, n: int) -> None:
    view = run(
        engine,
        lambda uow: tech_allocations.commit_allocation(uow, SYSTEM, 2013, A1178, date(2014, 1, 1)),
    )
    assert len(view["allocations"]) == n, len(view["allocations"])


def measure(backend: str, tmp: str, setup: Any, command: Any, n: int) -> tuple[float, float]:
    """Wall seconds of the command, and CPU seconds it cost this process and PostgreSQL's
    (the machine is shared: CPU time is what other load disturbs least)."""
    with database(backend, tmp) as engine:
        setup(engine, n)
        db0 = cpu_by_pid(postgres_pids()) if backend != "sqlite" else {}
        cpu0, started = time.process_time(), time.perf_counter()
        command(engine, n)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu0
        if backend != "sqlite":
            cpu += cpu_spent(db0, cpu_by_pid(postgres_pids()))
        return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--small", type=int, default=10_000)
    parser.add_argument("--large", type=int, default=100_000)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--case", choices=["expire", "tech", "both"], default="both", help="which unit of work"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    linear = args.large / args.small
    rows: list[Any] = []
    cases = [
        case
        for case in (
            ("expire-carryforwards", expire_setup, expire_run),
            ("TECH commit", tech_setup, tech_run),
        )
        if args.case == "both" or case[0].lower().startswith(args.case)
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            for name, setup, command in cases:
                small, small_cpu = measure(backend, tmp, setup, command, args.small)
                large, large_cpu = measure(backend, tmp, setup, command, args.large)
                for what, lo, hi in (("CPU s", small_cpu, large_cpu), ("wall s", small, large)):
                    row = (
                        f"{backend}: {name}, {args.large:,} in one unit of work, {what}",
                        hi,
                        f"{args.small:,}, {what}",
                        lo,
                        hi / lo,
                        f"ratio <= {1.5 * linear:g} (linear {linear:g})",
                        hi / lo <= 1.5 * linear,
                    )
                    rows.append(row)
                    if not args.json:  # progress: each figure as soon as it is measured
                        emit([row], False)
                        sys.stdout.flush()
    if args.json:
        emit(rows, True)


if __name__ == "__main__":
    main()
