"""Where projection handlers write: the database (live) or memory (replay, verify)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Table, bindparam, select
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Executable

from market.adapters.projections.pending import PendingUpdates
from market.adapters.tables import PROJECTION_TABLES, metadata

if TYPE_CHECKING:
    from market.adapters.kept_rows import KeptRows

Row = dict[str, Any]


class Store(Protocol):
    def get(self, table: str, key: str) -> Row | None: ...
    def insert(self, table: str, row: Row) -> None: ...
    def update(self, table: str, key: str, changes: Row) -> None: ...
    def rows(self, table: str, **where: Any) -> list[Row]: ...


def require(store: Store, table: str, key: str) -> Row:
    """The row a handler is about to change; an event naming a missing row cannot be folded."""
    row = store.get(table, key)
    if row is None:
        raise LookupError(f"{table} {key} does not exist")
    return row


def projection_table(name: str) -> Table:
    return metadata.tables[name]


def primary_key(table: Table) -> str:
    return next(iter(table.primary_key.columns)).name


# Statements built once per table (and column set): SQLAlchemy then finds their compiled
# form in its cache without building the statement again.
@cache
def _get_stmt(table: str) -> Executable:
    t = projection_table(table)
    return select(t).where(t.c[primary_key(t)] == bindparam("_key"))


@cache
def _rows_stmt(table: str, columns: tuple[str, ...], nulls: tuple[str, ...]) -> Executable:
    """Rows whose `columns` equal their parameters and whose `nulls` are NULL, by key
    (building `column == value` afresh cost about 120 us a comparison: the halt check's
    one query was 0.9 ms of every trading request)."""
    t = projection_table(table)
    stmt = select(t)
    for column in columns:
        stmt = stmt.where(t.c[column] == bindparam(f"_w_{column}"))
    for column in nulls:
        stmt = stmt.where(t.c[column].is_(None))
    return stmt.order_by(t.c[primary_key(t)])


@cache
def _insert_stmt(table: str) -> Executable:
    return projection_table(table).insert()


@cache
def _update_stmt(table: str, columns: tuple[str, ...]) -> Executable:
    t = projection_table(table)
    values: dict[str, Any] = {c: bindparam(f"_v_{c}") for c in columns}
    return t.update().where(t.c[primary_key(t)] == bindparam("_key")).values(values)


class DbStore:
    """Projection writes on the unit of work's connection: inserts at once; updates of a
    held row held back and merged until something could read them (`pending`), others
    at once.

    Rows this transaction holds, because it wrote them or said so with `remember` (it read
    them under the head lock), are kept as a copy that follows every update: a handler or
    a view asking for one again gets it without a round trip. Nothing else can change such
    a row before commit, so the copy is the row. `holds_lock=True` (the unit of work, which
    holds the ledger head) remembers every row `get` reads, so a rule check, a view and a
    handler asking for the same row in one request read it once."""

    def __init__(
        self,
        conn: Connection,
        *,
        holds_lock: bool = False,
        kept: KeptRows | None = None,
        epoch: int | None = None,
    ) -> None:
        self.conn = conn
        self.holds_lock = holds_lock
        self._held: dict[tuple[str, str], Row] = {}
        # Rows the process keeps between write transactions (market/adapters/kept_rows.py),
        # good at `epoch`, the one read with the head lock this store works under.
        self._kept: tuple[KeptRows, int] | None = None
        if holds_lock and kept is not None and epoch is not None:
            self._kept = (kept, epoch)
        self.wrote_kept = False  # this store wrote a row of the kept table
        self.pending = PendingUpdates()  # market/adapters/projections/pending.py

    def connection(self) -> Connection:
        """The connection, for a statement that may read projection rows: every update
        held back is written first."""
        self.flush()
        return self.conn

    def flush(self) -> None:
        """Write every update held back, one statement a row."""
        if self.pending:
            for table, key, changes in self.pending.take():
                self._update_now(table, key, changes)

    def remember(self, table: str, row: Row) -> None:
        self._held[(table, row[primary_key(projection_table(table))])] = dict(row)

    def remember_read(self, table: str, row: Row) -> None:
        """A row just read from the database, by `get` or a statement of a repository's
        own: under the head lock it is held (`remember`), and a row of the kept table is
        also kept for the process's later write transactions; otherwise nothing."""
        if self.holds_lock:
            self.remember(table, row)
            self._keep(table, row)

    def held(self, table: str, key: str) -> Row | None:
        row = self._held.get((table, key))
        if row is None:
            row = self._kept_row(table, key)
            if row is None:
                return None
            self._held[(table, key)] = row
        return dict(row)

    def get(self, table: str, key: str) -> Row | None:
        held = self.held(table, key)
        if held is not None:
            return held
        found = self.connection().execute(_get_stmt(table), {"_key": key}).mappings().first()
        if found is None:
            return None
        row = dict(found)
        self.remember_read(table, row)
        return row

    def _kept_for(self, table: str) -> tuple[KeptRows, int] | None:
        """The kept rows and their epoch, if `table` is the kept one and they may be used."""
        return self._kept if self._kept is not None and table == self._kept[0].table else None

    def _kept_row(self, table: str, key: str) -> Row | None:
        kept = self._kept_for(table)
        return None if kept is None else kept[0].get(kept[1], key)

    def _keep(self, table: str, row: Row) -> None:
        kept = self._kept_for(table)
        if kept is not None:
            kept[0].keep(kept[1], row[primary_key(projection_table(table))], row)

    def _writes(self, table: str) -> None:
        """A write to the kept table: from here on this transaction neither keeps nor uses
        kept rows (its change moves the epoch only when it commits)."""
        if self._kept_for(table) is not None:
            self._kept = None
            self.wrote_kept = True

    def insert(self, table: str, row: Row) -> None:
        self._writes(table)
        if self.pending.blocks_insert(projection_table(table)):
            self.flush()
        self.conn.execute(_insert_stmt(table), row)
        # every column given: the copy is the row
        if len(row) == len(projection_table(table).columns):
            self.remember(table, row)

    def update(self, table: str, key: str, changes: Row) -> None:
        self._writes(table)
        held = self._held.get((table, key))
        if held is not None and self.holds_lock:
            # The row is held (it exists, and no other writer can change it before
            # commit): the change waits for a reader or the commit (`flush`).
            held.update(changes)
            self.pending.add(table, key, changes)
            return
        self._update_now(table, key, changes)
        if held is not None:
            held.update(changes)

    def _update_now(self, table: str, key: str, changes: Row) -> None:
        params = {f"_v_{c}": v for c, v in changes.items()} | {"_key": key}
        stmt = _update_stmt(table, tuple(sorted(changes)))
        if self.conn.execute(stmt, params).rowcount != 1:
            raise LookupError(f"{table} {key} does not exist")

    def rows(self, table: str, **where: Any) -> list[Row]:
        nulls = tuple(sorted(c for c, v in where.items() if v is None))
        stmt = _rows_stmt(table, tuple(sorted(c for c in where if c not in nulls)), nulls)
        params = {f"_w_{c}": v for c, v in where.items() if v is not None}
        return [dict(r) for r in self.connection().execute(stmt, params).mappings()]


class MemoryStore:
    """Rows by table and key, with the seq of the event that last wrote each row."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Row]] = {name: {} for name in PROJECTION_TABLES}
        self.last_seq: dict[tuple[str, str], int] = {}
        self.seq = 0

    def remember(self, table: str, row: Row) -> None:
        """Every row here is held already (`DbStore.remember` saves a round trip)."""

    def get(self, table: str, key: str) -> Row | None:
        row = self.tables[table].get(key)
        return dict(row) if row is not None else None

    def insert(self, table: str, row: Row) -> None:
        key = row[primary_key(projection_table(table))]
        if key in self.tables[table]:
            raise KeyError(f"{table} {key} already exists")
        self.tables[table][key] = dict(row_defaults(table) | row)
        self.last_seq[(table, key)] = self.seq

    def update(self, table: str, key: str, changes: Row) -> None:
        if key not in self.tables[table]:
            raise LookupError(f"{table} {key} does not exist")
        self.tables[table][key].update(changes)
        self.last_seq[(table, key)] = self.seq

    def rows(self, table: str, **where: Any) -> list[Row]:
        found = [
            dict(r)
            for r in self.tables[table].values()
            if all(r.get(c) == v for c, v in where.items())
        ]
        pk = primary_key(projection_table(table))
        return sorted(found, key=lambda r: r[pk])

    def iter_rows(self, table: str) -> Iterator[Row]:
        yield from self.tables[table].values()


_DEFAULTS: dict[str, Row] = {}


def row_defaults(table: str) -> Row:
    """Column defaults for rows folded in memory, so they compare equal to database rows."""
    if table not in _DEFAULTS:
        values: Row = {}
        for column in projection_table(table).columns:
            default = column.default
            if default is not None and getattr(default, "is_scalar", False):
                values[column.name] = getattr(default, "arg", None)
            else:
                values[column.name] = None
        _DEFAULTS[table] = values
    return _DEFAULTS[table]
