"""Where projection handlers write: the database (live) or memory (replay, verify)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any, Protocol

from sqlalchemy import Table, bindparam, select
from sqlalchemy.engine import Connection

from market.adapters.prepared import (
    Pending,
    Prepared,
    hold_writes,
    insert_row,
    insert_statement,
    release_writes,
    run_all,
)
from market.adapters.tables import PROJECTION_TABLES, metadata

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


def _table(name: str) -> Table:
    return metadata.tables[name]


def _pk(table: Table) -> str:
    return next(iter(table.primary_key.columns)).name


@cache
def _get_stmt(table: str) -> Prepared:
    t = _table(table)
    return Prepared(select(t).where(t.c[_pk(t)] == bindparam("_key")))


@cache
def _update_stmt(table: str, columns: tuple[str, ...]) -> Prepared:
    t = _table(table)
    values: dict[str, Any] = {c: bindparam(f"_v_{c}") for c in columns}
    return Prepared(t.update().where(t.c[_pk(t)] == bindparam("_key")).values(values))


def _update(table: str, key: str, changes: Row) -> tuple[Prepared, Row]:
    """The UPDATE of these columns of one row, and its parameters."""
    stmt = _update_stmt(table, tuple(sorted(changes)))
    return stmt, {f"_v_{c}": v for c, v in changes.items()} | {"_key": key}


class DbStore:
    """Statements are prepared once per table (and column set) and reused.

    Rows this transaction holds, because it wrote them or locked them and said so with
    `remember`, are kept as a copy that follows every update: a handler or a view asking
    for one again gets it without a round trip. Nothing else can change such a row before
    commit, so the copy is the row.

    With `hold_back` (PostgreSQL), writes to rows known to exist (held, or inserted here)
    wait, one per row: a second write to a row queued is folded into the first (an update
    into the insert, or into the update), so the queue never touches a row twice. The
    queue goes out as one statement (`prepared.run_all`) when anything next reads from
    the connection (`prepared.hold_writes`) or at commit (`take_pending`), instead of one
    round trip per write; what the transaction reads is what it wrote, as before. A write
    whose row may be missing runs at once, so "does not exist" is still said where it
    happens. On SQLite, which has no round trips to save, every write runs at once."""

    def __init__(self, conn: Connection, *, hold_back: bool = False) -> None:
        self.conn = conn
        self._held: dict[tuple[str, str], Row] = {}
        self.hold_back = hold_back
        # (table, key) -> (True, the row to INSERT) or (False, the columns to UPDATE)
        self._queued: dict[tuple[str, str], tuple[bool, Row]] = {}
        if hold_back:
            hold_writes(conn, self.flush)

    def close(self) -> None:
        """Forget what is queued (the transaction is over) and stop watching reads."""
        self._queued = {}
        if self.hold_back:
            release_writes(self.conn)

    def remember(self, table: str, row: Row) -> None:
        self._held[(table, row[_pk(_table(table))])] = dict(row)

    def held(self, table: str, key: str) -> Row | None:
        row = self._held.get((table, key))
        return dict(row) if row is not None else None

    def get(self, table: str, key: str) -> Row | None:
        held = self.held(table, key)
        if held is not None:
            return held
        return _get_stmt(table).first(self.conn, {"_key": key})

    def insert(self, table: str, row: Row) -> None:
        t = _table(table)
        slot = (table, row[_pk(t)])
        if self.hold_back:
            if slot in self._queued:  # inserting it twice fails: say so where it happens
                self.flush()
            self._queued[slot] = (True, dict(row))
        else:
            insert_row(self.conn, t, row)
        if len(row) == len(t.columns):  # every column given: the copy is the whole row
            self.remember(table, row)

    def update(self, table: str, key: str, changes: Row) -> None:
        slot = (table, key)
        queued = self._queued.get(slot)
        if queued is not None:
            queued[1].update(changes)
        elif self.hold_back and slot in self._held:
            self._queued[slot] = (False, dict(changes))
        else:
            stmt, params = _update(table, key, changes)
            if stmt.run(self.conn, params) != 1:
                raise LookupError(f"{table} {key} does not exist")
        held = self._held.get(slot)
        if held is not None:
            held.update(changes)

    def take_pending(self) -> Pending:
        """The queued writes as statements, in the order their rows were first written;
        the queue is empty after."""
        queued, self._queued = self._queued, {}
        pending: Pending = []
        for (table, key), (is_insert, values) in queued.items():
            if is_insert:
                pending.append((insert_statement(_table(table), tuple(values)), values))
            else:
                pending.append(_update(table, key, values))
        return pending

    def flush(self) -> None:
        if self._queued:
            run_all(self.conn, self.take_pending())

    def rows(self, table: str, **where: Any) -> list[Row]:
        t = _table(table)
        stmt = select(t)
        for column, value in where.items():
            stmt = stmt.where(t.c[column] == value)
        return [dict(r) for r in self.conn.execute(stmt.order_by(t.c[_pk(t)])).mappings()]


class MemoryStore:
    """Rows by table and key, with the seq of the event that last wrote each row."""

    def __init__(self) -> None:
        self.tables: dict[str, dict[str, Row]] = {name: {} for name in PROJECTION_TABLES}
        self.last_seq: dict[tuple[str, str], int] = {}
        self.seq = 0

    def get(self, table: str, key: str) -> Row | None:
        row = self.tables[table].get(key)
        return dict(row) if row is not None else None

    def insert(self, table: str, row: Row) -> None:
        key = row[_pk(_table(table))]
        if key in self.tables[table]:
            raise KeyError(f"{table} {key} already exists")
        self.tables[table][key] = dict(_defaults(table) | row)
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
        pk = _pk(_table(table))
        return sorted(found, key=lambda r: r[pk])

    def iter_rows(self, table: str) -> Iterator[Row]:
        yield from self.tables[table].values()


_DEFAULTS: dict[str, Row] = {}


def _defaults(table: str) -> Row:
    """Column defaults for rows folded in memory, so they compare equal to database rows."""
    if table not in _DEFAULTS:
        values: Row = {}
        for column in _table(table).columns:
            default = column.default
            if default is not None and getattr(default, "is_scalar", False):
                values[column.name] = getattr(default, "arg", None)
            else:
                values[column.name] = None
        _DEFAULTS[table] = values
    return _DEFAULTS[table]
