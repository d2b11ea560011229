"""Hot statements compiled once per dialect and run on the connection's DBAPI cursor.

SQLAlchemy's `Connection.execute` costs 60 to 120 microseconds of CPU per statement on
top of the driver, even for a statement object it has compiled and cached (execution
context, events, result metadata, psycopg's `cursor.description`): more than SQLite's own
work on these one-row statements, and a fifth of a write request's CPU. A `Prepared`
statement keeps SQLAlchemy for what it is good at (the SQL text per dialect, bind and
result type processing: JSON, booleans) and skips the rest:

- compiled once per dialect, with the same bind processors (JSON serialisation, psycopg's
  `Json` wrapper) and result processors (JSON and booleans on SQLite) SQLAlchemy applies;
- run on the DBAPI cursor of the caller's `Connection`, inside its transaction (begun as
  SQLAlchemy's autobegin would begin it), so it mixes freely with ordinary statements;
- a driver error goes through SQLAlchemy's own handler: the caller sees the same
  `IntegrityError` / `OperationalError` / `DBAPIError` (with `orig.sqlstate`), and a
  dropped connection is invalidated as usual;
- with `echo` on, or a cursor event listener on the engine, it runs through
  `Connection.execute` instead, so logging and instrumentation still see every statement;
- psycopg: each statement keeps a cursor per DBAPI connection: a cursor executing the
  query it executed last reuses its parsed query and parameter dumpers (20 of the 70
  microseconds a one-row statement costs); results are read before the call returns.

Rows come back as plain dicts keyed as `.mappings()` would key them.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

from sqlalchemy import Table
from sqlalchemy.engine import Connection, Dialect, Engine, RootTransaction
from sqlalchemy.sql import Executable

Row = dict[str, Any]
_Processor = Callable[[Any], Any] | None

# Drivers whose cursors are worth keeping (see the module docstring). sqlite3 caches
# its statements per connection whatever the cursor, and a new cursor costs nothing.
_REUSED_CURSORS = frozenset({"psycopg"})
_CURSOR_KEY = "market.prepared.cursor"


class _NotPlain(Exception):
    """A statement that needs SQLAlchemy at execution time (Python-side defaults,
    RETURNING, expanding parameters): it always runs through `Connection.execute`."""


def _kept_cursor(proxied: Any, owner: object, make: Callable[[Any], Any]) -> Any:
    """The cursor `owner` (a statement or a batch) keeps on this pooled DBAPI connection,
    made by `make(dbapi_connection)` the first time or after it was closed: a psycopg
    cursor executing the query it executed last reuses its parsed query."""
    dbapi = proxied.dbapi_connection
    kept = proxied.info.get(_CURSOR_KEY)
    if kept is None or kept[0] is not dbapi:
        kept = proxied.info[_CURSOR_KEY] = (dbapi, {})
    cursor = kept[1].get(owner)
    if cursor is None or cursor.closed:
        cursor = kept[1][owner] = make(dbapi)
    return cursor


def _execute_on(
    conn: Connection, sql: str, args: Callable[[], Any], cursor: Callable[[Any], Any]
) -> Any:
    """Run `sql` on a DBAPI cursor of `conn`, inside its transaction (begun as SQLAlchemy's
    autobegin would begin it); a driver error goes through SQLAlchemy's own handler."""
    c = cast(Any, conn)
    if not conn.in_transaction():
        c._autobegin()
    found = given = None
    try:
        given = args()
        found = cursor(c.connection)
        found.execute(sql, given)
    except Exception as exc:
        c._handle_dbapi_exception(exc, sql, given, found, None)
    return found


class _Plan:
    """One statement compiled for one dialect."""

    __slots__ = (
        "binds",
        "defaults",
        "keys",
        "named",
        "order",
        "result_procs",
        "reuse_cursor",
        "sql",
        "types",
    )

    def __init__(self, stmt: Executable, dialect: Dialect, column_keys: Sequence[str] | None):
        compiled = cast(Any, stmt).compile(
            dialect=dialect, column_keys=list(column_keys) if column_keys is not None else None
        )
        if (
            compiled.literal_execute_params
            or compiled.post_compile_params
            or getattr(compiled, "insert_prefetch", None)
            or getattr(compiled, "update_prefetch", None)
            or getattr(compiled, "effective_returning", None)
        ):
            raise _NotPlain
        self.sql: str = compiled.string
        self.reuse_cursor = dialect.driver in _REUSED_CURSORS
        escaped = compiled.escaped_bind_names or {}
        # Values the statement carries itself (`id == 1`); a required one missing from
        # the caller's parameters fails as a KeyError, wrapped like SQLAlchemy's refusal.
        required = {name for param, name in compiled.bind_names.items() if param.required}
        self.defaults: dict[str, Any] = {
            name: value
            for name, value in compiled.construct_params(escape_names=False, _check=False).items()
            if name not in required
        }
        self.binds: dict[str, _Processor] = {
            name: param.type.dialect_impl(dialect).bind_processor(dialect)
            for param, name in compiled.bind_names.items()
        }
        self.named = not dialect.positional
        names = list(compiled.positiontup or []) if dialect.positional else list(self.binds)
        # (parameter name, name the driver expects)
        self.order: list[tuple[str, str]] = [(n, escaped.get(n, n)) for n in names]
        entries = getattr(compiled, "_result_columns", None) or []
        self.keys: list[str] = [e.keyname for e in entries]
        self.types: list[Any] = [e.type for e in entries]
        self.result_procs: list[_Processor] | None = None

    def args(self, params: Mapping[str, Any] | None) -> Any:
        values = self.defaults | dict(params) if params else self.defaults
        binds = self.binds
        if self.named:
            out: dict[str, Any] = {}
            for name, key in self.order:
                proc, value = binds.get(name), values[name]
                out[key] = proc(value) if proc is not None else value
            return out
        ordered = []
        for name, _ in self.order:
            proc, value = binds.get(name), values[name]
            ordered.append(proc(value) if proc is not None else value)
        return tuple(ordered)

    def processors(self, dialect: Dialect, cursor: Any) -> list[_Processor]:
        """Result processors, from the first result's column types (the same every time:
        psycopg builds `cursor.description` anew on each access, so it is read once). A
        textual statement is keyed by the names the driver gives, unprocessed."""
        if self.result_procs is None:
            description = cursor.description or ()
            if not self.types:
                self.keys = [d[0] for d in description]
                self.types = [None] * len(description)
            self.result_procs = [
                t.dialect_impl(dialect).result_processor(dialect, d[1]) if t is not None else None
                for t, d in zip(self.types, description, strict=True)
            ]
        return self.result_procs

    def row(self, dialect: Dialect, cursor: Any, found: Sequence[Any]) -> Row:
        procs = self.processors(dialect, cursor)
        return {
            k: (p(v) if p is not None else v)
            for k, p, v in zip(self.keys, procs, found, strict=True)
        }

    def cursor(self, proxied: Any) -> Any:
        """A cursor on the pooled connection: this statement's own (psycopg) or a new one."""
        if not self.reuse_cursor:
            return proxied.dbapi_connection.cursor()
        return _kept_cursor(proxied, self, lambda dbapi: dbapi.cursor())

    def release(self, cursor: Any) -> None:
        if not self.reuse_cursor:
            cursor.close()


def bypassed(conn: Connection) -> bool:
    """Statements are logged (`echo`) or instrumented: let SQLAlchemy run them. Checked
    as SQLAlchemy checks it (the engine's listeners unless the connection has its own:
    `conn.dispatch` is built anew for every connection, the engine's is not)."""
    c = cast(Any, conn)
    if c._echo:
        return True
    if not (c._has_events or conn.engine._has_events):
        return False
    return _instrumented(conn.dispatch if c._has_events else conn.engine.dispatch)


def _instrumented(events: Any) -> bool:
    return bool(events.before_cursor_execute or events.after_cursor_execute)


_GUARD = threading.Lock()


class Prepared:
    """A statement run through the DBAPI cursor; see the module docstring."""

    def __init__(self, stmt: Executable, column_keys: Sequence[str] | None = None) -> None:
        self.stmt = stmt
        self.column_keys = column_keys
        self._plans: weakref.WeakKeyDictionary[Dialect, _Plan | None] = weakref.WeakKeyDictionary()

    def _plan(self, dialect: Dialect) -> _Plan | None:
        try:
            return self._plans[dialect]
        except KeyError:
            pass
        try:
            plan: _Plan | None = _Plan(self.stmt, dialect, self.column_keys)
        except _NotPlain:
            plan = None
        with _GUARD:
            self._plans[dialect] = plan
        return plan

    def _usable(self, conn: Connection) -> _Plan | None:
        """The plan to run on `conn`, or None to run the statement through SQLAlchemy."""
        return None if bypassed(conn) else self._plan(conn.dialect)

    def _execute(self, plan: _Plan, conn: Connection, params: Mapping[str, Any] | None) -> Any:
        send_held_writes(conn)
        return _execute_on(conn, plan.sql, lambda: plan.args(params), plan.cursor)

    def _sqlalchemy(self, conn: Connection, params: Mapping[str, Any] | None) -> Any:
        return conn.execute(cast(Any, self.stmt), dict(params) if params else None)

    def rows(self, conn: Connection, params: Mapping[str, Any] | None = None) -> list[Row]:
        plan = self._usable(conn)
        if plan is None:
            return [dict(r) for r in self._sqlalchemy(conn, params).mappings()]
        cursor = self._execute(plan, conn, params)
        try:
            found = cursor.fetchall()
            return [plan.row(conn.dialect, cursor, r) for r in found]
        finally:
            plan.release(cursor)

    def first(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Row | None:
        """The first row (the statements this is for find one row or none)."""
        plan = self._usable(conn)
        if plan is None:
            row = self._sqlalchemy(conn, params).mappings().first()
            return dict(row) if row is not None else None
        cursor = self._execute(plan, conn, params)
        try:
            found = cursor.fetchone()
            return None if found is None else plan.row(conn.dialect, cursor, found)
        finally:
            plan.release(cursor)

    def scalar(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Any:
        row = self.first(conn, params)
        return None if row is None else next(iter(row.values()))

    def run(self, conn: Connection, params: Mapping[str, Any] | None = None) -> int:
        """Execute a statement whose rows, if any, are not wanted; the rows it changed."""
        plan = self._usable(conn)
        if plan is None:
            return int(self._sqlalchemy(conn, params).rowcount)
        cursor = self._execute(plan, conn, params)
        try:
            return int(cursor.rowcount)
        finally:
            plan.release(cursor)

    def first_autocommit(
        self, engine: Engine, params: Mapping[str, Any] | None = None
    ) -> Row | None:
        """The first row, read on a pooled DBAPI connection outside any transaction: one
        statement that needs no snapshot shared with another (a bearer token's owner). On
        PostgreSQL that is one round trip instead of BEGIN, SELECT and ROLLBACK; on SQLite
        (already in autocommit, see market.adapters.db) it is a SELECT without BEGIN."""
        dialect = engine.dialect
        plan = self._plan(dialect)
        if plan is None or engine._should_log_info() or _instrumented(engine.dispatch):
            with engine.connect() as conn:
                if dialect.name != "sqlite":
                    conn = conn.execution_options(isolation_level="AUTOCOMMIT")
                return self.first(conn, params)
        proxied = engine.raw_connection()
        dbapi: Any = proxied.dbapi_connection
        cursor = None
        args: Any = None
        try:
            autocommit = getattr(dbapi, "autocommit", True)
            if autocommit is False:
                dbapi.autocommit = True
            try:
                args = plan.args(params)
                cursor = plan.cursor(proxied)
                cursor.execute(plan.sql, args)
                found = cursor.fetchone()
                row = None if found is None else plan.row(dialect, cursor, found)
                plan.release(cursor)
            finally:
                if autocommit is False and proxied.is_valid:
                    dbapi.autocommit = False
        except Exception as exc:
            disconnected = isinstance(exc, dialect.loaded_dbapi.Error) and dialect.is_disconnect(
                exc, dbapi, cursor
            )
            if disconnected:
                proxied.invalidate(exc)
            proxied.close()
            cast(Any, Connection)._handle_dbapi_exception_noconnection(
                exc, dialect, engine, is_disconnect=disconnected
            )
        proxied.close()
        return row


Pending = list[tuple["Prepared", Mapping[str, Any]]]

_PLACEHOLDER = re.compile(r"%\(([^)]+)\)s")


class _Batch:
    """Several INSERT/UPDATE statements as one PostgreSQL statement: all but the last as
    data-modifying WITH queries (`WITH w0 AS (INSERT ...), w1 AS (...) UPDATE ...`).
    PostgreSQL runs every part, on one snapshot: the parts must not touch the same row
    (the caller's contract). A batch is kept per sequence of plans, so its SQL text is the
    same each time and psycopg prepares it on the server like any other statement.

    Its parameters are numbered (`$1`, `$2`, ...) and it runs on a psycopg `RawCursor`:
    psycopg re-parses a named-parameter query of more than 50 parameters or 4 KB on every
    execution (it caches only smaller ones), which cost 270 microseconds per batch of 80
    parameters against 70 for the numbered one."""

    __slots__ = ("plans", "slots", "sql")

    def __init__(self, plans: tuple[_Plan, ...]) -> None:
        self.plans = plans
        # (plan index, the plan's driver-side parameter name), in $n order
        self.slots: list[tuple[int, str]] = []
        numbered: dict[tuple[int, str], int] = {}
        parts = []
        for i, plan in enumerate(plans):

            def number(m: re.Match[str], i: int = i) -> str:
                slot = (i, m.group(1))
                if slot not in numbered:
                    self.slots.append(slot)
                    numbered[slot] = len(self.slots)
                return f"${numbered[slot]}"

            parts.append(_PLACEHOLDER.sub(number, plan.sql).replace("%%", "%"))
        withs = ", ".join(f"w{i} AS ({part})" for i, part in enumerate(parts[:-1]))
        self.sql = f"WITH {withs} {parts[-1]}"

    def args(self, pending: Pending) -> list[Any]:
        given = [plan.args(params) for plan, (_, params) in zip(self.plans, pending, strict=True)]
        return [given[i][name] for i, name in self.slots]

    def cursor(self, proxied: Any) -> Any:
        """This batch's own RawCursor on the pooled connection."""
        from psycopg import RawCursor

        return _kept_cursor(proxied, self, RawCursor)


_BATCHES: dict[tuple[_Plan, ...], _Batch] = {}


def _batch(conn: Connection, pending: Pending) -> _Batch | None:
    """The one statement `pending` can run as, or None: only on psycopg (PostgreSQL's
    data-modifying WITH, named parameters to number), for plain INSERT and UPDATE."""
    if len(pending) < 2 or conn.dialect.driver != "psycopg" or bypassed(conn):
        return None
    plans = tuple(prepared._plan(conn.dialect) for prepared, _ in pending)
    if any(p is None or not p.named or not p.sql.startswith(("INSERT", "UPDATE")) for p in plans):
        return None
    key = cast(tuple[_Plan, ...], plans)
    found = _BATCHES.get(key)
    if found is None:
        with _GUARD:
            found = _BATCHES.setdefault(key, _Batch(key))
    return found


def run_all(conn: Connection, pending: Pending) -> None:
    """Run writes whose results nobody reads (the events, the ledger head, an
    Idempotency-Key's answer, rows a unit of work held back). On PostgreSQL they go as one
    statement (`_Batch`): one round trip, one execution, instead of one of each per row.
    The writes must touch distinct rows. An error in any part (a unique violation) fails
    the whole statement, so nothing is written, and reaches the caller as from any
    statement. Elsewhere they run one by one."""
    batch = _batch(conn, pending)
    if batch is None:
        for prepared, params in pending:
            prepared.run(conn, params)
    else:
        _execute_on(conn, batch.sql, lambda: batch.args(pending), batch.cursor)


def run_then_commit(conn: Connection, tx: RootTransaction, pending: Pending) -> None:
    """`run_all`, then commit, while the ledger head is still locked."""
    run_all(conn, pending)
    tx.commit()


# Connections whose unit of work holds writes back (DbStore): id(connection) -> the
# function that sends them. Anything about to read on that connection calls it first
# (`Prepared._execute`, and SQLAlchemy's `before_execute` for PostgreSQL engines), so a
# transaction always reads what it wrote.
_HELD_BACK: dict[int, Callable[[], None]] = {}


def hold_writes(conn: Connection, flush: Callable[[], None]) -> None:
    _HELD_BACK[id(conn)] = flush


def release_writes(conn: Connection) -> None:
    _HELD_BACK.pop(id(conn), None)


def send_held_writes(conn: Connection) -> None:
    flush = _HELD_BACK.get(id(conn))
    if flush is not None:
        flush()


def driver_sql(conn: Connection, sql: str) -> None:
    """A statement without parameters or rows (`BEGIN IMMEDIATE`), run on the DBAPI cursor
    as it is, without beginning a transaction first: `exec_driver_sql` at a tenth of the
    cost, with the same error handling."""
    if bypassed(conn):
        conn.exec_driver_sql(sql)
        return
    c = cast(Any, conn)
    cursor: Any = None
    try:
        cursor = c.connection.dbapi_connection.cursor()
        cursor.execute(sql)
    except Exception as exc:
        c._handle_dbapi_exception(exc, sql, (), cursor, None)
    cursor.close()


_INSERTS: dict[tuple[Table, tuple[str, ...]], Prepared] = {}


def insert_statement(table: Table, columns: tuple[str, ...]) -> Prepared:
    """INSERT of one row into these columns, prepared once per table and column set."""
    key = (table, columns)
    prepared = _INSERTS.get(key)
    if prepared is None:
        prepared = Prepared(table.insert(), column_keys=columns)
        with _GUARD:
            prepared = _INSERTS.setdefault(key, prepared)
    return prepared


def insert_row(conn: Connection, table: Table, row: Mapping[str, Any]) -> None:
    """INSERT one row (its keys are the columns)."""
    insert_statement(table, tuple(row)).run(conn, row)
