"""TECH (projections): the applications of a fiscal year and its one committed allocation."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class TechApplication(SQLModel, table=True):
    __tablename__ = "tech_applications"

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    fiscal_year: int = Field(index=True)
    received_on: str = Field(max_length=10)
    # TB-6 / CMN-1: the receipt instant (ISO, New York offset); an Authority-recorded paper
    # filing's reason (None for a receipt the service stamped).
    received_at: str | None = Field(default=None, max_length=40)
    receipt_reason: str | None = Field(default=None, max_length=500)
    received_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    nol_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    allocation_factor: str = Field(max_length=40)
    seller_tax_regime: str = Field(max_length=3)
    rnd_credit_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    in_innovation_zone: bool
    benefit_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    requested_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    eligible: bool
    reasons: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    facts: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    allocated_cents: int | None = Field(default=None, sa_column=Column(BigInteger))
    certificate_id: str | None = Field(default=None, max_length=40)
    ruleset: str = Field(max_length=20)


class TechAllocation(SQLModel, table=True):
    """One committed allocation per fiscal year (TB-14); the primary key makes it once-only."""

    __tablename__ = "tech_allocations"

    id: str = Field(primary_key=True, max_length=10)  # the fiscal year
    fiscal_year: int = Field(unique=True)
    triggered: bool
    total_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    ruleset: str = Field(max_length=20)
    committed_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
