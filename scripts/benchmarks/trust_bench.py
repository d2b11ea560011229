"""Trust benchmark: checkpoint cost at two ledger sizes (goal: under 50 ms and independent
of the size), inclusion and consistency proof size and time (log2 n hashes), the
incremental verify rate, and the full checkpoint check rate.

Building a million events through the services takes too long for a benchmark, so the
ledger is generated directly into the events table: a valid hash chain of PARTY_REGISTERED
-like events (the same canonical hash as the event store, so the checks pass), with the
ledger head set. The Merkle tree is then built once (the first build is O(n), a one-off),
and every figure after that is what a running service pays.
Usage: scripts/bench_trust [--sizes 100000,1000000] [--json]
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

from report import emit

from market.adapters import merkle_store
from market.adapters.db import make_engine
from market.adapters.eventstore import GENESIS_HASH, canonical_json, hash_encoded
from market.adapters.migrate import upgrade
from market.services.trust import checkpoints, proofs, trust_recent, trust_verify
from market.services.trust.checkpoints import TrustSettings


def append_chain(path: Path, start: int, count: int) -> None:
    """Events start+1 .. start+count, chained onto the current head, written with sqlite3."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    seq, prev = db.execute("SELECT seq, hash FROM ledger_head WHERE id = 1").fetchone() or (
        0,
        GENESIS_HASH,
    )
    assert seq == start, (seq, start)
    db.execute("BEGIN")
    rows = []
    for s in range(start + 1, start + count + 1):
        payload = canonical_json(
            {"party_id": f"pty_{s:012d}", "name": f"Bench {s}", "tax_id": str(s)}
        )
        at = "2026-12-01T09:00:00.000000Z"
        digest = hash_encoded(s, f"party-{s}", 1, "BENCH_EVENT", payload, "bench", at, prev)
        rows.append((s, f"party-{s}", 1, "BENCH_EVENT", payload, "bench", at, prev, digest))
        prev = digest
        if len(rows) == 20_000:
            db.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?)", rows)
            rows = []
    if rows:
        db.executemany("INSERT INTO events VALUES (?,?,?,?,?,?,?,?,?)", rows)
    db.execute("UPDATE ledger_head SET seq = ?, hash = ? WHERE id = 1", (start + count, prev))
    db.execute("COMMIT")
    db.close()


def ms(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def at_size(n: int, work: Path, rows: list, progress) -> None:  # type: ignore[no-untyped-def]
    path = work / f"ledger-{n}.db"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    t = time.perf_counter()
    append_chain(path, 0, n)
    progress(f"{n:,} events generated in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    merkle_store.extend_all(engine)
    progress(f"first Merkle build over {n:,} events: {time.perf_counter() - t:.1f} s (once)")
    settings = TrustSettings(work / f"key-{n}", work / f"cps-{n}")
    checkpoints.make_checkpoint(engine, settings)
    size = n
    cost: dict[int, float] = {}
    for batch in (1, 100, 1000):
        samples = []
        for _ in range(5):
            append_chain(path, size, batch)
            size += batch
            samples.append(ms(lambda: checkpoints.make_checkpoint(engine, settings), 1))
        cost[batch] = statistics.median(samples)
        goal = {1: 50, 100: 100, 1000: 500}[batch]
        rows.append(
            (
                f"checkpoint at {n:,} events, {batch} new (ms)",
                cost[batch],
                "",
                None,
                None,
                f"< {goal} ms",
                cost[batch] < goal,
            )
        )
    rng = random.Random(n)
    seqs = [rng.randint(1, size) for _ in range(50)]
    lengths = []

    def one_proof() -> None:
        p = proofs.inclusion(engine, seqs[len(lengths) % 50], size)
        lengths.append(len(p["proof"]))

    per_proof = ms(one_proof, 50)
    log2 = size.bit_length()
    rows.append(
        (f"inclusion proof at {size:,} (ms)", per_proof, "", None, None, "< 20 ms", per_proof < 20)
    )
    rows.append(
        (
            f"inclusion proof length at {size:,} (hashes)",
            max(lengths),
            "ceil log2 n",
            log2,
            max(lengths) / log2,
            "<= log2 n",
            max(lengths) <= log2,
        )
    )
    cons = ms(lambda: proofs.consistency(engine, size // 3, size), 20)
    clen = len(proofs.consistency(engine, size // 3, size)["proof"])
    rows.append(
        (
            f"consistency proof {size // 3:,}->{size:,} (ms)",
            cons,
            "",
            None,
            None,
            "< 20 ms",
            cons < 20,
        )
    )
    rows.append(
        (
            "consistency proof length (hashes)",
            clen,
            "2 log2 n",
            2 * log2,
            clen / (2 * log2),
            "<= 2 log2 n",
            clen <= 2 * log2,
        )
    )
    since = 10_000
    append_chain(path, size, since)
    size += since
    t = time.perf_counter()
    report = trust_recent.verify_recent(engine, settings)
    took = time.perf_counter() - t
    assert report["ok"], report
    rate = report["checked_events"] / took
    rows.append(
        (
            f"incremental verify at {size:,}, {since:,} since checkpoint (events/s)",
            rate,
            "",
            None,
            None,
            "> 5k/s",
            rate > 5_000,
        )
    )
    rows.append(
        (
            f"incremental verify request at {size:,} (ms)",
            took * 1000,
            "",
            None,
            None,
            "< 2 s",
            took < 2,
        )
    )
    if n <= 200_000:
        t = time.perf_counter()
        full = trust_verify.check_checkpoints(engine, settings)
        took = time.perf_counter() - t
        assert full.ok, full.problems
        rows.append(
            (
                f"full checkpoint check at {size:,} (events/s)",
                size / took,
                "",
                None,
                None,
                "> 20k/s",
                size / took > 20_000,
            )
        )
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="100000,1000000")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows: list = []

    def progress(msg):
        return print(msg, file=sys.stderr, flush=True)

    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(s) for s in args.sizes.split(",")):
            at_size(n, Path(tmp), rows, progress)
    sizes = [int(s) for s in args.sizes.split(",")]
    if len(sizes) == 2:
        for batch in (1, 100, 1000):
            small, big = (
                next(r[1] for r in rows if r[0] == f"checkpoint at {n:,} events, {batch} new (ms)")
                for n in sizes
            )
            rows.append(
                (
                    f"checkpoint, {batch} new: {sizes[1]:,} vs {sizes[0]:,} events (ms)",
                    big,
                    f"at {sizes[0]:,}",
                    small,
                    big / small,
                    "ratio < 2",
                    big / small < 2,
                )
            )
    emit(rows, args.json)


if __name__ == "__main__":
    main()
