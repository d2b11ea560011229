"""Engines for SQLite and PostgreSQL with the settings the ledger relies on."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError

WRITE_OPTION = "market_write"
# On SQLite: send no BEGIN, so a lone SELECT runs in SQLite's autocommit mode, as its own
# read transaction (see Query.first_autocommit).
SINGLE_READ_OPTION = "market_single_read"


def is_sqlite(engine_or_conn: Engine | Connection) -> bool:
    return engine_or_conn.dialect.name == "sqlite"


def violates(exc: IntegrityError, table: str) -> bool:
    """The integrity error is a constraint of `table` (psycopg names the table; sqlite3
    says "UNIQUE constraint failed: <table>.<column>")."""
    diag = getattr(exc.orig, "diag", None)
    if diag is not None:
        return bool(diag.table_name == table)
    return f" {table}." in str(exc.orig)


def permission_denied(exc: DBAPIError) -> bool:
    """The database refused a write for want of a privilege: PostgreSQL's
    insufficient_privilege (42501), or SQLite's read-only database (SQLITE_READONLY)."""
    orig = exc.orig
    if getattr(orig, "sqlstate", None) == "42501":
        return True
    if isinstance(orig, sqlite3.Error):
        return orig.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY
    return False


def storage_full(exc: BaseException) -> bool:
    """The database could not write for want of disk: SQLite's SQLITE_FULL ("database or
    disk is full") or PostgreSQL's disk_full (53100)."""
    orig = getattr(exc, "orig", exc)
    if getattr(orig, "sqlstate", None) == "53100":
        return True
    if isinstance(orig, sqlite3.Error):
        return (getattr(orig, "sqlite_errorcode", None) or 0) & 0xFF == sqlite3.SQLITE_FULL
    return False


def make_engine(url: str, echo: bool = False) -> Engine:
    if url.startswith("sqlite"):
        engine = _sqlite_engine(url, echo)
    else:
        # pre-ping: a pooled connection a server restart broke is replaced at checkout, so
        # the first request after PostgreSQL returns is served (not answered 503 once more).
        engine = create_engine(
            url, echo=echo, pool_size=5, max_overflow=10, pool_recycle=3600, pool_pre_ping=True
        )
    event.listen(engine, "before_cursor_execute", _count_statement)
    return engine


# Statements sent on a DBAPI connection, kept in its `info`: a write batch reports how many
# it sent (market_write_batch_statements_total).
_STATEMENTS = "market_statements"


def _count_statement(conn: Connection, *_: Any) -> None:
    info = conn.info
    info[_STATEMENTS] = info.get(_STATEMENTS, 0) + 1


def statements_sent(conn: Connection) -> int:
    """The statements sent on this connection's DBAPI connection so far: every cursor
    execute, BEGIN, SAVEPOINT and RELEASE included (an executemany counts once), as
    scripts/bench_statements counts them."""
    return int(conn.info.get(_STATEMENTS, 0))


def create_private(path: str | None) -> None:
    """Create `path` empty with mode 0600 unless it exists (a missing folder is left for
    the opener to report). SQLite gives the -wal and -shm files the database's mode, and
    an empty file is an empty database: only this user may read or write the ledger."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        return
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))


def _sqlite_engine(url: str, echo: bool) -> Engine:
    engine = create_engine(url, echo=echo, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "do_connect")
    def _before_connect(_dialect: Any, _record: Any, _cargs: Any, _cparams: Any) -> None:
        create_private(engine.url.database)

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
        # SQLAlchemy's recipe for pysqlite's transactions: the driver's own BEGIN is off
        # (isolation_level None) and the engine sends it. BEGIN IMMEDIATE serialises
        # writers at the start of the transaction, so a decision is never taken on state
        # another writer is about to change.
        options = conn.get_execution_options()
        if options.get("isolation_level") == "AUTOCOMMIT" or options.get(SINGLE_READ_OPTION):
            return
        conn.exec_driver_sql("BEGIN IMMEDIATE" if options.get(WRITE_OPTION) else "BEGIN")

    return engine


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
