"""Engines for SQLite and PostgreSQL with the settings the ledger relies on."""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from market.adapters.prepared import Prepared, bypassed, driver_sql, send_held_writes

_PG_IDLE = 0  # libpq's PQTRANS_IDLE (psycopg.pq.TransactionStatus.IDLE)

WRITE_OPTION = "market_write"


def is_sqlite(engine_or_conn: Engine | Connection) -> bool:
    return engine_or_conn.dialect.name == "sqlite"


def violates(exc: IntegrityError, table: str) -> bool:
    """The integrity error is a constraint of `table` (psycopg names the table; sqlite3
    says "UNIQUE constraint failed: <table>.<column>")."""
    diag = getattr(exc.orig, "diag", None)
    if diag is not None:
        return bool(diag.table_name == table)
    return f" {table}." in str(exc.orig)


def make_engine(url: str, echo: bool = False) -> Engine:
    if url.startswith("sqlite"):
        return _sqlite_engine(url, echo)
    engine = create_engine(url, echo=echo, pool_size=5, max_overflow=10, pool_recycle=3600)

    @event.listens_for(engine, "before_execute")
    def _send_held_writes(conn: Connection, *_args: Any) -> None:
        # A unit of work's held-back writes go out before anything reads (DbStore).
        send_held_writes(conn)

    @event.listens_for(engine, "checkin")
    def _autocommit_off(dbapi_conn: Any, record: Any) -> None:
        # After the pool's rollback: undo lock_write_mode's switch to autocommit. A
        # connection that cannot say it is idle is not given out again.
        if dbapi_conn is not None and dbapi_conn.autocommit:
            try:
                dbapi_conn.autocommit = False
            except Exception:
                record.invalidate()

    _HOLDS_BACK.add(engine)
    return engine


# PostgreSQL engines made here: every statement on them sends held-back writes first.
_HOLDS_BACK: weakref.WeakSet[Engine] = weakref.WeakSet()


def holds_back_writes(engine: Engine) -> bool:
    """A unit of work on this engine may hold its writes back until the next read or the
    commit (DbStore): the engine sends them before any statement (see make_engine). Not on
    SQLite, where a write costs no round trip."""
    return engine in _HOLDS_BACK


def _sqlite_engine(url: str, echo: bool) -> Engine:
    engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # We issue BEGIN ourselves so that writers can take the write lock up front.
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys = ON")
        if ":memory:" not in url and url != "sqlite://":
            cur.execute("PRAGMA journal_mode = WAL")
        cur.execute("PRAGMA synchronous = FULL")
        cur.execute("PRAGMA busy_timeout = 30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # BEGIN IMMEDIATE serialises writers at the start of the transaction, so a
        # decision is never taken on state another writer is about to change.
        options = conn.get_execution_options()
        if options.get("isolation_level") == "AUTOCOMMIT":
            return
        driver_sql(conn, "BEGIN IMMEDIATE" if options.get(WRITE_OPTION) else "BEGIN")

    return engine


# pg_advisory_xact_lock key for the ledger's write mode (see lock_write_mode).
_WRITE_MODE_KEY = 0x4E4A_0001
_LOCK_MODE_SHARED = Prepared(text("SELECT pg_advisory_xact_lock_shared(:key)"))
_LOCK_MODE_EXCLUSIVE = Prepared(text("SELECT pg_advisory_xact_lock(:key)"))


# The same, with the BEGIN that opens the transaction, as one simple-protocol query.
_BEGIN_SHARED = f"BEGIN; SELECT pg_advisory_xact_lock_shared({_WRITE_MODE_KEY})"
_BEGIN_EXCLUSIVE = f"BEGIN; SELECT pg_advisory_xact_lock({_WRITE_MODE_KEY})"


def lock_write_mode(conn: Connection, *, rows_first: bool) -> None:
    """Intention lock for PostgreSQL writers, held until commit.

    A rows-first unit of work takes it shared, then locks the rows it decides on, then the
    ledger head to append; many run at once. A head-first unit of work decides on anything
    it reads, so it takes it exclusive: it waits for the rows-first ones in flight and
    holds off new ones. Every writer thus takes its locks in one order (this lock, rows,
    head) and the two kinds can never deadlock. SQLite has one writer at a time already.

    On psycopg, when it is the transaction's first statement, it is sent with the BEGIN,
    in one round trip instead of two: the connection is switched to autocommit, so psycopg
    sends no BEGIN of its own, and the query begins the transaction itself. psycopg's
    commit and rollback go by the server's transaction status, so they end it as usual;
    the pool gives the connection back its autocommit setting at check-in (make_engine)."""
    if is_sqlite(conn):
        return
    dbapi = cast(Any, conn).connection.dbapi_connection
    pgconn = getattr(dbapi, "pgconn", None)
    if pgconn is None or bypassed(conn) or pgconn.transaction_status != _PG_IDLE:
        lock = _LOCK_MODE_SHARED if rows_first else _LOCK_MODE_EXCLUSIVE
        lock.run(conn, {"key": _WRITE_MODE_KEY})
        return
    dbapi.autocommit = True
    driver_sql(conn, _BEGIN_SHARED if rows_first else _BEGIN_EXCLUSIVE)


_THREAD_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


@contextmanager
def write_lock(engine: Engine) -> Iterator[None]:
    """Queue SQLite writers on a lock file (and a lock per process) before BEGIN IMMEDIATE.

    SQLite's own busy handler polls with sleeps of up to 100 ms, which shows up as tail
    latency when several workers write at once; a blocking flock wakes the next writer as
    soon as the previous one commits. PostgreSQL needs none of this (the ledger head row
    lock queues writers inside the server)."""
    path = engine.url.database if is_sqlite(engine) else None
    if not path or path == ":memory:":
        yield
        return
    lock_path = f"{path}.writelock"
    with _GUARD:
        thread_lock = _THREAD_LOCKS.setdefault(lock_path, threading.Lock())
    with thread_lock:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
