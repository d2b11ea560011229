"""Statements built once and run through SQLAlchemy's public `Connection.execute`.

Building a Core statement costs more than running it from SQLAlchemy's compiled cache, so
the statements read on every request are built once, at import, and kept here with the
few ways the services use them. Rows come back as plain dicts (`.mappings()`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Executable

from market.adapters.db import SINGLE_READ_OPTION

Row = dict[str, Any]
T = TypeVar("T")


class Query:
    def __init__(self, stmt: Executable) -> None:
        self.stmt = stmt

    def _run(self, conn: Connection, params: Mapping[str, Any] | None) -> Any:
        return conn.execute(self.stmt, dict(params) if params else None)

    def rows(self, conn: Connection, params: Mapping[str, Any] | None = None) -> list[Row]:
        return [dict(r) for r in self._run(conn, params).mappings()]

    def first(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Row | None:
        row = self._run(conn, params).mappings().first()
        return dict(row) if row is not None else None

    def scalar(self, conn: Connection, params: Mapping[str, Any] | None = None) -> Any:
        return self._run(conn, params).scalar()

    def run(self, conn: Connection, params: Mapping[str, Any] | None = None) -> int:
        """Execute a statement whose rows are not wanted; the number of rows it changed."""
        return int(self._run(conn, params).rowcount)

    def first_autocommit(
        self, engine: Engine, params: Mapping[str, Any] | None = None
    ) -> Row | None:
        """The first row, read outside a transaction: one statement needing no snapshot
        shared with another (a bearer token's owner): the SELECT alone, without BEGIN and
        ROLLBACK. On PostgreSQL with SQLAlchemy's AUTOCOMMIT isolation level (reset when
        the connection goes back to the pool); on SQLite, whose driver is in autocommit
        mode already (market.adapters.db), by not sending the BEGIN."""
        with engine.connect() as conn:
            if engine.dialect.name == "sqlite":
                conn.execution_options(**{SINGLE_READ_OPTION: True})
            else:
                conn.execution_options(isolation_level="AUTOCOMMIT")
            return self.first(conn, params)


def typed_row(record: Callable[..., T], row: Mapping[Any, Any]) -> T:
    """`row` as the TypedDict `record`: each declared key, in order, read from the column
    of that name (a missing one is a KeyError; other columns are left out). One mapper
    for every record whose fields are its row's columns, rather than one spelled out
    field by field per record. For records without NotRequired keys (under postponed
    annotations Python 3.11 cannot tell them from required ones)."""
    declared: dict[str, Any] = vars(record)["__annotations__"]
    return record(**{k: row[k] for k in declared})
