"""Names and numbers looked up by id for the rows a page or a notice shows: a party's name,
a certificate's number or program, in IN lists of CHUNK, never a whole table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate, Party

certs_t = Certificate.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]

CHUNK = 500  # ids per IN list: far below either driver's bind-parameter limit


def _lookup(conn: Connection, column: Any, ids: Iterable[str | None]) -> dict[str, str]:
    """`column` of the rows whose id is among `ids` (its table's id -> value), in
    IN lists of CHUNK: the names or numbers of the rows a page shows, never a whole table."""
    wanted = sorted({i for i in ids if i})
    found: dict[str, str] = {}
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start : start + CHUNK]
        id_column = column.table.c.id
        rows = conn.execute(select(id_column, column).where(id_column.in_(chunk)))
        found.update({str(r[0]): str(r[1]) for r in rows})
    return found


def names_of(conn: Connection, party_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, parties_t.c.name, party_ids)


def numbers_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.number, certificate_ids)


def holders_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.holder_party_id, certificate_ids)


def programs_of(conn: Connection, certificate_ids: Iterable[str | None]) -> dict[str, str]:
    return _lookup(conn, certs_t.c.program, certificate_ids)
