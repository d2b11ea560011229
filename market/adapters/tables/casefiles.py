"""The case file around a sale (projections, RULES.md section 7): exhibits, fees and
their payments, tax clearance certificates and a TECH application's ADM steps."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, Column, UniqueConstraint
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class Document(SQLModel, table=True):
    """ADM-10: one version of an exhibit; a corrected exhibit is the next version of the
    same (subject, kind), and none is deleted."""

    __tablename__ = "documents"
    __table_args__ = (
        UniqueConstraint(
            "subject_type", "subject_id", "kind", "version", name="uq_documents_version"
        ),
        CheckConstraint("bytes > 0 and version > 0", name="sizes"),
        CheckConstraint(
            "subject_type in ('party','registration','tech_application','transfer','certificate')",
            name="subject_type",
        ),
    )

    id: str = Field(primary_key=True, max_length=40)
    kind: str = Field(max_length=80)
    subject_type: str = Field(max_length=20)
    subject_id: str = Field(max_length=40, index=True)
    party_id: str | None = Field(default=None, max_length=40, index=True)
    sha256: str = Field(max_length=64, index=True)
    bytes: int = Field(sa_column=Column(BigInteger, nullable=False))
    media_type: str = Field(max_length=100)
    filename: str = Field(max_length=255)
    version: int
    filed_by: str = Field(max_length=200)
    filed_at: str = Field(max_length=40)
    filed_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Fee(SQLModel, table=True):
    """ADM-1..ADM-4: one invoice per (kind, step's subject)."""

    __tablename__ = "fees"
    __table_args__ = (
        UniqueConstraint("kind", "subject_id", name="uq_fees_once"),
        CheckConstraint(
            "amount_cents >= 0 and credited_cents >= 0 and paid_cents >= 0"
            " and credited_cents + paid_cents <= amount_cents",
            name="amounts",
        ),
    )

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    kind: str = Field(max_length=40)
    program: str = Field(max_length=10)
    subject_id: str = Field(max_length=40, index=True)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    credited_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    paid_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    reason: str = Field(max_length=500)
    invoiced_on: str = Field(max_length=10)
    ruleset: str = Field(max_length=20)
    invoiced_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class FeePayment(SQLModel, table=True):
    __tablename__ = "fee_payments"
    __table_args__ = (CheckConstraint("amount_cents > 0", name="positive"),)

    id: str = Field(primary_key=True, max_length=40)
    fee_id: str = Field(foreign_key="fees.id", max_length=40, index=True)
    party_id: str = Field(max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    method: str = Field(max_length=40)
    reference: str = Field(max_length=200)
    received_on: str = Field(max_length=10)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class TaxClearance(SQLModel, table=True):
    """ADM-11: a certificate per party and program; a renewal names the one it renews."""

    __tablename__ = "tax_clearances"
    __table_args__ = (
        UniqueConstraint(
            "party_id", "program", "certificate_number", name="uq_tax_clearances_number"
        ),
        CheckConstraint("renewals_left >= 0", name="renewals"),
        CheckConstraint("valid_until >= issued_on", name="validity"),
    )

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    program: str = Field(max_length=10)
    certificate_number: str = Field(max_length=100)
    issued_on: str = Field(max_length=10)
    renews: str | None = Field(default=None, max_length=40, unique=True)
    valid_until: str = Field(max_length=10)
    renewals_left: int
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class TechCaseFile(SQLModel, table=True):
    """ADM-5..ADM-8: where a TECH application stands in the Authority's process."""

    __tablename__ = "tech_case_files"

    application_id: str = Field(primary_key=True, foreign_key="tech_applications.id", max_length=40)
    party_id: str = Field(max_length=40, index=True)
    submitted_on: str = Field(max_length=10)
    preliminary_on: str | None = Field(default=None, max_length=10)
    conditions: list[Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )
    forwarded_on: str | None = Field(default=None, max_length=10)
    tax_certificate_number: str | None = Field(default=None, max_length=100)
    valued_benefit_cents: int | None = Field(default=None, sa_column=Column(BigInteger))
    tax_certificate_issued_on: str | None = Field(default=None, max_length=10)


class BoardAction(SQLModel, table=True):
    """ADM-9: a BRRAG Board action and the Governor's period after it."""

    __tablename__ = "board_actions"
    __table_args__ = (
        CheckConstraint("decision in ('approve','deny')", name="decision"),
        CheckConstraint(
            "governor_decision is null or governor_decision in ('approve','veto')",
            name="governor_decision",
        ),
        CheckConstraint("amount_cents >= 0", name="amount"),
    )

    id: str = Field(primary_key=True, max_length=40)
    party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    decision: str = Field(max_length=10)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    board_met_on: str = Field(max_length=10)
    governor_received_on: str = Field(max_length=10)
    period_ends_on: str = Field(max_length=10)
    effective_on: str | None = Field(default=None, max_length=10)
    submitted_on: str = Field(max_length=10)
    conditions: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    governor_decision: str | None = Field(default=None, max_length=10)
    governor_decided_on: str | None = Field(default=None, max_length=10)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
