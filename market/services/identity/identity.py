"""Users, passwords (argon2) and bearer tokens (stored as HMAC-SHA256 under a key kept
outside the database, services/identity/token_digest.py; revocable)."""

from __future__ import annotations

import secrets
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, bindparam, select

from market.adapters.eventstore import utcnow_iso
from market.adapters.queries import Query
from market.adapters.tables import ApiToken, Party, PartyMembership, User
from market.domain.errors import InvalidRequestError
from market.services.identity import account_log, passwords, web_sessions
from market.services.identity.token_digest import TokenHasher
from market.services.identity.views import NewUser
from market.services.kernel.actor import OWNER, PARTICIPANT, ROLES, Actor
from market.services.kernel.errors import ConflictError, NotFoundError, UnauthorizedError

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
parties_t = Party.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]
# A user with its role in its party (no membership row: an owner, as before roles).
_USER_WITH_ROLE = users_t.outerjoin(members_t, members_t.c.user_id == users_t.c.id)
_WITH_ROLE = (users_t, members_t.c.party_role)


def _actor(user: Any) -> Actor:
    return Actor(
        user_id=user.id,
        role=user.role,
        party_id=user.party_id,
        party_role=user.party_role or OWNER,
    )


# Verifying against a fixed hash when the email is unknown keeps timing uniform.
_DUMMY_HASH = passwords.HASHER.hash("not-a-real-password")


def create_user(
    engine: Engine, email: str, role: str, password: str, party_id: str | None = None
) -> NewUser:
    email = email.strip().lower()
    if role not in ROLES:
        raise InvalidRequestError(f"Role must be one of {', '.join(ROLES)}.", {"role": role})
    if "@" not in email or len(email) > 254:
        raise InvalidRequestError("That is not an email address.", {"email": email})
    passwords.check_policy(password, email)
    if role == PARTICIPANT and not party_id:
        raise InvalidRequestError("A participant must belong to a party (--party).", {})
    with engine.begin() as conn:
        if party_id is not None:
            found = conn.execute(select(parties_t.c.id).where(parties_t.c.id == party_id)).first()
            if found is None:
                raise NotFoundError(f"Party {party_id} does not exist.", {"party_id": party_id})
        if conn.execute(select(users_t.c.id).where(users_t.c.email == email)).first():
            raise ConflictError(f"A user with email {email} already exists.", {"email": email})
        user = NewUser(id=uuid.uuid4().hex, email=email, role=role, party_id=party_id)
        conn.execute(
            users_t.insert().values(
                **user,
                password_hash=passwords.hash_password(password),
                created_at=utcnow_iso(),
                active=True,
            )
        )
    return user


def check_password(engine: Engine, email: str, password: str) -> Actor:
    with engine.connect() as conn:
        user = conn.execute(
            select(*_WITH_ROLE)
            .select_from(_USER_WITH_ROLE)
            .where(users_t.c.email == email.strip().lower())
        ).one_or_none()
    if not passwords.verify(user.password_hash if user else _DUMMY_HASH, password):
        user = None
    if user is None or not user.active:
        raise UnauthorizedError("The email or password is wrong.", {})
    if passwords.needs_rehash(user.password_hash):
        # Parameters changed since this hash was made: store one with today's.
        _store_hash(engine, user.id, passwords.hash_password(password))
    return _actor(user)


def _store_hash(engine: Engine, user_id: str, password_hash: str) -> None:
    with engine.begin() as conn:
        conn.execute(
            users_t.update().where(users_t.c.id == user_id).values(password_hash=password_hash)
        )


def set_password(engine: Engine, user_id: str, new_password: str) -> None:
    """Give a user a new password (policy-checked), and end every page session and bearer
    token they hold: whoever knew the old password is signed out. Used by the change-
    password page and meant for the e-mailed reset flow too."""
    email = user_email(engine, user_id)
    if email is None:
        raise NotFoundError("No such user.", {})
    passwords.check_policy(new_password, email)
    _store_hash(engine, user_id, passwords.hash_password(new_password))
    web_sessions.revoke_all(engine, user_id)
    with engine.begin() as conn:
        conn.execute(
            tokens_t.update()
            .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
            .values(revoked_at=utcnow_iso())
        )
    account_log.record(engine, user_id, "password_changed")


def change_password(engine: Engine, user_id: str, current: str, new_password: str) -> None:
    """The signed-in user's own change: the current password must be right."""
    email = user_email(engine, user_id) or ""
    try:
        check_password(engine, email, current)
    except UnauthorizedError as e:
        raise UnauthorizedError("Your current password is wrong.", {}) from e
    set_password(engine, user_id, new_password)


def issue_token(engine: Engine, actor: Actor, ttl_hours: int, hasher: TokenHasher) -> str:
    token = secrets.token_urlsafe(32)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            tokens_t.insert().values(
                id=uuid.uuid4().hex,
                user_id=actor.user_id,
                token_hash=hasher.digest(token),
                created_at=utcnow_iso(),
                expires_at=(now + timedelta(hours=ttl_hours)).strftime("%Y-%m-%dT%H:%M:%S.%fZ"),
            )
        )
    return token


_TOKEN_OWNER = Query(
    select(tokens_t.c.expires_at, tokens_t.c.revoked_at, *_WITH_ROLE)
    .join(users_t, users_t.c.id == tokens_t.c.user_id)
    .outerjoin(members_t, members_t.c.user_id == users_t.c.id)
    .where(tokens_t.c.token_hash == bindparam("digest"))
)


def actor_for_token(engine: Engine, token: str, hasher: TokenHasher) -> Actor:
    """Checked on every request (a revoked token stops working at once): one statement."""
    row = _TOKEN_OWNER.first_autocommit(engine, {"digest": hasher.digest(token)})
    if (
        row is None
        or row["revoked_at"] is not None
        or not row["active"]
        or row["expires_at"] < utcnow_iso()
    ):
        raise UnauthorizedError("The bearer token is unknown, expired or revoked.", {})
    return Actor(
        user_id=row["id"],
        role=row["role"],
        party_id=row["party_id"],
        party_role=row["party_role"] or OWNER,
    )


def revoke_token(engine: Engine, token: str, hasher: TokenHasher) -> bool:
    with engine.begin() as conn:
        result = conn.execute(
            tokens_t.update()
            .where(tokens_t.c.token_hash == hasher.digest(token), tokens_t.c.revoked_at.is_(None))
            .values(revoked_at=utcnow_iso())
        )
    return result.rowcount == 1


_USER_BY_ID = Query(
    select(*_WITH_ROLE).select_from(_USER_WITH_ROLE).where(users_t.c.id == bindparam("user_id"))
)


def actor_for_user_id(engine: Engine, user_id: str) -> Actor | None:
    user = _USER_BY_ID.first_autocommit(engine, {"user_id": user_id})
    if user is None or not user["active"]:
        return None
    return Actor(
        user_id=user["id"],
        role=user["role"],
        party_id=user["party_id"],
        party_role=user["party_role"] or OWNER,
    )


def actor_for_email(engine: Engine, email: str) -> Actor | None:
    """The active user with this e-mail (addresses are stored lowercased)."""
    with engine.connect() as conn:
        user = conn.execute(
            select(*_WITH_ROLE)
            .select_from(_USER_WITH_ROLE)
            .where(users_t.c.email == email.strip().lower())
        ).first()
    if user is None or not user.active:
        return None
    return _actor(user)


def user_email(engine: Engine, user_id: str) -> str | None:
    with engine.connect() as conn:
        return conn.execute(select(users_t.c.email).where(users_t.c.id == user_id)).scalar()
