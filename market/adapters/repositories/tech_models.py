"""The TECH projections' rows as typed records (an application, a fiscal year's committed
allocation): what the pages and the API answer show column for column. The allocation's
plan reads the frozen `TechApplication` instead (`models.tech_application_of`).

Each is the row itself (a dict at run time, so a JSON answer is unchanged), its columns
named and typed here, the one place they are (adapters/tables/tech.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypedDict, cast


class TechApplicationRow(TypedDict):
    id: str
    party_id: str
    fiscal_year: int
    received_on: str
    received_at: str | None
    receipt_reason: str | None
    received_seq: int
    nol_cents: int
    allocation_factor: str
    seller_tax_regime: str
    rnd_credit_cents: int
    in_innovation_zone: bool
    benefit_cents: int
    requested_cents: int
    eligible: bool
    reasons: list[str]
    facts: dict[str, Any]
    allocated_cents: int | None
    certificate_id: str | None
    ruleset: str


class TechAllocationRow(TypedDict):
    """The fiscal year's one committed allocation (TB-14), by the year as text."""

    id: str
    fiscal_year: int
    triggered: bool
    total_cents: int
    ruleset: str
    committed_seq: int


def tech_application_row(row: Mapping[str, Any]) -> TechApplicationRow:
    return cast(TechApplicationRow, row)


def tech_allocation_row(row: Mapping[str, Any]) -> TechAllocationRow:
    return cast(TechAllocationRow, row)
