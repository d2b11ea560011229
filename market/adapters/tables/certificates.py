"""Certificates and the caps they draw on (projections): the certificate with its
conservation constraint, each cap's use per fiscal year, and the digital media queue."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    Integer,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class Certificate(SQLModel, table=True):
    """A transfer certificate: the seller's original (`is_original`) or one derived from it
    by an approved transfer, a TECH allocation or a pass-through allocation.

    Conservation is a database constraint: every cent of face is in exactly one place.
    """

    __tablename__ = "certificates"
    __table_args__ = (
        CheckConstraint(
            "face_cents = balance_cents + queued_cents + transferred_cents + applied_cents"
            " + expired_cents + recaptured_cents",
            name="conservation",
        ),
        CheckConstraint(
            "balance_cents >= 0 and queued_cents >= 0 and transferred_cents >= 0"
            " and applied_cents >= 0 and expired_cents >= 0 and recaptured_cents >= 0",
            name="non_negative",
        ),
        CheckConstraint("face_cents > 0", name="positive_face"),
    )

    id: str = Field(primary_key=True, max_length=40)
    number: str = Field(max_length=40, unique=True)
    # Indexed with fiscal_year and is_original (ix_certificates_numbering, migration 0012).
    program: str = Field(max_length=10)
    # holder_party_id and parent_id lead composite indexes (migration 0017).
    holder_party_id: str = Field(foreign_key="parties.id", max_length=40)
    original_holder_party_id: str = Field(foreign_key="parties.id", max_length=40)
    parent_id: str | None = Field(default=None, foreign_key="certificates.id", max_length=40)
    # Certificates derived from this one (transfers, pass-through): numbers the next one.
    children_count: int = Field(
        default=0, sa_column=Column(Integer, nullable=False, default=0, server_default="0")
    )
    root_id: str = Field(max_length=40, index=True)
    origin: str = Field(max_length=20)  # issued | transfer | allocation | pass_through
    is_original: bool
    face_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    allowed_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    balance_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    queued_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    transferred_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    applied_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    expired_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    recaptured_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))
    status: str = Field(max_length=20)
    fiscal_year: int
    tax_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    tax_periods: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    credit_year: int | None = None
    carryover_last_year: int | None = None
    waiver_statement: str = Field(max_length=2000)
    attributes: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    ruleset: str = Field(max_length=20)
    issued_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class CapUsage(SQLModel, table=True):
    """Use of one cap or pool in one fiscal year (fiscal_year 0 = cumulative)."""

    __tablename__ = "cap_usage"
    __table_args__ = (
        CheckConstraint("used_cents >= 0 and queued_cents >= 0", name="non_negative"),
        CheckConstraint("used_cents <= cap_cents", name="within_cap"),
    )

    id: str = Field(primary_key=True, max_length=40)
    bucket: str = Field(max_length=30)
    fiscal_year: int
    cap_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    used_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    queued_cents: int = Field(sa_column=Column(BigInteger, nullable=False, default=0))


class QueueEntry(SQLModel, table=True):
    """Digital media FIFO queue (DMQ-3): what is deferred to a later fiscal year."""

    __tablename__ = "dm_queue"
    __table_args__ = (CheckConstraint("remaining_cents >= 0", name="non_negative"),)

    id: str = Field(primary_key=True, max_length=40)  # the certificate id
    pool: str = Field(max_length=30, index=True)
    origin_fiscal_year: int
    remaining_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    received_at: str = Field(max_length=32)
    position: int = Field(sa_column=Column(BigInteger, nullable=False))
