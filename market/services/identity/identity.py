"""Users, passwords (argon2) and bearer tokens (stored as HMAC-SHA256 under a key kept
outside the database, services/identity/token_digest.py; revocable)."""

from __future__ import annotations

import secrets
import uuid
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, bindparam, select

from market.adapters.eventstore import utcnow_iso
from market.adapters.queries import Query
from market.adapters.repositories import identity as repo
from market.adapters.tables import ApiToken, PartyMembership, User
from market.domain.errors import InvalidRequestError
from market.services.identity import account_log, passwords, web_sessions
from market.services.identity.token_digest import TokenHasher
from market.services.identity.views import NewUser
from market.services.kernel.actor import OWNER, PARTICIPANT, ROLES, Actor
from market.services.kernel.errors import ConflictError, NotFoundError, UnauthorizedError

users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]
# A user with its role in its party (no membership row: an owner, as before roles).
_USER_WITH_ROLE = users_t.outerjoin(members_t, members_t.c.user_id == users_t.c.id)
_WITH_ROLE = (users_t, members_t.c.party_role)


def _actor(user: repo.Member) -> Actor:
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
    user = NewUser(id=uuid.uuid4().hex, email=email, role=role, party_id=party_id)
    row = repo.NewUserRow(
        **user, created_at=utcnow_iso(), password_hash=passwords.hash_password(password)
    )
    refused = repo.add_user(engine, row)
    if refused is repo.AddUserRefusal.NO_SUCH_PARTY:
        raise NotFoundError(f"Party {party_id} does not exist.", {"party_id": party_id})
    if refused is repo.AddUserRefusal.EMAIL_TAKEN:
        raise ConflictError(f"A user with email {email} already exists.", {"email": email})
    return user


def check_password(engine: Engine, email: str, password: str) -> Actor:
    user = repo.member_by_email(engine, email.strip().lower())
    if not passwords.verify(user.password_hash if user else _DUMMY_HASH, password):
        user = None
    if user is None or not user.active:
        raise UnauthorizedError("The email or password is wrong.", {})
    if passwords.needs_rehash(user.password_hash):
        # Parameters changed since this hash was made: store one with today's.
        repo.store_password_hash(engine, user.id, passwords.hash_password(password))
    return _actor(user)


def set_password(engine: Engine, user_id: str, new_password: str) -> None:
    """Give a user a new password (policy-checked), and end every page session and bearer
    token they hold: whoever knew the old password is signed out. Used by the change-
    password page and meant for the e-mailed reset flow too."""
    email = user_email(engine, user_id)
    if email is None:
        raise NotFoundError("No such user.", {})
    passwords.check_policy(new_password, email)
    repo.store_password_hash(engine, user_id, passwords.hash_password(new_password))
    web_sessions.revoke_all(engine, user_id)
    repo.revoke_user_tokens(engine, user_id, utcnow_iso())
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
    expires_at = (now + timedelta(hours=ttl_hours)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    repo.add_token(engine, uuid.uuid4().hex, actor.user_id, hasher.digest(token), expires_at)
    return token


def revoke_token(engine: Engine, token: str, hasher: TokenHasher) -> bool:
    return repo.revoke_token(engine, hasher.digest(token), utcnow_iso())


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
    user = repo.member_by_email(engine, email.strip().lower())
    if user is None or not user.active:
        return None
    return _actor(user)


def user_email(engine: Engine, user_id: str) -> str | None:
    return repo.user_email(engine, user_id)
