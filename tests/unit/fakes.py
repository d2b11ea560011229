"""A unit of work in memory (cosmicpython `tests/unit/test_handlers.py`'s FakeUnitOfWork):
the same repositories over a `MemoryStore`, the same projection handlers folding each
event as it is appended, and the events kept in a list with their hash chain. Leaving it
without `commit()` puts the store and the events back as they were at `__enter__` (or at
the last `commit()`). The tables are copied once, before the first append after either:
a unit of work that reads only, or commits what it wrote, copies nothing more."""

from __future__ import annotations

import copy
import json
from types import TracebackType
from typing import Any

from sqlalchemy import Engine

from market.adapters import projections
from market.adapters.eventstore import (
    GENESIS_HASH,
    Event,
    canonical_json,
    compute_hash,
    iter_events,
    utcnow_iso,
)
from market.adapters.projections import MemoryStore
from market.domain.events import DomainEvent, upcast
from market.services.kernel.uow import AbstractUnitOfWork


class FakeUnitOfWork(AbstractUnitOfWork):
    def __init__(self) -> None:
        self.store = MemoryStore()
        self.use_store(self.store)
        self.events: list[Event] = []  # every committed event, in seq order
        self.appended = []
        self.committed = False
        self._saved: list[Event] | None = None  # the events at the last save point
        self._tables: dict[str, Any] | None = None  # the tables then, once a write began

    def __enter__(self) -> FakeUnitOfWork:
        self.appended = []
        self.committed = False
        self._saved, self._tables = list(self.events), None
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.rollback()
        self._saved = None

    def append(
        self, stream: str, event: DomainEvent, actor: str, *, new_stream: bool = False
    ) -> Event:
        assert self._saved is not None, "append() outside the unit of work"
        if not isinstance(event, DomainEvent):
            raise TypeError(f"append takes a typed event, not {type(event)!r}")
        if self._tables is None:
            self._tables = copy.deepcopy(self.store.tables)
        type_, payload = event.TYPE, event.to_payload()
        version = 1 + max((e.version for e in self.events if e.stream == stream), default=0)
        assert not new_stream or version == 1, f"stream {stream} exists already"
        seq = len(self.events) + 1
        prev_hash = self.events[-1].hash if self.events else GENESIS_HASH
        recorded_at = utcnow_iso()
        body = json.loads(canonical_json(payload))  # what is hashed is what is stored
        digest = compute_hash(seq, stream, version, type_, body, actor, recorded_at, prev_hash)
        stored = Event(seq, stream, version, type_, body, actor, recorded_at, prev_hash, digest)
        self.store.seq = seq
        # UnitOfWork.append projects the typed event itself, not its stored payload read
        # back: here every event a service builds is checked to read back as itself.
        assert projections.apply(self.store, stored) == event, f"{type_} does not read back"
        self.events.append(stored)
        self.appended.append(stored)
        return stored

    def stream_exists(self, stream: str) -> bool:
        return any(e.stream == stream for e in self.events)

    def commit(self) -> None:
        assert self._saved is not None, "commit() outside the unit of work"
        self._saved, self._tables = list(self.events), None
        self.committed = True

    def rollback(self) -> None:
        if self._saved is not None:
            if self._tables is not None:
                self.store.tables, self._tables = self._tables, None
            self.events = list(self._saved)

    def types(self) -> list[str]:
        """The types of the events committed, in order."""
        return [e.type for e in self.events]


def fake_from_ledger(engine: Engine) -> FakeUnitOfWork:
    """A fake unit of work holding every event of the database's ledger, appended again
    in seq order through its payloads' upcast (as the agreement tests compare them)."""
    fake = FakeUnitOfWork()
    with engine.connect() as conn, fake:
        for e in iter_events(conn):
            fake.append(e.stream, upcast(e.type, e.payload), e.actor)
        fake.commit()
    return fake
