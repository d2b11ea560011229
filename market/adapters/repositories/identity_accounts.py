"""The account administration's writes (services/identity/accounts.py, invitations.py):
deactivation, removing or renewing a second factor, and the invited user. Every function
runs in the caller's transaction (its Connection)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Connection

from market.adapters.tables import (
    AccountInvite,
    ApiToken,
    MfaCredential,
    MfaRecoveryCode,
    Party,
    PartyMembership,
    User,
)

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
invites_t = AccountInvite.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
creds_t = MfaCredential.__table__  # type: ignore[attr-defined]
codes_t = MfaRecoveryCode.__table__  # type: ignore[attr-defined]


def deactivate_user(conn: Connection, user_id: str, at: str) -> int:
    """The user made inactive, its live bearer tokens revoked and its unused invitation
    links spent, at `at`; how many tokens were live."""
    conn.execute(update(users_t).where(users_t.c.id == user_id).values(active=False))
    live = conn.execute(
        update(tokens_t)
        .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
        .values(revoked_at=at)
    ).rowcount
    conn.execute(
        update(invites_t)
        .where(invites_t.c.user_id == user_id, invites_t.c.used_at.is_(None))
        .values(used_at=at)
    )
    return int(live)


def remove_second_factor(conn: Connection, user_id: str) -> bool:
    """The user's recovery codes and TOTP credential deleted; whether it had one."""
    conn.execute(delete(codes_t).where(codes_t.c.user_id == user_id))
    removed = conn.execute(delete(creds_t).where(creds_t.c.user_id == user_id)).rowcount
    return bool(removed == 1)


def replace_recovery_codes(conn: Connection, user_id: str, code_digests: list[str]) -> None:
    conn.execute(delete(codes_t).where(codes_t.c.user_id == user_id))
    conn.execute(
        insert(codes_t),
        [{"id": uuid.uuid4().hex, "user_id": user_id, "code_hash": d} for d in code_digests],
    )


def party_name(conn: Connection, party_id: str) -> str | None:
    return conn.execute(select(parties_t.c.name).where(parties_t.c.id == party_id)).scalar()


def email_taken(conn: Connection, email: str) -> bool:
    return conn.execute(select(users_t.c.id).where(users_t.c.email == email)).first() is not None


@dataclass(frozen=True)
class InvitedUserRow:
    """A participant made by invitation, with a password hash nobody can use yet."""

    id: str
    email: str
    party_id: str
    party_role: str
    invited_by: str | None
    created_at: str
    password_hash: str = field(repr=False)


def add_invited_user(conn: Connection, user: InvitedUserRow, role: str) -> None:
    """The user (of platform role `role`) and its membership of the party."""
    conn.execute(
        insert(users_t).values(
            id=user.id,
            email=user.email,
            password_hash=user.password_hash,
            role=role,
            party_id=user.party_id,
            created_at=user.created_at,
            active=True,
        )
    )
    conn.execute(
        insert(members_t).values(
            user_id=user.id,
            party_id=user.party_id,
            party_role=user.party_role,
            invited_by=user.invited_by,
            created_at=user.created_at,
        )
    )


def set_password_if_active(conn: Connection, user_id: str, password_hash: str) -> bool:
    """The new hash, only if the user is still active; whether it was."""
    done = conn.execute(
        update(users_t)
        .where(users_t.c.id == user_id, users_t.c.active)
        .values(password_hash=password_hash)
    ).rowcount
    return bool(done == 1)
