"""Every table, in one module (SQLModel families; Alembic targets `SQLModel.metadata`).

Two kinds of table live here:
- the ledger (`events`, `ledger_head`) and identity (`users`, `api_tokens`,
  `idempotency_keys`), which are written directly;
- projections, which are folded from the events by `market.adapters.projections`
  and can be dropped and rebuilt at any time (`PROJECTION_TABLES`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, Column, MetaData, String, UniqueConstraint
from sqlmodel import Field, SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
metadata: MetaData = SQLModel.metadata


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("stream", "version", name="stream_version"),)

    seq: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    stream: str = Field(max_length=120, index=True)
    version: int
    type: str = Field(max_length=64)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    actor: str = Field(max_length=120)
    recorded_at: str = Field(max_length=32)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))


class LedgerHead(SQLModel, table=True):
    """One row: the last seq and hash. Writers lock it, which orders commits by seq."""

    __tablename__ = "ledger_head"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(primary_key=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    hash: str = Field(max_length=64)


class User(SQLModel, table=True):
    __tablename__ = "users"
    __table_args__ = (
        CheckConstraint("role in ('authority','participant','auditor')", name="role"),
    )

    id: str = Field(primary_key=True, max_length=40)
    email: str = Field(max_length=254, unique=True)
    password_hash: str = Field(max_length=255)
    role: str = Field(max_length=20)
    party_id: str | None = Field(default=None, max_length=40)
    created_at: str = Field(max_length=32)
    active: bool = True


class ApiToken(SQLModel, table=True):
    __tablename__ = "api_tokens"

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    token_hash: str = Field(max_length=64, unique=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    revoked_at: str | None = Field(default=None, max_length=32)


class IdempotencyKey(SQLModel, table=True):
    __tablename__ = "idempotency_keys"

    scope: str = Field(primary_key=True, max_length=40)
    key: str = Field(primary_key=True, max_length=200)
    request_hash: str = Field(max_length=64)
    status_code: int
    response_body: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: str = Field(max_length=32)


# ---- projections --------------------------------------------------------------------


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


PROJECTION_TABLES: list[str] = ["parties", "ownerships"]
