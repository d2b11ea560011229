"""Replay (rebuild the projections from the events) and verify (chain + projections).

Both fold into a `SpillStore` (rows on a temporary file, the recent ones in memory) and
read the events in batches, so their memory stays flat however long the ledger: verify
compares each projection table with the fold a thousand rows at a time, in key order."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters import projections
from market.adapters.eventstore import GENESIS_HASH, Event, compute_hash, head, iter_events
from market.adapters.projections.store import MemoryStore, primary_key, projection_table
from market.adapters.spill_store import SpillStore
from market.adapters.tables import PROJECTION_TABLES

Progress = Callable[[int], None]


class FoldError(Exception):
    def __init__(self, seq: int, cause: Exception) -> None:
        super().__init__(f"seq {seq} cannot be applied: {type(cause).__name__}: {cause}")
        self.seq = seq


BATCH = 1000


def fold(events: Iterator[Event], progress: Progress | None = None, store: Any = None) -> Any:
    """Fold every event into `store` (a new `MemoryStore` by default) and return it; an
    event the projections cannot apply (an unknown type, a reference to something that
    does not exist) raises FoldError naming its seq."""
    if store is None:
        store = MemoryStore()
    for n, event in enumerate(events, 1):
        store.seq = event.seq
        try:
            projections.apply(store, event)
        except (LookupError, KeyError, TypeError, ValueError) as e:
            raise FoldError(event.seq, e) from e
        if progress is not None and n % 1000 == 0:
            progress(1000)
    return store


def replay(conn: Connection, progress: Progress | None = None, batch: int = BATCH) -> int:
    """Rebuild every projection inside the caller's (write) transaction; returns the event
    count. Nothing is deleted until every event has folded."""
    with SpillStore() as store:
        fold(iter_events(conn), progress, store)
        for name in reversed(PROJECTION_TABLES):
            conn.execute(projection_table(name).delete())
        for name in PROJECTION_TABLES:
            rows: list[dict[str, Any]] = []
            for row in store.iter_rows(name):
                rows.append(row)
                if len(rows) == batch:
                    conn.execute(projection_table(name).insert(), rows)
                    rows = []
            if rows:
                conn.execute(projection_table(name).insert(), rows)
        return int(store.seq)


@dataclass
class VerifyReport:
    ok: bool
    events: int
    head_hash: str
    first_bad_seq: int | None = None
    problems: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "events": self.events,
            "head_hash": self.head_hash,
            "first_bad_seq": self.first_bad_seq,
            "problems": self.problems,
        }


def _checked(events: Iterator[Event], report: VerifyReport) -> Iterator[Event]:
    prev_hash, expected_seq = GENESIS_HASH, 1
    for e in events:
        report.events += 1
        digest = compute_hash(
            e.seq, e.stream, e.version, e.type, e.payload, e.actor, e.recorded_at, e.prev_hash
        )
        if report.first_bad_seq is None:
            if e.seq != expected_seq:
                report.problems.append(f"seq {expected_seq} is missing (next is {e.seq})")
                report.first_bad_seq = expected_seq
            elif e.prev_hash != prev_hash:
                report.problems.append(f"seq {e.seq}: prev_hash does not match seq {e.seq - 1}")
                report.first_bad_seq = e.seq
            elif digest != e.hash:
                report.problems.append(f"seq {e.seq}: hash does not match its contents")
                report.first_bad_seq = e.seq
        prev_hash, expected_seq = e.hash, e.seq + 1
        yield e
    report.head_hash = prev_hash


def verify(conn: Connection, progress: Progress | None = None) -> VerifyReport:
    with SpillStore() as store:
        return _verify(conn, store, progress)


def _verify(conn: Connection, store: SpillStore, progress: Progress | None) -> VerifyReport:
    report = VerifyReport(ok=True, events=0, head_hash=GENESIS_HASH)
    checked = _checked(iter_events(conn), report)
    try:
        fold(checked, progress, store)
    except FoldError as e:
        # The chain check goes on to the end; the projections cannot be compared.
        for _ in checked:
            pass
        report.problems.append(str(e))
        if report.first_bad_seq is None or e.seq < report.first_bad_seq:
            report.first_bad_seq = e.seq
        report.ok = False
        return report
    head_seq, head_hash = head(conn)
    if report.first_bad_seq is None and (head_seq, head_hash) != (store.seq, report.head_hash):
        report.problems.append(f"ledger head says seq {head_seq} but the chain ends at {store.seq}")
        report.first_bad_seq = min(head_seq, store.seq) + 1
    _compare_projections(conn, store, report)
    report.ok = not report.problems
    return report


def _compare_projections(conn: Connection, store: SpillStore, report: VerifyReport) -> None:
    """Table by table, the live rows in key order a batch at a time against the fold's;
    then, if the fold has more rows than the table, the first one the table lacks. One
    problem per table at most."""
    for name in PROJECTION_TABLES:
        bad = _first_difference(conn, store, name)
        if bad is None:
            continue
        seq = store.last_seq_of(name, bad)
        where = f" (last written by seq {seq})" if seq else ""
        report.problems.append(f"{name} {bad} differs from the events{where}")
        if report.first_bad_seq is None and seq is not None:
            report.first_bad_seq = seq


def _first_difference(conn: Connection, store: SpillStore, name: str) -> str | None:
    table = projection_table(name)
    pk = primary_key(table)
    key = table.c[pk]
    seen, last = 0, None
    while True:
        stmt = select(table).order_by(key).limit(BATCH)
        if last is not None:
            stmt = stmt.where(key > last)
        live = [dict(r) for r in conn.execute(stmt).mappings()]
        rebuilt = store.rows_for(name, [r[pk] for r in live]) if live else {}
        for row in live:
            if _normal(row) != _normal(rebuilt.get(row[pk])):
                return str(row[pk])
        seen += len(live)
        if len(live) < BATCH:
            break
        last = live[-1][pk]
    if seen == store.count(name):
        return None
    for keys in store.iter_keys(name):
        present = {r[0] for r in conn.execute(select(key).where(key.in_(keys)))}
        missing = [k for k in keys if k not in present]
        if missing:
            return missing[0]
    return None


def _normal(row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {k: (bool(v) if isinstance(v, bool) else v) for k, v in row.items()}
