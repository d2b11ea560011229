"""Market information and risk (PRODUCT.md 8.3, projections): trading halts and the
closing record of a transfer."""

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


class CertificateNotice(SQLModel, table=True):
    """A recapture or invalidity notice: while active it halts trading in the certificate
    and every certificate derived from it (`market.domain.rules.halts`)."""

    __tablename__ = "certificate_notices"
    __table_args__ = (
        CheckConstraint("kind in ('recapture','invalidity')", name="kind"),
        CheckConstraint("status in ('active','lifted')", name="status"),
        CheckConstraint(
            "(status = 'active' and lifted_seq is null)"
            " or (status = 'lifted' and lifted_seq is not null)",
            name="lifted_has_seq",
        ),
    )

    id: str = Field(primary_key=True, max_length=40)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40, index=True)
    root_id: str = Field(max_length=40, index=True)
    kind: str = Field(max_length=20)
    reason: str = Field(max_length=500)
    status: str = Field(max_length=10)
    halted_certificate_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    suspended_listing_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    resumed_listing_ids: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    lift_reason: str | None = Field(default=None, max_length=500)
    issued_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    lifted_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class TransferFunding(SQLModel, table=True):
    """The closing record of a transfer: the buyer's payment, the seller's receipt and,
    for a rejected transfer, the refund owed."""

    __tablename__ = "transfer_fundings"
    __table_args__ = (
        CheckConstraint("amount_cents > 0", name="positive"),
        CheckConstraint(
            "refund_owed_cents >= 0 and refund_owed_cents <= amount_cents", name="refund"
        ),
        CheckConstraint(
            "(confirmed_on is null) = (confirmed_seq is null)", name="confirmed_has_seq"
        ),
    )

    transfer_id: str = Field(primary_key=True, foreign_key="transfers.id", max_length=40)
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    reference: str = Field(max_length=200)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    paid_on: str = Field(max_length=10)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    confirmed_on: str | None = Field(default=None, max_length=10)
    confirmed_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    refund_owed_cents: int = Field(
        default=0, sa_column=Column(BigInteger, nullable=False, default=0, server_default="0")
    )
