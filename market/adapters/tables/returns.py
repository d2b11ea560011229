"""Returns (projections): credits applied against a tax liability, and recaptures."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class CreditApplication(SQLModel, table=True):
    __tablename__ = "credit_applications"
    __table_args__ = (
        CheckConstraint("applied_cents >= 0 and carried_forward_cents >= 0", name="amounts"),
    )

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    tax_type: str = Field(max_length=3)
    tax_year: int
    liability_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    other_credits_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    statutory_minimum_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    requested_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    applied_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    carried_forward_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    limited_by: str = Field(max_length=40)
    limits: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    ruleset: str = Field(max_length=20)


class Recapture(SQLModel, table=True):
    __tablename__ = "recaptures"
    __table_args__ = (CheckConstraint("amount_cents > 0", name="positive"),)

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    certificate_id: str | None = Field(default=None, max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    fund: str = Field(max_length=30)
    reason: str = Field(max_length=500)
    assessed_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
