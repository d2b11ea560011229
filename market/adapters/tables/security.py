"""Security tables (issue 15): failed sign-ins, server-side page sessions, TOTP second factors.

Written directly (not events): they hold secrets' digests and counters, not market facts.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, CheckConstraint, Column
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class LoginFailure(SQLModel, table=True):
    """Consecutive failed sign-ins per key (`account:<email>` or `address:<ip>`), shared by
    every worker; `locked_until` (epoch seconds) refuses attempts until then."""

    __tablename__ = "login_failures"
    __table_args__ = (CheckConstraint("failures >= 0", name="non_negative"),)

    key: str = Field(primary_key=True, max_length=300)
    failures: int
    last_failed_at: int = Field(sa_column=Column(BigInteger, nullable=False))
    locked_until: int = Field(sa_column=Column(BigInteger, nullable=False))


class WebSession(SQLModel, table=True):
    """A page session: the cookie carries a random secret, this row its HMAC (`id`)."""

    __tablename__ = "web_sessions"

    id: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    created_at: str = Field(max_length=32)
    last_seen_at: str = Field(max_length=32)
    revoked_at: str | None = Field(default=None, max_length=32)


class MfaCredential(SQLModel, table=True):
    """A user's TOTP secret; in force once `confirmed_at` is set. `last_step` is the time
    step of the last code accepted, so a code cannot be used twice."""

    __tablename__ = "mfa_credentials"

    user_id: str = Field(primary_key=True, foreign_key="users.id", max_length=40)
    secret: str = Field(max_length=64)
    created_at: str = Field(max_length=32)
    confirmed_at: str | None = Field(default=None, max_length=32)
    last_step: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class MfaRecoveryCode(SQLModel, table=True):
    """Single-use recovery codes, stored as SHA-256 of the code (random, 40 bits each)."""

    __tablename__ = "mfa_recovery_codes"

    id: str = Field(primary_key=True, max_length=40)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    code_hash: str = Field(max_length=64, unique=True)
    used_at: str | None = Field(default=None, max_length=32)
