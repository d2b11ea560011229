"""The unit of work: one connection, one transaction; leaving without `commit()` rolls back."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, Table
from sqlalchemy.engine import Connection, NestedTransaction
from structlog.contextvars import get_contextvars

from market.adapters import append_statement, projections
from market.adapters.eventstore import Event, EventStore, events_t, insert_many
from market.adapters.kept_rows import kept_parties
from market.adapters.projections import DbStore
from market.adapters.projections.store import projection_table
from market.adapters.repositories import Repositories
from market.adapters.tables import RequestTrace
from market.domain.events import DomainEvent
from market.services.kernel.write_batch import WriteBatch

traces_t = RequestTrace.__table__  # type: ignore[attr-defined]
TableRows = dict[Table, list[dict[str, Any]]]


class AbstractUnitOfWork(Repositories, ABC):
    """What a service may do with a unit of work (cosmicpython `unit_of_work.py`): read
    through its repositories (`uow.certificates`, `uow.transfers`, ...), append events,
    commit. `UnitOfWork` runs it on the database; tests/unit/fakes.py's
    `FakeUnitOfWork` in memory, so the service rules run in milliseconds."""

    appended: list[Event]
    # The auth epoch the write transaction read with the ledger head (None: not known);
    # a cached bearer principal is good while it is unchanged (market/api/principals.py).
    auth_epoch: int | None = None

    def __enter__(self) -> AbstractUnitOfWork:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.rollback()

    @abstractmethod
    def append(
        self, stream: str, event: DomainEvent, actor: str, *, new_stream: bool = False
    ) -> Event:
        """Append a typed event and fold it into the projections at once."""

    @abstractmethod
    def stream_exists(self, stream: str) -> bool:
        """Whether the stream has an event (the event store's to say, not a projection's)."""

    @abstractmethod
    def commit(self) -> None: ...

    @abstractmethod
    def rollback(self) -> None: ...

    def note_version(self, stream: str, version: int) -> None:
        """The caller knows a stream's current version from state it holds (the head
        lock): a hint that saves a read (EventStore.note_version)."""

    def read_versions(self, streams: Iterable[str]) -> None:
        """A hint: the unit of work is about to append to each of these streams
        (EventStore.read_versions reads their versions in a few queries)."""


class UnitOfWork(AbstractUnitOfWork):
    """Write transaction, one writer per ledger at a time: it locks the ledger head first
    (SELECT ... FOR UPDATE on PostgreSQL; on SQLite, BEGIN IMMEDIATE has already taken the
    database's write lock), so every decision made inside it sees the state that its
    events will be appended to (no lost updates, no double spend). Events are projected
    as they are appended: new projection rows are inserted at once, a held row's updates
    are held back until something could read them (adapters/projections/pending.py); the
    events and rows given to `insert_at_commit` are inserted in bulk by `commit()`.

    Alone (`UnitOfWork(engine)`) it is a batch of one: it takes the head, and `commit()`
    commits. Given a `WriteBatch` (group commit, kernel/group_commit.py) it runs in a
    savepoint of the batch's transaction: `commit()` leaves the savepoint open (the next
    unit's nests in it) and the batch takes its head on; the batch's own commit makes it
    durable. `savepoint=False` is for a batch's first unit: if it is not taken on, the
    batch rolls back and restarts (`WriteBatch.restart`)."""

    store: DbStore
    events: EventStore

    def __init__(
        self, engine: Engine, batch: WriteBatch | None = None, *, savepoint: bool = True
    ) -> None:
        self.engine = engine
        self._given = batch
        self._savepoint = savepoint
        self._tx: NestedTransaction | None = None
        self.appended: list[Event] = []

    def __enter__(self) -> UnitOfWork:
        self._own: WriteBatch | None = None
        if self._given is None:
            self._own = WriteBatch(self.engine).__enter__()
        self._batch = self._own or self._given
        assert self._batch is not None
        if self._own is None and self._savepoint:
            self._tx = self._batch.conn.begin_nested()
        self.events = self._batch.event_store()
        self.auth_epoch = self._batch.auth_epoch
        self.store = DbStore(
            self._batch.conn,
            holds_lock=True,
            kept=kept_parties(self.engine),
            epoch=self._batch.party_epoch,
        )
        self.use_store(self.store)
        self.appended = []
        self._at_commit: dict[Table, list[dict[str, Any]]] = {}
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.rollback()
        finally:
            self._tx = None
            if self._own is not None:
                self._own.__exit__(exc_type, exc, tb)

    @property
    def conn(self) -> Connection:
        """The transaction's connection, for a statement of the caller's own: the
        projection updates held back (market/adapters/projections/pending.py) are written
        first, so it reads what this unit of work has done."""
        return self.store.connection()

    def append(
        self, stream: str, event: DomainEvent, actor: str, *, new_stream: bool = False
    ) -> Event:
        """Append a typed event (market.domain.events); anything else is refused. What is
        projected is the typed event itself: every class reads back from its stored
        payload as the same event (tests/unit/test_event_round_trip.py proves it for every
        class, and the fake unit of work checks it for every event the services build), so
        the payload this unit of work has just encoded is not decoded again here. A
        payload read from storage (replay, verify, rebuild) still goes through `upcast`.

        `new_stream=True` when the stream is named by an id minted in this unit of work:
        its version is 1 without asking (the unique (stream, version) still guards it)."""
        if not isinstance(event, DomainEvent):
            raise TypeError(
                f"uow.append takes a typed event (market.domain.events), not {type(event)!r}"
            )
        stored = self.events.append(
            stream, event.TYPE, event.to_payload(), actor, new_stream=new_stream
        )
        projections.apply_typed(self.store, stored.seq, event)
        self.appended.append(stored)
        return stored

    def note_version(self, stream: str, version: int) -> None:
        self.events.note_version(stream, version)

    def read_versions(self, streams: Iterable[str]) -> None:
        self.events.read_versions(streams)

    def rollback(self) -> None:
        if self._tx is not None and self._tx.is_active:
            self._tx.rollback()
        elif self._own is not None:
            self._own.rollback()

    def insert_at_commit(self, table: Table, row: dict[str, Any]) -> None:
        """A row nothing in this unit of work reads back (an Idempotency-Key's stored
        answer), inserted by `commit()` with the events. Its errors are raised there."""
        self._at_commit.setdefault(table, []).append(row)

    def stream_exists(self, stream: str) -> bool:
        return self.events.stream_exists(stream)

    def commit(self) -> None:
        """Insert the events (the database moves the head with them) and the rows kept for
        commit, and hand the new head to the batch, which commits: all while the head is
        locked."""
        assert self._batch is not None, "commit() outside the unit of work"
        at_commit, self._at_commit = self._at_commit, {}
        request_id = get_contextvars().get("request_id")
        # Which request committed these events, for the worker's log lines.
        traces = [{"seq": e.seq, "request_id": request_id} for e in self.appended]
        later = {traces_t: traces} if request_id and traces else {}
        conn = self._batch.conn
        if conn.dialect.name == "postgresql" and self._write_in_one(conn, at_commit, later):
            later = {}
        else:
            self.store.flush()
            self.events.write()
            for table, rows in at_commit.items():
                insert_many(conn, table.insert(), rows)
        # The savepoint is not released (one statement fewer a unit): a later unit's
        # rolls back to its own, inside this one, and the batch's COMMIT commits them all
        # (SQLAlchemy's root commit ends the savepoints still open, sending nothing).
        self._tx = None
        # Traces not written yet go in with every other unit's, once this unit is in.
        self._batch.take_on(self.events, later, wrote_parties=self.store.wrote_kept)
        if self._own is not None:
            self._own.commit()

    def _write_in_one(self, conn: Connection, at_commit: TableRows, traces: TableRows) -> bool:
        """PostgreSQL: the projection updates held back made, the events, the rows kept and
        the traces inserted in one statement (adapters/append_statement.py), the head moved
        by its trigger; False if they do not fit in one."""
        rows = {events_t: self.events.peek_rows(), **at_commit}
        for table, more in traces.items():
            rows[table] = rows.get(table, []) + more
        updates = [(projection_table(t), k, c) for t, k, c in self.store.pending.peek()]
        if not append_statement.fits(rows, updates):
            return False
        self.events.take_rows()
        self.store.pending.take()
        append_statement.write_all(conn, rows, updates)
        return True


class ReadOnly:
    """A plain read transaction for queries (no ledger lock)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def __enter__(self) -> Connection:
        self.conn = self.engine.connect()
        return self.conn

    def __exit__(self, *exc: object) -> None:
        self.conn.rollback()
        self.conn.close()
