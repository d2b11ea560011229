"""The identity context's reads and writes (services/identity): users, bearer tokens and
page sessions. Each function is one short transaction of its own, as the use cases had
them; tokens and sessions are found by their HMAC digest only (the services make it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from sqlalchemy import Engine, Row, func, select

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories.identity_models import UserAccount, user_account_of
from market.adapters.tables import (
    AccountInvite,
    ApiToken,
    MfaCredential,
    Party,
    PartyMembership,
    User,
    WebSession,
)

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]
sessions_t = WebSession.__table__  # type: ignore[attr-defined]
invites_t = AccountInvite.__table__  # type: ignore[attr-defined]
creds_t = MfaCredential.__table__  # type: ignore[attr-defined]
# A user with its role in its party (no membership row: an owner, as before roles).
_USER_WITH_ROLE = users_t.outerjoin(members_t, members_t.c.user_id == users_t.c.id)
_WITH_ROLE = (users_t, members_t.c.party_role)


@dataclass(frozen=True)
class Member:
    """A user as signing in reads it: its role, its party and role there, whether active,
    and its password hash (never shown)."""

    id: str
    role: str
    party_id: str | None
    party_role: str | None
    active: bool
    password_hash: str = field(repr=False)


def member_by_email(engine: Engine, email: str) -> Member | None:
    """The user with this (lowercased) address, active or not."""
    with engine.connect() as conn:
        row = conn.execute(
            select(*_WITH_ROLE).select_from(_USER_WITH_ROLE).where(users_t.c.email == email)
        ).one_or_none()
    if row is None:
        return None
    return Member(
        id=row.id,
        role=row.role,
        party_id=row.party_id,
        party_role=row.party_role,
        active=bool(row.active),
        password_hash=row.password_hash,
    )


def load_user(engine: Engine, user_id: str) -> UserAccount | None:
    with engine.connect() as conn:
        row = conn.execute(select(users_t).where(users_t.c.id == user_id)).mappings().first()
    return None if row is None else user_account_of(row)


def active_user_by_email(engine: Engine, email: str) -> UserAccount | None:
    with engine.connect() as conn:
        row = (
            conn.execute(select(users_t).where(users_t.c.email == email, users_t.c.active))
            .mappings()
            .first()
        )
    return None if row is None else user_account_of(row)


def user_email(engine: Engine, user_id: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(select(users_t.c.email).where(users_t.c.id == user_id)).scalar()


class AddUserRefusal(Enum):
    NO_SUCH_PARTY = "no_such_party"
    EMAIL_TAKEN = "email_taken"


@dataclass(frozen=True)
class NewUserRow:
    id: str
    email: str
    role: str
    party_id: str | None
    created_at: str
    password_hash: str = field(repr=False)


def add_user(engine: Engine, user: NewUserRow) -> AddUserRefusal | None:
    """Insert the user, in one transaction with the checks that its party exists and its
    address is free; the refusal, if one failed (nothing is written then)."""
    with engine.begin() as conn:
        if user.party_id is not None:
            found = conn.execute(
                select(parties_t.c.id).where(parties_t.c.id == user.party_id)
            ).first()
            if found is None:
                return AddUserRefusal.NO_SUCH_PARTY
        if conn.execute(select(users_t.c.id).where(users_t.c.email == user.email)).first():
            return AddUserRefusal.EMAIL_TAKEN
        conn.execute(
            users_t.insert().values(
                id=user.id,
                email=user.email,
                role=user.role,
                party_id=user.party_id,
                password_hash=user.password_hash,
                created_at=user.created_at,
                active=True,
            )
        )
    return None


def store_password_hash(engine: Engine, user_id: str, password_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            users_t.update().where(users_t.c.id == user_id).values(password_hash=password_hash)
        )


def users_with_party_names(engine: Engine) -> list[Row[Any]]:
    """Every user with its party's name, by address (the Authority's list)."""
    stmt = (
        select(
            users_t.c.id,
            users_t.c.email,
            users_t.c.role,
            users_t.c.party_id,
            users_t.c.active,
            users_t.c.created_at,
            parties_t.c.name.label("party_name"),
        )
        .select_from(users_t.outerjoin(parties_t, parties_t.c.id == users_t.c.party_id))
        .order_by(users_t.c.email)
    )
    with engine.connect() as conn:
        return list(conn.execute(stmt))


def party_user_rows(engine: Engine, party_id: str, now: str) -> list[Row[Any]]:
    """A party's users by address: each one's party role, since when its second factor
    is on (None: off), and whether an invitation of it is open at `now`."""
    pending = (
        select(invites_t.c.user_id)
        .where(invites_t.c.used_at.is_(None), invites_t.c.expires_at > now)
        .distinct()
    )
    stmt = (
        select(
            users_t.c.id,
            users_t.c.email,
            users_t.c.active,
            users_t.c.created_at,
            members_t.c.party_role,
            creds_t.c.confirmed_at.label("mfa_since"),
            users_t.c.id.in_(pending).label("invite_open"),
        )
        .select_from(
            users_t.outerjoin(members_t, members_t.c.user_id == users_t.c.id).outerjoin(
                creds_t, creds_t.c.user_id == users_t.c.id
            )
        )
        .where(users_t.c.party_id == party_id)
        .order_by(users_t.c.email)
    )
    with engine.connect() as conn:
        return list(conn.execute(stmt))


# Bearer tokens


def add_token(engine: Engine, token_id: str, user_id: str, digest: str, expires_at: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            tokens_t.insert().values(
                id=token_id,
                user_id=user_id,
                token_hash=digest,
                created_at=utcnow_iso(),
                expires_at=expires_at,
            )
        )


def revoke_token(engine: Engine, digest: str, at: str) -> bool:
    """Revoke the live token with this digest; whether there was one."""
    with engine.begin() as conn:
        result = conn.execute(
            tokens_t.update()
            .where(tokens_t.c.token_hash == digest, tokens_t.c.revoked_at.is_(None))
            .values(revoked_at=at)
        )
    return result.rowcount == 1


def revoke_user_tokens(engine: Engine, user_id: str, at: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            tokens_t.update()
            .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
            .values(revoked_at=at)
        )


def live_token_count(engine: Engine, user_id: str) -> int:
    with engine.connect() as conn:
        live = conn.execute(
            select(func.count())
            .select_from(tokens_t)
            .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
        ).scalar_one()
    return int(live)


# Page sessions


@dataclass(frozen=True)
class PageSession:
    user_id: str
    created_at: str
    last_seen_at: str
    revoked_at: str | None


def add_session(engine: Engine, digest: str, user_id: str, at: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            sessions_t.insert().values(id=digest, user_id=user_id, created_at=at, last_seen_at=at)
        )


def load_session(engine: Engine, digest: str) -> PageSession | None:
    with engine.connect() as conn:
        row = conn.execute(select(sessions_t).where(sessions_t.c.id == digest)).first()
    if row is None:
        return None
    return PageSession(row.user_id, row.created_at, row.last_seen_at, row.revoked_at)


def touch_session(engine: Engine, digest: str, at: str) -> None:
    with engine.begin() as conn:
        conn.execute(sessions_t.update().where(sessions_t.c.id == digest).values(last_seen_at=at))


def revoke_session(engine: Engine, digest: str, at: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            sessions_t.update()
            .where(sessions_t.c.id == digest, sessions_t.c.revoked_at.is_(None))
            .values(revoked_at=at)
        )


def revoke_user_sessions(engine: Engine, user_id: str, at: str) -> int:
    """End every live session of the user; how many there were."""
    with engine.begin() as conn:
        result = conn.execute(
            sessions_t.update()
            .where(sessions_t.c.user_id == user_id, sessions_t.c.revoked_at.is_(None))
            .values(revoked_at=at)
        )
    return int(result.rowcount)
