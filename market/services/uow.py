"""The unit of work: one connection, one transaction; leaving without `commit()` rolls back."""

from __future__ import annotations

from contextlib import ExitStack
from types import TracebackType
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection, RootTransaction

from market.adapters import projections
from market.adapters.db import WRITE_OPTION, holds_back_writes, lock_write_mode, write_lock
from market.adapters.eventstore import Event, EventStore
from market.adapters.prepared import Pending, Prepared, run_then_commit
from market.adapters.projections import DbStore


class UnitOfWork:
    """Write transaction. By default it takes the ledger head lock first, so every decision
    made inside it sees the state that its events will be appended to (no lost updates, no
    double spend). Events are projected as they are appended.

    `rows_first=True` is for commands that lock the rows they decide on themselves
    (SELECT ... FOR NO KEY UPDATE, in the order transfer, listing, certificate) and need
    the head only to append: on PostgreSQL the head is then locked at the first append, so
    the reads and checks before it run beside other writers instead of queueing behind
    them. Such a command may rely on anything a head-first command changes (parties,
    ownership, caps) staying put, because the two kinds exclude each other
    (`lock_write_mode`). Commits still happen in seq order. SQLite has one writer at a
    time whatever the mode (BEGIN IMMEDIATE), so there the flag changes nothing."""

    conn: Connection
    store: DbStore
    events: EventStore

    def __init__(self, engine: Engine, *, rows_first: bool = False) -> None:
        self.engine = engine
        self.rows_first = rows_first
        self._tx: RootTransaction | None = None
        self.appended: list[Event] = []

    def __enter__(self) -> UnitOfWork:
        self._locks = ExitStack()
        self._locks.enter_context(write_lock(self.engine))
        try:
            self.conn = self.engine.connect()
        except BaseException:
            self._locks.close()
            raise
        try:
            self.conn.execution_options(**{WRITE_OPTION: True})
            self._tx = self.conn.begin()
            self.events = EventStore(self.conn)
            lock_write_mode(self.conn, rows_first=self.rows_first)
            if not self.rows_first:
                self.events.lock_head()
        except BaseException:
            # __exit__ does not run when __enter__ fails: give back what was taken.
            self._tx = None
            self.conn.close()
            self._locks.close()
            raise
        self.store = DbStore(self.conn, hold_back=holds_back_writes(self.engine))
        self.appended = []
        self._deferred: Pending = []
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        try:
            self.store.close()
            if self._tx is not None and self._tx.is_active:
                self._tx.rollback()
        finally:
            self.conn.close()
            self._tx = None
            self._locks.close()

    def append(
        self,
        stream: str,
        type_: str,
        payload: dict[str, Any],
        actor: str,
        *,
        new_stream: bool = False,
    ) -> Event:
        """`new_stream=True` when the stream is named by an id minted in this unit of work:
        its version is 1 without asking (the unique (stream, version) still guards it)."""
        event = self.events.append(stream, type_, payload, actor, new_stream=new_stream)
        projections.apply(self.store, event)
        self.appended.append(event)
        return event

    def defer(self, statement: Prepared, params: dict[str, Any]) -> None:
        """A write nothing in this unit of work reads back, made at commit with the events
        (an Idempotency-Key's stored answer). Its errors are raised by `commit()`."""
        self._deferred.append((statement, params))

    def commit(self) -> None:
        """Write the events, the ledger head, the held-back and the deferred rows, and
        commit; on PostgreSQL the writes are one statement (`prepared.run_all`)."""
        assert self._tx is not None, "commit() outside the unit of work"
        pending = self.store.take_pending() + self.events.take_pending() + self._deferred
        self._deferred = []
        run_then_commit(self.conn, self._tx, pending)


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
