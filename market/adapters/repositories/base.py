"""What every repository is: typed reads of one aggregate's projection rows, through the
unit of work's store (a `DbStore` live, a `MemoryStore` in a fake unit of work).

The reads a rule needs are written once over `Store.get` and `Store.rows`, so the same
code answers over both stores; a read that aggregates many rows has an SQL version on a
`Sql...` subclass (the same answer, asserted by tests/integration/test_repositories.py)."""

from __future__ import annotations

from typing import Any, Protocol

from sqlalchemy.engine import Connection

from market.adapters.projections.store import DbStore, Row, Store
from market.adapters.queries import Query


class HoldingStore(Store, Protocol):
    def remember(self, table: str, row: Row) -> None: ...


class Repository:
    """Rows of one table by primary key, and by equal columns."""

    table: str

    def __init__(self, store: HoldingStore) -> None:
        self.store = store

    def get(self, key: str) -> Row | None:
        return self.store.get(self.table, key)

    def where(self, **columns: Any) -> list[Row]:
        """Rows whose columns equal these values, in primary key order."""
        return self.store.rows(self.table, **columns)

    def remember(self, row: Row) -> None:
        """The unit of work holds this row (it read it under the ledger head): asking for
        it again needs no round trip, and it follows this transaction's updates."""
        self.store.remember(self.table, row)


class SqlMixin:
    """A repository whose aggregates run as SQL on the store's connection."""

    store: HoldingStore
    table: str

    @property
    def db(self) -> DbStore:
        assert isinstance(self.store, DbStore), "SQL repositories need the database store"
        return self.store

    @property
    def conn(self) -> Connection:
        return self.db.connection()  # with the store's held-back updates written

    def joined(self, query: Query, key: str) -> list[Row] | None:
        """The rows of `query` (a join on this table's row `id`) for the row `key`, in one
        statement, after the store's held-back updates are written; None when the unit of
        work holds that row already: the caller reads it through the store then, which
        follows the unit's updates. Each row the caller takes from them goes to
        `self.db.remember_read`, as one `get` read would."""
        if self.db.held(self.table, key) is not None:
            return None
        return query.rows(self.conn, {"id": key})
