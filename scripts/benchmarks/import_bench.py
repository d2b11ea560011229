"""`flask import certificates` at registry size: a generated file of N certificates (BRRAG
awards spread over fiscal years, DM_GIT and DM_CBT credits), held by P parties imported
first, imported through `run_import` (the CLI's code) into a fresh database and timed
(wall and CPU seconds); then a broken copy (every 1,000th row with a negative face, an
impossible date or an unknown holder) is dry-run, and its refusals counted.

Usage: scripts/bench_import [--certificates N] [--parties P] [--backend sqlite|postgresql]
[--json]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import random
import tempfile
import time
import uuid

from sqlalchemy import create_engine, text

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.rulesets import ScheduleEntry
from market.services.kernel import clock
from market.services.records.importer import ImportFile, run_import

PG_ADMIN = os.environ.get("TEST_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
SCHEDULE = (ScheduleEntry("A1178"),)


def parties_file(count: int) -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["name", "tax_id", "entity_type", "tax_types", "naics_code", "employees"])
    for i in range(count):
        w.writerow(
            [
                f"Registry Co {i}",
                f"99-{i:07d}",
                "c_corporation",
                "CBT;GIT",
                "541715",
                f"2024:{10 + i};2025:{12 + i}",
            ]
        )
    return out.getvalue().encode()


def certificates_file(count: int, parties: int, rng: random.Random) -> list[list[str]]:
    rows = [
        [
            "program",
            "holder_tax_id",
            "face",
            "fiscal_year",
            "issued_on",
            "tax_types",
            "credit_year",
            "retained_jobs",
            "award_years",
            "nj_operations_since",
            "cannot_use_before_expiry",
        ]
    ]
    for i in range(count):
        holder = f"99-{i % parties:07d}"
        fy = 2016 + i % 10
        dollars = rng.randint(1_000, 4_000)
        face = f"${dollars:,}.{rng.randint(0, 99):02d}"
        if i % 10 < 8:
            rows.append(
                [
                    "BRRAG",
                    holder,
                    face,
                    str(fy),
                    f"{fy - 1}-10-01",
                    "CBT",
                    "",
                    "25",
                    "10",
                    "2000-01-01",
                    "yes",
                ]
            )
        else:
            program, tax = ("DM_GIT", "GIT") if i % 2 else ("DM_CBT", "CBT")
            rows.append(
                [
                    program,
                    holder,
                    face,
                    str(fy),
                    f"{fy - 1}-10-01",
                    tax,
                    str(fy - 1),
                    "",
                    "",
                    "",
                    "",
                ]
            )
    return rows


def encode(rows: list[list[str]]) -> bytes:
    out = io.StringIO()
    csv.writer(out).writerows(rows)
    return out.getvalue().encode("utf-8-sig")


def broken(rows: list[list[str]]) -> list[list[str]]:
    copy = [list(r) for r in rows]
    for n, i in enumerate(range(1, len(copy), 1000)):
        if n % 3 == 0:
            copy[i][2] = "-" + copy[i][2]
        elif n % 3 == 1:
            copy[i][4] = "2021-02-30"
        else:
            copy[i][1] = "00-0000000"
    return copy


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--certificates", type=int, default=10_000)
    ap.add_argument("--parties", type=int, default=200)
    ap.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    clock.configure("2026-06-01")
    tmp = tempfile.mkdtemp()
    name = f"market_import_{uuid.uuid4().hex[:8]}"
    if args.backend == "sqlite":
        url = f"sqlite:///{tmp}/import.db"
    else:
        admin = create_engine(PG_ADMIN, isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        url = PG_ADMIN.rsplit("/", 1)[0] + f"/{name}"
    engine = make_engine(url)
    upgrade(engine)
    rng = random.Random(30)
    t0 = time.perf_counter()
    parties_in = ImportFile("parties", parties_file(args.parties), "p.csv", SCHEDULE)
    parties = run_import(engine, parties_in)
    rows = certificates_file(args.certificates, args.parties, rng)
    t1, c1 = time.perf_counter(), time.process_time()
    dry = run_import(
        engine, ImportFile("certificates", encode(broken(rows)), "b.csv", SCHEDULE, dry_run=True)
    )
    t2, c2 = time.perf_counter(), time.process_time()
    done = run_import(engine, ImportFile("certificates", encode(rows), "c.csv", SCHEDULE))
    t3, c3 = time.perf_counter(), time.process_time()
    again = run_import(engine, ImportFile("certificates", encode(rows), "c.csv", SCHEDULE))
    figures = {
        "backend": args.backend,
        "parties_imported": parties.imported,
        "parties_seconds": round(t1 - t0, 2),
        "certificates": args.certificates,
        "imported": done.imported,
        "import_wall_seconds": round(t3 - t2, 2),
        "import_cpu_seconds": round(c3 - c2, 2),
        "rows_per_second": round(done.imported / (t3 - t2)),
        "broken_dry_run_refused": len(dry.refused),
        "broken_dry_run_codes": sorted({r.code for r in dry.refused}),
        "broken_dry_run_seconds": round(t2 - t1, 2),
        "second_run_already_imported": again.already_imported,
    }
    engine.dispose()
    if args.backend == "postgresql":
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    print(json.dumps(figures, indent=2 if not args.json else None))
    del c1


if __name__ == "__main__":
    main()
