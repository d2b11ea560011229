"""Human-readable certificate numbers: PROGRAM-FY-NNNNNN, derived ones get a suffix."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from itertools import count
from typing import Any

from market.services.kernel.reads import Source, repositories


def new_id(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:20]}"


def next_number(source: Source, program: str, fiscal_year: int) -> str:
    """Sequential per program and fiscal year among original certificates. Safe because
    every writer holds the ledger head (see UnitOfWork)."""
    return next(next_numbers(source, program, fiscal_year))


def next_numbers(source: Source, program: str, fiscal_year: int) -> Iterator[str]:
    """`next_number` and the numbers after it, counted once: for a unit of work issuing
    many originals (a TECH allocation), which would otherwise count them for each one."""
    issued = repositories(source).certificates.originals_count(program, fiscal_year)
    for n in count(issued + 1):
        yield f"{program}-{fiscal_year}-{n:06d}"


def derived_number(parent: dict[str, Any], tag: str) -> str:
    """`<parent number>-<tag><n>`, e.g. UTH-2014-000003-T2 for the parent's second derived
    certificate (`children_count` counts them: CERT_ISSUED). Unique because the caller
    holds the ledger head (see UnitOfWork)."""
    return f"{parent['number']}-{tag}{int(parent['children_count']) + 1}"
