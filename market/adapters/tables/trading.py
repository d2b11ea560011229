"""Trading (projections): listings, offers on them, and transfers awaiting or past
the Authority's decision."""

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


class Listing(SQLModel, table=True):
    __tablename__ = "listings"
    __table_args__ = (CheckConstraint("amount_cents > 0 and ask_cents >= 0", name="amounts"),)

    id: str = Field(primary_key=True, max_length=40)
    # Indexed by ix_listings_certificate_status (scale_indexes.py, migration 0023).
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    ask_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # open | withdrawn | sold
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class Offer(SQLModel, table=True):
    __tablename__ = "offers"
    __table_args__ = (CheckConstraint("amount_cents > 0 and price_cents >= 0", name="amounts"),)

    id: str = Field(primary_key=True, max_length=40)
    listing_id: str = Field(foreign_key="listings.id", max_length=40, index=True)
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    # Indexed by ix_offers_buyer_seq (scale_indexes.py, migration 0023).
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    price_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # open | countered | accepted | declined
    transfer_id: str | None = Field(default=None, max_length=40)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    # Issue 28 item 3 (migration 0022): the last business date the offer may be accepted,
    # and the seller's counter to it (None: no expiry, no counter).
    expires_on: str | None = Field(default=None, max_length=10)
    counter_amount_cents: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )
    counter_price_cents: int | None = Field(
        default=None, sa_column=Column(BigInteger, nullable=True)
    )
    counter_expires_on: str | None = Field(default=None, max_length=10)


class Transfer(SQLModel, table=True):
    __tablename__ = "transfers"
    __table_args__ = (
        CheckConstraint("amount_cents > 0 and consideration_cents >= 0", name="amounts"),
    )

    id: str = Field(primary_key=True, max_length=40)
    # No index of their own: each leads a composite index (migration 0017).
    certificate_id: str = Field(foreign_key="certificates.id", max_length=40)
    program: str = Field(max_length=10)
    seller_party_id: str = Field(foreign_key="parties.id", max_length=40)
    buyer_party_id: str = Field(foreign_key="parties.id", max_length=40)
    amount_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    consideration_cents: int = Field(sa_column=Column(BigInteger, nullable=False))
    status: str = Field(max_length=20)  # awaiting_buyer | pending_approval | approved | rejected
    buyer_certificate_id: str | None = Field(default=None, max_length=40)
    offer_id: str | None = Field(default=None, max_length=40)
    agreement_ref: str | None = Field(default=None, max_length=200)
    # BR-14 / TB-25: the seller's attested uses of the proceeds (None before 0004).
    use_of_proceeds: list[Any] | None = Field(
        default=None, sa_column=Column(JSON(none_as_null=True), nullable=True)
    )
    reasons: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    checks: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    exchange_date: str | None = Field(default=None, max_length=10)
    hq_window_end: str | None = Field(default=None, max_length=10)
    ruleset: str = Field(max_length=20)
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    decided_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    # PRODUCT.md 8.2: the buyer's confirmation of a negotiated transfer (None: not needed or
    # not yet given).
    confirmed_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
