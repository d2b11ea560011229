"""Registration and accounts (issue 29 item 1, issue 28 item 9).

Projections (folded from events/registration.py and events/accounts.py): `registrations`,
a business's request to join, and `account_events`, the sign-in, second-factor and
password events of each user. Written directly (identity, like `password_resets`):
`registration_links` (the e-mail verification links) and `account_invites` (set-a-password
links), each token kept as its keyed hash only (services/identity/token_digest.py), and
`party_memberships`, the role a user has within its party.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, BigInteger, CheckConstraint, Column, Index, text
from sqlmodel import Field

from market.adapters.tables.base import SQLModel

PARTY_ROLES = ("owner", "preparer", "viewer")
REGISTRATION_STATUSES = ("email_unverified", "submitted", "approved", "rejected")


class Registration(SQLModel, table=True):
    __tablename__ = "registrations"
    __table_args__ = (
        CheckConstraint(
            "status in ('email_unverified','submitted','approved','rejected')", name="status"
        ),
        CheckConstraint(
            "(status = 'approved') = (party_id is not null)", name="approved_has_party"
        ),
        CheckConstraint("status <> 'rejected' or reason is not null", name="rejected_has_reason"),
        # One open request per tax id, as the service refuses a second (tax_id_registered).
        Index(
            "uq_registrations_open_tax_id",
            "tax_id",
            unique=True,
            sqlite_where=text("status in ('email_unverified','submitted')"),
            postgresql_where=text("status in ('email_unverified','submitted')"),
        ),
    )

    id: str = Field(primary_key=True, max_length=40)
    legal_name: str = Field(max_length=200)
    tax_id: str = Field(max_length=40, index=True)
    nj_tax_registration: str = Field(max_length=40)
    entity_type: str = Field(max_length=30)
    tax_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    contact_email: str = Field(max_length=254)
    officers: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    affiliates: list[dict[str, Any]] = Field(sa_column=Column(JSON, nullable=False))
    status: str = Field(max_length=20)
    reason: str | None = Field(default=None, max_length=1000)
    party_id: str | None = Field(default=None, max_length=40)
    user_id: str | None = Field(default=None, max_length=40)
    requested_at: str = Field(max_length=32)
    requested_seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    decided_seq: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class AccountEvent(SQLModel, table=True):
    """One sign-in, second-factor, password or account change of a user; `id` is its
    ledger seq, zero-padded to 20 digits (keys are strings, and sort as the seqs do)."""

    __tablename__ = "account_events"

    id: str = Field(primary_key=True, max_length=20)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    user_id: str = Field(max_length=40, index=True)
    kind: str = Field(max_length=40)
    detail: str | None = Field(default=None, max_length=300)
    by_user_id: str | None = Field(default=None, max_length=40)
    at: str = Field(max_length=32)


class RegistrationLink(SQLModel, table=True):
    """A registration's e-mail verification link: single use, kept as its HMAC only."""

    __tablename__ = "registration_links"

    token_hash: str = Field(primary_key=True, max_length=64)
    registration_id: str = Field(max_length=40, index=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    used_at: str | None = Field(default=None, max_length=32)


class AccountInvite(SQLModel, table=True):
    """A set-your-password link for an invited (or newly approved) user: single use."""

    __tablename__ = "account_invites"

    token_hash: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(foreign_key="users.id", max_length=40, index=True)
    created_at: str = Field(max_length=32)
    expires_at: str = Field(max_length=32)
    used_at: str | None = Field(default=None, max_length=32)


class PartyMembership(SQLModel, table=True):
    """A participant's role in its party; a participant without a row is an owner (every
    user made before roles existed)."""

    __tablename__ = "party_memberships"
    __table_args__ = (
        CheckConstraint("party_role in ('owner','preparer','viewer')", name="party_role"),
    )

    user_id: str = Field(primary_key=True, foreign_key="users.id", max_length=40)
    party_id: str = Field(max_length=40, index=True)
    party_role: str = Field(max_length=10)
    invited_by: str | None = Field(default=None, max_length=40)
    created_at: str = Field(max_length=32)
