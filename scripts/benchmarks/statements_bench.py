"""Statements per write request, counted in process (the Flask test client, one request
at a time, so every unit of work is a batch of one: the worst case for group commit),
each sent with its own Idempotency-Key as clients send them.

For each step of a negotiated transfer (create, the buyer's confirm, the Authority's
approval) at steady state: the SQL statements the request sent (every cursor execute,
BEGIN, SAVEPOINT and RELEASE included; an executemany counts once), and the commits.
The sign-in that issues the tokens is not counted. The bytes each request's commit adds
to the write-ahead log (what the fsync writes), and on SQLite the pages they are.

A fresh database's few index pages are shared by every commit, so its WAL pages say
little of a ledger in use: `--grow N` makes N sales (uncounted) first, so each index is
many pages wide and an insert at a random key dirties a page of its own. The pages each
commit wrote are also given by B-tree (table or index), read from the WAL's frames.

Usage: scripts/bench_statements [--backend sqlite|postgresql|both] [--requests N] [--json]
    [--show]  (print the SQL of one counted request of each step)  [--grow N]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sqlite3
import struct
import tempfile
from collections import Counter
from typing import Any

from http_bench import with_database
from http_setup import prepare
from sqlalchemy import create_engine, event

from market import create_app
from market.services.kernel import clock

ERA = "2013-06-30"
STEPS = ("create", "confirm", "approve")


def count(url: str, requests: int, show: bool = False, grow: int = 0) -> dict[str, Any]:
    setup = prepare(url)
    app = create_app(
        {"DATABASE_URL": url, "SECRET_KEY": "bench", "TESTING": True, "MARKET_TODAY": ERA}
    )
    engine = app.extensions["market.engine"]
    client = app.test_client()

    def bearer(email: str) -> dict[str, str]:
        r = client.post("/api/v1/auth/token", json={"email": email, "password": "bench-password"})
        return {"Authorization": f"Bearer {r.get_json()['token']}"}

    seller, buyer, eda = (bearer(f"bench-{who}@x.org") for who in ("seller", "buyer", "eda"))
    statements: Counter[str] = Counter()
    commits: Counter[str] = Counter()
    step = {"now": ""}

    shown: set[str] = set()

    @event.listens_for(engine, "before_cursor_execute")
    def _sql(_conn: Any, _cursor: Any, sql: str, *_: Any) -> None:
        statements[step["now"]] += 1
        if show and step["now"] and step["now"] not in shown:
            print(f"  {step['now']}: {' '.join(sql.split())[:160]}")

    @event.listens_for(engine, "commit")
    def _commit(*_: Any) -> None:
        commits[step["now"]] += 1

    body = {
        "certificate_id": setup["certificate_ids"][0],
        "buyer_party_id": setup["buyer"],
        "amount_cents": 100_000,
        "consideration_cents": 80_000,
    }
    written: Counter[str] = Counter()  # WAL bytes
    wal = WalMeter(url)
    keys = itertools.count()

    def timed(name: str, counting: bool, path: str, sent: Any, headers: Any) -> Any:
        step["now"] = name if counting else ""
        before = wal.position()
        keyed = {**headers, "Idempotency-Key": f"{name}-{next(keys)}"}  # as clients send
        answer = client.post(path, json=sent, headers=keyed)
        written[step["now"]] += wal.position() - before
        if counting:
            shown.add(name)
        step["now"] = ""
        return answer

    uncounted = 5 + grow  # the first five warm the caches; `grow` more fill the indexes
    for n in range(requests + uncounted):
        counting = n >= uncounted
        if n == uncounted:
            wal.truncate()
        made = timed("create", counting, "/api/v1/transfers", body, seller)
        assert made.status_code == 201, made.get_json()
        tid = made.get_json()["id"]
        done = timed("confirm", counting, f"/api/v1/transfers/{tid}/confirm", {}, buyer)
        assert done.status_code == 200, done.get_json()
        done = timed("approve", counting, f"/api/v1/transfers/{tid}/approve", {}, eda)
        assert done.get_json()["status"] == "approved", done.get_json()
    trees = wal.pages_by_tree() if wal.path else None  # before the last close checkpoints
    engine.dispose()
    wal.close()
    found: dict[str, Any] = {
        s: {
            "statements": statements[s] / requests,
            "commits": commits[s] / requests,
            "wal_bytes": written[s] / requests,
            "wal_pages": written[s] / requests / (wal.page + 24) if wal.path else None,
        }
        for s in STEPS
    }
    if trees is not None:
        found["pages_by_tree"] = trees
    return found


class WalMeter:
    """What a commit appends to the WAL. SQLite: its frames (each a page and a 24-byte
    header, after a 32-byte file header), read from the -wal file's size. From `truncate()`
    on, a reader holds the snapshot of that moment, so no checkpoint can restart the WAL
    while it is read (a checkpoint may not copy frames past an open reader's snapshot).
    PostgreSQL: the server's WAL insert position, read before and after."""

    def __init__(self, url: str) -> None:
        self.path = url.removeprefix("sqlite:///") + "-wal" if url.startswith("sqlite") else ""
        self.pg = None if self.path else create_engine(url, isolation_level="AUTOCOMMIT")
        self.page = 0
        if self.path:
            with sqlite3.connect(self.path[:-4]) as conn:
                self.page = int(conn.execute("PRAGMA page_size").fetchone()[0])

    def truncate(self) -> None:
        if self.path:
            with sqlite3.connect(self.path[:-4]) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self.reader = sqlite3.connect(self.path[:-4], isolation_level=None)
            self.reader.execute("BEGIN")
            self.reader.execute("SELECT seq FROM ledger_head").fetchall()

    def pages_by_tree(self) -> dict[str, float]:
        """The pages a commit wrote, by the table or index (B-tree) each belongs to (the
        `dbstat` table's names; `sqlite_schema` is page 1, whose header a commit that grows
        the file rewrites), averaged over the commits in the WAL since `truncate()`."""
        with open(self.path, "rb") as wal, sqlite3.connect(self.path[:-4]) as conn:
            data = wal.read()
            names = dict(conn.execute("SELECT pageno, name FROM dbstat"))
        self.reader.close()
        written: Counter[str] = Counter()
        pages: set[int] = set()
        commits = 0
        for at in range(32, len(data) - 23, self.page + 24):
            number, size_after_commit = struct.unpack(">II", data[at : at + 8])
            pages.add(number)
            if size_after_commit:  # a commit's last frame
                written.update(names.get(p, "(free)") for p in pages)
                pages, commits = set(), commits + 1
        return {name: n / max(commits, 1) for name, n in written.most_common()}

    def position(self) -> int:
        """Bytes written to the WAL so far (SQLite: since `truncate()`, its file header
        left out; PostgreSQL: its insert position, which counts the full-page image a
        page's first change after a checkpoint writes)."""
        if self.pg is not None:
            with self.pg.connect() as conn:
                lsn = conn.exec_driver_sql("SELECT pg_current_wal_insert_lsn() - '0/0'")
                return int(lsn.scalar_one())
        if not os.path.exists(self.path):
            return 0
        return max(os.path.getsize(self.path) - 32, 0)

    def close(self) -> None:
        if self.pg is not None:
            self.pg.dispose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show", action="store_true", help="print one request's SQL a step")
    parser.add_argument(
        "--grow", type=int, default=0, help="sales before counting (a used ledger's indexes)"
    )
    args = parser.parse_args()
    clock.configure(ERA)
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in backends:
            results[backend] = with_database(
                backend, tmp, lambda u: count(u, args.requests, args.show, args.grow)
            )
    lines = [
        "| database | step | statements | commits | WAL bytes | WAL pages |",
        "|---|---|---|---|---|---|",
    ]
    for backend, steps in results.items():
        for s in STEPS:
            f = steps[s]
            pages = "" if f["wal_pages"] is None else f"{f['wal_pages']:.1f}"
            lines.append(
                f"| {backend} | {s} | {f['statements']:.1f} | {f['commits']:.1f}"
                f" | {f['wal_bytes']:,.0f} | {pages} |"
            )
    for backend, steps in results.items():
        if steps.get("pages_by_tree"):
            lines.append(f"\n{backend}: pages a commit wrote, by B-tree")
            lines += [f"  {name:40s} {n:5.2f}" for name, n in steps["pages_by_tree"].items()]
    print(json.dumps(results) if args.json else "\n".join(lines))


if __name__ == "__main__":
    main()
