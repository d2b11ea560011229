"""Identity: users, their API tokens, idempotency keys and password reset links.

Written directly (not projections).
"""

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


class PasswordReset(SQLModel, table=True):
    """A reset link's token, kept as its HMAC only (services/identity/token_digest.py); single use,
    30 minutes."""

    __tablename__ = "password_resets"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    used_at: str | None = Field(default=None, max_length=32)


class AuthEpoch(SQLModel, table=True):
    """One row: a counter the database moves forward whenever a bearer token's principal
    could have changed (a token revoked or expired early, a user deactivated or given
    another role or party, a party membership changed: migration 0024's triggers, so a
    change written by hand moves it too). A process may keep principals it read at an
    epoch while the epoch stays (market/api/principals.py); the counter only goes up."""

    __tablename__ = "auth_epoch"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(primary_key=True)
    n: int = Field(sa_column=Column(BigInteger, nullable=False))
