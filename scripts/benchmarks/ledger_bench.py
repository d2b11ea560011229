"""Ledger benchmark: append rate vs raw sqlite3, replay and verify rates, replay memory.

Every figure is measured in this run, on this machine, against a baseline from the same
run. Usage: scripts/bench_ledger [--appends N] [--events N]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from report import emit

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.commands.parties import RecordOwnership
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.trust import ledger


def raw_sqlite_commits(path: Path, n: int) -> float:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)")
    start = time.perf_counter()
    for i in range(n):
        conn.execute("BEGIN")
        conn.execute("INSERT INTO t (body) VALUES (?)", (f'{{"party":{i}}}',))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return n / elapsed


def ledger_appends(url: str, n: int, offset: int = 0) -> float:
    engine = make_engine(url)
    upgrade(engine)
    start = time.perf_counter()
    for i in range(offset, offset + n):
        new = NewParty(name=f"P{i}", tax_id=f"T{i}", entity_type="llc", tax_types=["GIT"])
        with UnitOfWork(engine) as uow:
            register_party(uow, SYSTEM, new)
            uow.commit()
    elapsed = time.perf_counter() - start
    engine.dispose()
    return n / elapsed


def bulk_commit_ms(url: str, n: int) -> float:
    """Milliseconds to commit one unit of work that appended `n` events (its projections
    written as they were applied; the events inserted by commit())."""
    engine = make_engine(url)
    upgrade(engine)
    with UnitOfWork(engine) as uow:
        for i in range(n):
            uow.events.append(f"bulk-{i}", "BULK_TEST", {"n": i}, SYSTEM.label, new_stream=True)
        start = time.perf_counter()
        uow.commit()
        elapsed = time.perf_counter() - start
    engine.dispose()
    return 1000 * elapsed


def raw_executemany_ms(path: Path, n: int) -> float:
    """The same rows' worth of work for the driver alone: one executemany and a commit."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("CREATE TABLE e (seq INTEGER PRIMARY KEY, stream TEXT, body TEXT, hash TEXT)")
    rows = [(i + 1, f"bulk-{i}", f'{{"n":{i}}}', "0" * 64) for i in range(n)]
    conn.execute("BEGIN")
    start = time.perf_counter()
    conn.executemany("INSERT INTO e VALUES (?, ?, ?, ?)", rows)
    conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return 1000 * elapsed


def build_ledger(url: str, events: int, parties: int = 200) -> None:
    """`parties` registrations, then ownership updates cycling over a fixed set of pairs,
    so the projections stay the same size however many events there are."""
    engine = make_engine(url)
    upgrade(engine)
    ids: list[str] = []
    with UnitOfWork(engine) as uow:
        for i in range(parties):
            new = NewParty(name=f"P{i}", tax_id=f"T{i}", entity_type="llc", tax_types=["GIT"])
            ids.append(register_party(uow, SYSTEM, new)["id"])
        uow.commit()
    done, batch = parties, 5000
    while done < events:
        with UnitOfWork(engine) as uow:
            for k in range(min(batch, events - done)):
                j = (done + k) % (parties - 1)
                record_ownership(
                    uow, SYSTEM, RecordOwnership(ids[j + 1], ids[j], (done + k) % 5000, 100)
                )
            uow.commit()
        done += batch
        print(f"  built {min(done, events)}/{events} events", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    engine.dispose()


def child(mode: str, url: str) -> None:
    engine = make_engine(url)
    start = time.perf_counter()
    if mode == "replay":
        count = ledger.replay(engine)
    else:
        report = ledger.verify(engine)
        assert report.ok, report.problems
        count = report.events
    elapsed = time.perf_counter() - start
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"events": count, "seconds": elapsed, "rss_mb": rss_mb}))


def run_child(mode: str, url: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, url],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--child", nargs=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        # Interleaved rounds: the disk's fsync latency drifts, so each ratio compares
        # neighbours in time, and the median ratio is reported.
        rounds, per = 5, max(1, args.appends // 5)
        raws, ourss = [], []
        for k in range(rounds):
            raws.append(raw_sqlite_commits(Path(tmp) / "raw.db", per))
            ourss.append(ledger_appends(f"sqlite:///{tmp}/appends.db", per, k * per))
        ratios = sorted(o / r for o, r in zip(ourss, raws, strict=True))
        raw, ours = sorted(raws)[rounds // 2], sorted(ourss)[rounds // 2]
        rows.append(
            (
                "append (events/s, 1 event + 1 projection per commit)",
                ours,
                "raw sqlite3 commits/s",
                raw,
                ratios[rounds // 2],
                ">= 0.30 (median)",
                ratios[rounds // 2] >= 0.30,
            )
        )
        for n in (1_000, 10_000):
            ours_ms = bulk_commit_ms(f"sqlite:///{tmp}/bulk-{n}.db", n)
            raw_ms = raw_executemany_ms(Path(tmp) / f"raw-bulk-{n}.db", n)
            rows.append(
                (
                    f"commit of one unit of work of {n:,} events (ms)",
                    ours_ms,
                    "raw sqlite3 executemany + commit ms",
                    raw_ms,
                    ours_ms / raw_ms,
                    "reported",
                    True,
                )
            )
        small = args.events // 4
        build_ledger(f"sqlite:///{tmp}/small.db", small)
        build_ledger(f"sqlite:///{tmp}/big.db", args.events)
        r_small = run_child("replay", f"sqlite:///{tmp}/small.db")
        r_big = run_child("replay", f"sqlite:///{tmp}/big.db")
        v_big = run_child("verify", f"sqlite:///{tmp}/big.db")
    replay_rate = r_big["events"] / r_big["seconds"]
    rows.append(
        (
            f"replay (events/s, {args.events:,} events)",
            replay_rate,
            "goal",
            50_000,
            replay_rate / 50_000,
            ">= 1.0",
            replay_rate >= 50_000,
        )
    )
    growth = r_big["rss_mb"] / r_small["rss_mb"]
    rows.append(
        (
            f"replay peak RSS MB ({args.events:,} events)",
            r_big["rss_mb"],
            f"peak RSS MB ({small:,} events)",
            r_small["rss_mb"],
            growth,
            "<= 1.15 (flat)",
            growth <= 1.15,
        )
    )
    verify_rate = v_big["events"] / v_big["seconds"]
    rows.append(
        (
            "verify (events/s, chain + projections)",
            verify_rate,
            "replay events/s",
            replay_rate,
            verify_rate / replay_rate,
            "reported",
            True,
        )
    )
    emit(rows, args.json)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
