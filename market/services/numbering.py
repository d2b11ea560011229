"""Human-readable certificate numbers: PROGRAM-FY-NNNNNN, derived ones get a suffix."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from itertools import count
from typing import Any

from sqlalchemy import func, select, true
from sqlalchemy.engine import Connection

from market.adapters.tables import Certificate

certs_t = Certificate.__table__  # type: ignore[attr-defined]


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


def next_number(conn: Connection, program: str, fiscal_year: int) -> str:
    """Sequential per program and fiscal year among original certificates. Safe because
    every writer holds the ledger head (see UnitOfWork)."""
    return next(next_numbers(conn, program, fiscal_year))


def next_numbers(conn: Connection, program: str, fiscal_year: int) -> Iterator[str]:
    """`next_number` and the numbers after it, counted once: for a unit of work issuing
    many originals (a TECH allocation), which would otherwise count them for each one."""
    issued = conn.execute(
        select(func.count())
        .select_from(certs_t)
        .where(
            certs_t.c.program == program,
            certs_t.c.fiscal_year == fiscal_year,
            # `= true`, not `IS TRUE`: PostgreSQL can look equality up in the index
            # (program, fiscal_year, is_original); it cannot look up IS TRUE.
            certs_t.c.is_original == true(),
        )
    ).scalar()
    for n in count(int(issued or 0) + 1):
        yield f"{program}-{fiscal_year}-{n:06d}"


def derived_number(parent: dict[str, Any], tag: str) -> str:
    """`<parent number>-<tag><n>`, e.g. UTH-2014-000003-T2 for the parent's second derived
    certificate (`children_count` counts them: CERT_ISSUED). Unique because the caller
    holds the ledger head (see UnitOfWork)."""
    return f"{parent['number']}-{tag}{int(parent['children_count']) + 1}"
