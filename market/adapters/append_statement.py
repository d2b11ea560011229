"""PostgreSQL: what a unit of work writes at commit, in one statement and one round trip.

A unit of work ends with the projection updates it held back (one a row,
market/adapters/projections/pending.py), its events and the rows it kept for commit (an
Idempotency-Key's stored answer, the request's trace). Sent one by one, that is three
round trips or more taken while the ledger head is locked. PostgreSQL runs them as one
statement: each update and insert a data-modifying `WITH` clause:

    WITH u0 AS (UPDATE certificates SET balance_cents = ..., ... WHERE id = ...),
         w0 AS (INSERT INTO events (...) VALUES (...), (...)),
         w1 AS (INSERT INTO idempotency_keys (...) VALUES (...))
    SELECT 1

The events' trigger (migration 0027) checks that they follow the chain and moves the head
at the end of the statement. Every clause runs to completion whether or not the main
statement reads it, and one failing (a unique key another writer holds) fails the whole
statement, so the unit's savepoint rolls back all of it, exactly as it did with three.
The clauses touch different rows (an update is one row's merged changes; the inserts are
new rows of the ledger's own tables) and read nothing the others write, so their shared
snapshot changes nothing.

Only plain columns and JSON go in this way (`SUPPORTED`); a unit with more rows than
`MAX_PARAMETERS` allows in one statement (an import) is written as before, in chunks.
SQLite has no data-modifying `WITH`: it keeps the statements (in process, no round trip).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from sqlalchemy import JSON, BigInteger, Column, Integer, String, Table, Text, TypeDecorator
from sqlalchemy.engine import Connection

SUPPORTED = (BigInteger, Integer, String, Text, JSON)
# Far below PostgreSQL's 65,535 bind parameters a statement.
MAX_PARAMETERS = 20_000


def _plain(column: Column[Any]) -> bool:
    """A column whose value the driver takes as it is (JSON: encoded here): a decorated
    type only if it converts nothing (sqlmodel's AutoString only picks a length)."""
    kind = column.type
    if isinstance(kind, TypeDecorator):
        if type(kind).process_bind_param is not TypeDecorator.process_bind_param:
            return False
        kind = kind.impl_instance
    return isinstance(kind, SUPPORTED)


@cache
def _all_plain(table: Table) -> bool:
    return all(_plain(c) for c in table.columns)


Update = tuple[Table, str, dict[str, Any]]  # a table, a row's key, its changes


def fits(tables: dict[Table, list[dict[str, Any]]], updates: Sequence[Update] = ()) -> bool:
    """Whether these rows and updates can go in one statement: few enough, of plain
    columns."""
    total = 0
    for table, rows in tables.items():
        if not _all_plain(table):
            return False
        total += sum(len(r) for r in rows)
    for table, _, changes in updates:
        if not all(_plain(table.c[c]) for c in changes):
            return False
        total += len(changes) + 1
    return total <= MAX_PARAMETERS


def _update_clause(conn: Connection, u: int, update: Update, params: dict[str, Any]) -> str:
    """`uN AS (UPDATE ... WHERE key = ...)`: one row's changes (projection updates held
    back, market/adapters/projections/pending.py); JSON values encoded here."""
    table, key, changes = update
    quote = conn.dialect.identifier_preparer.quote
    sets = []
    for c, value in changes.items():
        name = f"u{u}_{c}"
        encode = isinstance(table.c[c].type, JSON) and value is not None
        params[name] = json.dumps(value) if encode else value
        sets.append(f"{quote(c)} = %({name})s")
    params[f"u{u}_key"] = key
    pk = quote(next(iter(table.primary_key.columns)).name)
    where = f"{pk} = %(u{u}_key)s"
    return f"u{u} AS (UPDATE {quote(table.name)} SET {', '.join(sets)} WHERE {where})"


def write_all(
    conn: Connection,
    tables: dict[Table, list[dict[str, Any]]],
    updates: Sequence[Update] = (),
) -> None:
    """Make every update and insert every row of `tables`, in one statement. JSON values
    already encoded (an event's canonical payload) go in as they are; others are encoded
    here."""
    params: dict[str, Any] = {}
    clauses = [_update_clause(conn, u, update, params) for u, update in enumerate(updates)]
    for t, (table, rows) in enumerate(item for item in tables.items() if item[1]):
        columns = list(rows[0])
        encoded = {c for c in columns if isinstance(table.c[c].type, JSON)}
        values = []
        for r, row in enumerate(rows):
            if list(row) != columns:
                raise ValueError(f"rows for {table.name} differ in their columns")
            names = []
            for c in columns:
                name = f"p{t}_{r}_{c}"
                value = row[c]
                if c in encoded and not isinstance(value, str) and value is not None:
                    value = json.dumps(value)
                params[name] = value
                names.append(f"%({name})s")
            values.append(f"({', '.join(names)})")
        quoted = ", ".join(conn.dialect.identifier_preparer.quote(c) for c in columns)
        name = conn.dialect.identifier_preparer.quote(table.name)
        clauses.append(f"w{t} AS (INSERT INTO {name} ({quoted}) VALUES {', '.join(values)})")
    if clauses:
        conn.exec_driver_sql(f"WITH {', '.join(clauses)} SELECT 1", params)
