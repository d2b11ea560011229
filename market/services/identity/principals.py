"""Who a bearer token speaks for: its principal, read with the auth epoch it was read at.

A revoked token stops working at once. Every read that resolves a token takes one
statement (`principal_for_token`); a ledger write may instead take a principal a process
kept (market/api/principals.py) and check it under the ledger head: the auth epoch the
write transaction read with the head (`uow.auth_epoch`) must be the one the principal was
read at (`principal_current`), or the principal is read again inside that transaction.
The database moves the epoch whenever a token, a user's role, party or active flag, or a
party membership changes (migration 0024), including by a hand-written row.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import utcnow_iso
from market.adapters.projections.store import Row
from market.adapters.queries import Query
from market.adapters.tables import ApiToken, AuthEpoch, PartyMembership, User
from market.services.kernel.actor import OWNER, Actor
from market.services.kernel.errors import UnauthorizedError
from market.services.kernel.uow import UnitOfWork

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]
epoch_t = AuthEpoch.__table__  # type: ignore[attr-defined]

_TOKEN_OWNER = Query(
    select(
        tokens_t.c.expires_at,
        tokens_t.c.revoked_at,
        users_t.c.id,
        users_t.c.role,
        users_t.c.party_id,
        users_t.c.active,
        members_t.c.party_role,
        select(epoch_t.c.n).where(epoch_t.c.id == 1).scalar_subquery().label("auth_epoch"),
    )
    .join(users_t, users_t.c.id == tokens_t.c.user_id)
    .outerjoin(members_t, members_t.c.user_id == users_t.c.id)
    .where(tokens_t.c.token_hash == bindparam("digest"))
)
REFUSED = "The bearer token is unknown, expired or revoked."


@dataclass(frozen=True)
class Principal:
    """A token's actor, until when it may act (`expires_at`, ISO UTC), and the auth epoch
    it was read at (None: the epoch's row is missing, so it is never kept)."""

    actor: Actor
    expires_at: str
    auth_epoch: int | None

    def expired(self) -> bool:
        return self.expires_at < utcnow_iso()


def _principal(row: Row | None) -> Principal:
    if row is None or row["revoked_at"] is not None or not row["active"]:
        raise UnauthorizedError(REFUSED, {})
    actor = Actor(
        user_id=row["id"],
        role=row["role"],
        party_id=row["party_id"],
        party_role=row["party_role"] or OWNER,
    )
    found = Principal(actor, row["expires_at"], row["auth_epoch"])
    if found.expired():
        raise UnauthorizedError(REFUSED, {})
    return found


def principal_for_token(engine: Engine, digest: str) -> Principal:
    """The token's principal, read outside a transaction (one statement); refused
    (401 `unauthorized`) if the token is unknown, revoked or expired, or its user inactive."""
    return _principal(_TOKEN_OWNER.first_autocommit(engine, {"digest": digest}))


def principal_on(conn: Connection, digest: str) -> Principal:
    """The same, read on a transaction's connection (a write's, under the ledger head)."""
    return _principal(_TOKEN_OWNER.first(conn, {"digest": digest}))


def principal_current(uow: UnitOfWork, digest: str, kept: Principal) -> Principal:
    """Inside a write, under the ledger head: `kept` if the auth epoch has not moved since
    it was read (no statement); else the principal read again in this transaction. A
    principal that changed in any way is refused: the request was authorised as it was."""
    if kept.auth_epoch is not None and uow.auth_epoch == kept.auth_epoch and not kept.expired():
        return kept
    now = principal_on(uow.conn, digest)
    if now.actor != kept.actor:
        raise UnauthorizedError("The bearer token's rights changed; send the request again.", {})
    return now
