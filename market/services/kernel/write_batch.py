"""One write transaction that holds the ledger head for one or more units of work.

A `WriteBatch` takes the head lock once (the SQLite write lock or PostgreSQL's row lock
on `ledger_head`), lends its connection to each unit of work in turn, each inside its own
savepoint, and commits once: one fsync for all of them. A unit of work that fails rolls
back to its savepoint alone; the head and the stream versions it had moved are simply not
taken on. A unit taken on leaves its savepoint open (the next nests in it): the batch's
COMMIT commits them all. The first unit may run without a savepoint: if it fails,
`restart()` rolls the transaction back and takes the head again. Nothing of the batch is
visible to anyone, or acknowledged, before `commit()` returns.
"""

from __future__ import annotations

from contextlib import ExitStack
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, Table
from sqlalchemy.engine import Connection, RootTransaction

from market.adapters.db import WRITE_OPTION, statements_sent, write_lock
from market.adapters.eventstore import EventStore, insert_many


class WriteBatch:
    conn: Connection

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._tx: RootTransaction | None = None
        self.units = 0  # units of work taken on (committed to their savepoint)

    def __enter__(self) -> WriteBatch:
        # The connection is taken from the pool before the head is queued for: every
        # other writer waits while the head is held, so nothing that need not be done
        # there is done there (issue 25, item 2).
        self.conn = self.engine.connect()
        self._sent_before = statements_sent(self.conn)
        self._locks = ExitStack()
        try:
            self._locks.enter_context(write_lock(self.engine))
        except BaseException:
            self.conn.close()
            raise
        try:
            self.conn.execution_options(**{WRITE_OPTION: True})
            self._begin()
        except BaseException:
            # __exit__ does not run when __enter__ fails: give back what was taken.
            self._tx = None
            self.conn.close()
            self._locks.close()
            raise
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
            self.conn.close()
            self._tx = None
            self._locks.close()

    def _begin(self) -> None:
        """A new transaction holding the head, with nothing taken on yet."""
        self._wrote_parties = False
        self._rows: dict[Table, list[dict[str, Any]]] = {}
        self._tx = self.conn.begin()
        self._head = EventStore(self.conn)
        self._head.lock_head()

    def restart(self) -> None:
        """Before any unit is taken on: roll back what a failed unit left (it ran without a
        savepoint) and take the head again, in a new transaction, for the units after it."""
        assert self.units == 0, "restart() would lose units taken on"
        self.rollback()
        self._begin()

    @property
    def auth_epoch(self) -> int | None:
        """The auth epoch read with the head lock (None: its row is missing)."""
        return self._head.auth_epoch

    @property
    def party_epoch(self) -> int | None:
        """The party epoch kept party rows are good at in this batch: the one read with
        the head lock, until a unit taken on has written a party (then None)."""
        return None if self._wrote_parties else self._head.party_epoch

    @property
    def statements(self) -> int:
        """The statements this batch has sent so far (read before the connection closes)."""
        return statements_sent(self.conn) - self._sent_before

    def event_store(self) -> EventStore:
        """An event store that goes on from everything this batch has taken on so far."""
        return EventStore(self.conn, self._head.head, dict(self._head.versions))

    def take_on(
        self,
        events: EventStore,
        rows: dict[Table, list[dict[str, Any]]],
        *,
        wrote_parties: bool,
    ) -> None:
        """A unit of work committed in its savepoint: its head and versions are the batch's,
        and `rows` (no unique key another unit could hold) go in with the batch's.
        `wrote_parties`: it wrote a party row, so no later unit uses kept party rows."""
        assert events.head is not None
        self._wrote_parties = self._wrote_parties or wrote_parties
        self._head.adopt(events.head, events.versions)
        for table, more in rows.items():
            self._rows.setdefault(table, []).extend(more)
        self.units += 1

    def commit(self) -> None:
        """Insert the rows kept and commit (the durable write). The head has moved with
        every event the units inserted (the database moves it, migration 0027)."""
        assert self._tx is not None, "commit() outside the batch"
        rows, self._rows = self._rows, {}
        for table, kept in rows.items():
            insert_many(self.conn, table.insert(), kept)
        self._tx.commit()

    def rollback(self) -> None:
        if self._tx is not None and self._tx.is_active:
            self._tx.rollback()
