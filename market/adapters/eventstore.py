"""The append-only, hash-chained event store.

Each event's `hash` is SHA-256 over a canonical JSON encoding of every other field,
`prev_hash` included, so changing any byte of any event breaks the chain from there on.
Appends are serialised by the single `ledger_head` row (locked for the whole write
transaction), which makes commits happen in `seq` order: a reader tailing `seq` can never
see N+1 before N is visible. The database refuses an event that does not follow the last
one (gap-free `seq`, `prev_hash` the hash before it) and moves the head to each event it
inserts (migration 0027), so the writer never moves the head itself."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select
from sqlalchemy.engine import Connection

from market.adapters.event_hash import (  # the chain's hash: used here, read from here
    GENESIS_HASH as GENESIS_HASH,
)
from market.adapters.event_hash import canonical_json as canonical_json
from market.adapters.event_hash import compute_hash as compute_hash
from market.adapters.event_hash import hash_encoded as hash_encoded
from market.adapters.tables import EventRow, LedgerHead
from market.adapters.write_sql import EVENT_COLUMNS as EVENT_COLUMNS
from market.adapters.write_sql import WRITE_SQL
from market.domain.events import VERSION_KEY, DomainEvent, event_types, upcast

events_t = EventRow.__table__  # type: ignore[attr-defined]
head_t = LedgerHead.__table__  # type: ignore[attr-defined]

# Built once: an append reads, for a stream it has not seen, its version.
_STREAM_VERSION = select(func.max(events_t.c.version)).where(
    events_t.c.stream == bindparam("stream")
)

# Rows per INSERT executemany call at commit: bounded memory per call, and far below any
# driver's bind-parameter limit however SQLAlchemy batches them (9 columns a row).
CHUNK = 1000


def insert_many(conn: Connection, stmt: Any, rows: list[dict[str, Any]]) -> None:
    """`stmt` (a Core INSERT, or SQL text for the driver) for every row, CHUNK rows per
    executemany call."""
    for start in range(0, len(rows), CHUNK):
        chunk = rows[start : start + CHUNK]
        if isinstance(stmt, str):
            conn.exec_driver_sql(stmt, chunk if len(chunk) > 1 else chunk[0])
        else:
            conn.execute(stmt, chunk)


def utcnow_iso() -> str:
    """`YYYY-MM-DDTHH:MM:SS.ffffffZ` (what strftime("%Y-%m-%dT%H:%M:%S.%fZ") gives, in a
    third less time: it is taken for every event, key and token check)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")[:-6] + "Z"


@dataclass(frozen=True, slots=True)
class Event:
    seq: int
    stream: str
    version: int
    type: str
    payload: dict[str, Any]
    actor: str
    recorded_at: str
    prev_hash: str
    hash: str

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in EVENT_COLUMNS}

    def typed(self) -> DomainEvent:
        """The stored payload as its event class at the current version (`upcast`)."""
        return upcast(self.type, self.payload)

    def facts(self) -> dict[str, Any]:
        """What the event says, as its current version's payload (without the version):
        what a timeline, a notice or a filter reads. A type no class claims (written by a
        test, or by a newer release) is read as stored."""
        if self.type not in event_types():
            return dict(self.payload)
        facts = self.typed().to_payload()
        facts.pop(VERSION_KEY, None)
        return facts


def event_from_row(row: Any) -> Event:
    return Event(
        seq=row.seq,
        stream=row.stream,
        version=row.version,
        type=row.type,
        payload=row.payload,
        actor=row.actor,
        recorded_at=row.recorded_at,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


class EventStore:
    """Appends within the caller's transaction; the caller holds the head lock.

    The rows are written at commit (`write`), in bulk, with the new head: nothing reads the
    events table inside a write transaction (a stream's version is read once, before its
    first append here, and counted on from there)."""

    def __init__(
        self,
        conn: Connection,
        head: tuple[int, str] | None = None,
        versions: dict[str, int] | None = None,
    ) -> None:
        self.conn = conn
        self.head = head  # `head`, `versions`: a batch's, whose transaction this continues
        self.auth_epoch: int | None = None  # read with the head by lock_head
        self.party_epoch: int | None = None
        self.versions = {} if versions is None else versions
        self._rows: list[dict[str, Any]] = []
        self._sql = WRITE_SQL[conn.dialect.name == "sqlite"]

    def adopt(self, head: tuple[int, str], versions: dict[str, int]) -> None:
        """Take on what a unit of work of this batch appended (its events are in)."""
        self.head = head
        self.versions = versions

    def lock_head(self) -> tuple[int, str]:
        """Lock the head and read it, with the epochs (None if a row is missing)."""
        row = self.conn.exec_driver_sql(self._sql.lock_head).first()
        if row is None:
            row = self.conn.exec_driver_sql(self._sql.lock_head_alone).first()
        if row is None:
            self.conn.execute(head_t.insert().values(id=1, seq=0, hash=GENESIS_HASH))
            self.head = (0, GENESIS_HASH)
            self.auth_epoch = self.party_epoch = None
        else:
            self.head = (row.seq, row.hash)
            self.auth_epoch, self.party_epoch = row.auth_epoch, row.party_epoch
        return self.head

    def note_version(self, stream: str, version: int) -> None:
        """The caller knows the stream's current version from state it holds (the head
        lock); the unique (stream, version) still refuses a wrong guess."""
        self.versions[stream] = version

    def read_versions(self, streams: Iterable[str]) -> None:
        """The versions of these streams not known yet, in grouped queries of CHUNK, for a
        unit of work about to append to many (not a query per stream at its first)."""
        wanted = sorted({s for s in streams if s not in self.versions})
        for start in range(0, len(wanted), CHUNK):
            chunk = wanted[start : start + CHUNK]
            found = dict.fromkeys(chunk, 0)
            rows = self.conn.execute(
                select(events_t.c.stream, func.max(events_t.c.version))
                .where(events_t.c.stream.in_(chunk))
                .group_by(events_t.c.stream)
            ).all()
            found.update({stream: int(version) for stream, version in rows})
            self.versions.update(found)

    def stream_exists(self, stream: str) -> bool:
        """Whether the stream has an event, committed or appended in this transaction."""
        if stream not in self.versions:
            self.versions[stream] = self.stream_version(stream)
        return self.versions[stream] > 0

    def stream_version(self, stream: str) -> int:
        found = self.conn.execute(_STREAM_VERSION, {"stream": stream}).scalar()
        return int(found or 0)

    def append(
        self,
        stream: str,
        type_: str,
        payload: dict[str, Any],
        actor: str,
        *,
        new_stream: bool = False,
    ) -> Event:
        if self.head is None:
            self.lock_head()
        assert self.head is not None
        seq, prev_hash = self.head[0] + 1, self.head[1]
        # The head lock is held, so a version read once stays right for this transaction.
        known = 0 if new_stream else self.versions.get(stream)
        version = (self.stream_version(stream) if known is None else known) + 1
        self.versions[stream] = version
        recorded_at = utcnow_iso()
        # Round-trip through canonical JSON so that what we hash is what we store.
        encoded = canonical_json(payload)
        payload = json.loads(encoded)
        digest = hash_encoded(seq, stream, version, type_, encoded, actor, recorded_at, prev_hash)
        event = Event(seq, stream, version, type_, payload, actor, recorded_at, prev_hash, digest)
        self._rows.append(event.as_dict() | {"payload": encoded})
        self.head = (seq, digest)
        return event

    def peek_rows(self) -> list[dict[str, Any]]:
        """The rows of the events appended and not written yet."""
        return list(self._rows)

    def take_rows(self) -> list[dict[str, Any]]:
        """The same rows, now the caller's to write (nothing is left to `write`)."""
        rows, self._rows = self._rows, []
        return rows

    def write(self) -> None:
        """Insert the appended events, in chunks; the database moves the head with them (it
        is locked until commit: nobody sees it between appends). SQLite: executemany (its
        trigger moves the head a row at a time, in place). PostgreSQL: one INSERT a chunk,
        each column one array (`unnest`), because its trigger moves the head once a
        statement: executemany sends a statement a row, and a row updated once per event
        of a large unit leaves a chain of versions each update walks (100,000 events took
        200 s, not 7); a multi-row VALUES makes the driver parse every placeholder."""
        rows, self._rows = self._rows, []
        many = self._sql.insert_events
        if many is None:
            insert_many(self.conn, self._sql.insert_event, rows)
            return
        for start in range(0, len(rows), CHUNK):
            chunk = rows[start : start + CHUNK]
            self.conn.exec_driver_sql(many, {c: [row[c] for row in chunk] for c in EVENT_COLUMNS})


def iter_events(conn: Connection, after: int = 0, batch: int = 2000) -> Iterator[Event]:
    """All events after `after`, in seq order, in bounded memory."""
    last = after
    while True:
        rows = conn.execute(
            select(events_t).where(events_t.c.seq > last).order_by(events_t.c.seq).limit(batch)
        ).all()
        if not rows:
            return
        for row in rows:
            yield event_from_row(row)
        last = rows[-1].seq


def page_events(conn: Connection, after: int, limit: int, stream: str | None = None) -> list[Event]:
    stmt = select(events_t).where(events_t.c.seq > after)
    if stream is not None:
        stmt = stmt.where(events_t.c.stream == stream)
    rows = conn.execute(stmt.order_by(events_t.c.seq).limit(limit)).all()
    return [event_from_row(r) for r in rows]


def stream_events(conn: Connection, stream: str) -> list[Event]:
    """Every event of one stream, oldest first."""
    stmt = select(events_t).where(events_t.c.stream == stream).order_by(events_t.c.seq)
    return [event_from_row(r) for r in conn.execute(stmt).all()]


def event_count(conn: Connection) -> int:
    return int(conn.execute(select(func.count()).select_from(events_t)).scalar() or 0)


def head(conn: Connection) -> tuple[int, str]:
    row = conn.execute(select(head_t.c.seq, head_t.c.hash).where(head_t.c.id == 1)).one_or_none()
    return (0, GENESIS_HASH) if row is None else (row.seq, row.hash)
