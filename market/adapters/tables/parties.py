"""Parties and who owns them (projections): the ownership graph and owners' agreements."""

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


class Party(SQLModel, table=True):
    __tablename__ = "parties"

    id: str = Field(primary_key=True, max_length=40)
    name: str = Field(max_length=200)
    tax_id: str = Field(max_length=40, unique=True)
    entity_type: str = Field(max_length=30)
    tax_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    in_innovation_zone: bool = False
    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: str | None = Field(default=None, max_length=10)
    operating_income_cents_by_year: dict[str, int] = Field(sa_column=Column(JSON, nullable=False))
    created_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    # PT-7 / AMB-53: the Director's exception letting this individual buy a GIT credit
    # directly (its recorded reason; None: none on record).
    director_exception: str | None = Field(default=None, max_length=500)


class Ownership(SQLModel, table=True):
    __tablename__ = "ownerships"
    __table_args__ = (
        CheckConstraint("voting_bps between 0 and 10000", name="voting_bps"),
        CheckConstraint("value_bps between 0 and 10000", name="value_bps"),
        CheckConstraint("owner_party_id <> owned_party_id", name="not_self"),
    )

    id: str = Field(primary_key=True, max_length=90)
    owned_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    owner_party_id: str = Field(foreign_key="parties.id", max_length=40, index=True)
    voting_bps: int
    value_bps: int
    income_share_bps: int | None = None


class OwnersAgreement(SQLModel, table=True):
    """The owners' agreement in force for a partnership (UTH-14, AMB-17): the latest one the
    Authority recorded as filed with the Director. Earlier filings stay in the ledger."""

    __tablename__ = "owners_agreements"

    party_id: str = Field(primary_key=True, foreign_key="parties.id", max_length=40)
    agreement_id: str = Field(max_length=40)
    shares: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    filed_on: str = Field(max_length=10)
    reference: str | None = Field(default=None, max_length=200)
    recorded_seq: int = Field(sa_column=Column(BigInteger, nullable=False))


class PartyEpoch(SQLModel, table=True):
    """One row: a counter the database moves forward whenever a `parties` row is inserted,
    changed or deleted (migration 0025's triggers, so a change written by hand moves it
    too). A process may keep party rows it read at an epoch while the epoch stays
    (market/adapters/kept_rows.py); the counter only goes up."""

    __tablename__ = "party_epoch"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(primary_key=True)
    n: int = Field(sa_column=Column(BigInteger, nullable=False))
