"""Server-side page sessions, revocable (OWASP ASVS 3.3).

The signed cookie carries a random secret; the `web_sessions` row is keyed by its HMAC
under the token hash key (services/identity/token_digest.py), so neither a copy of the table nor a
row written into it opens a session. A session ends at sign-out, at a password change
(every session of the user), after `idle` without a request and `absolute` after sign-in,
whichever comes first. `last_seen_at` is written at most once a minute per session, so an
ordinary page view costs one indexed read.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine

from market.adapters.repositories import identity as repo
from market.services.identity.token_digest import TokenHasher

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TOUCH_EVERY = timedelta(seconds=60)


@dataclass(frozen=True)
class Limits:
    idle: timedelta = timedelta(minutes=30)
    absolute: timedelta = timedelta(hours=12)


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime(_FORMAT)


def _parse(text: str) -> datetime:
    return datetime.strptime(text, _FORMAT).replace(tzinfo=UTC)


def start(engine: Engine, hasher: TokenHasher, user_id: str, now: datetime | None = None) -> str:
    """A new session for `user_id`; returns the secret the cookie carries."""
    secret = secrets.token_urlsafe(32)
    repo.add_session(engine, hasher.digest(secret), user_id, _iso(now or datetime.now(UTC)))
    return secret


def user_for(
    engine: Engine,
    hasher: TokenHasher,
    secret: str,
    limits: Limits,
    now: datetime | None = None,
) -> str | None:
    """The user of a live session (touching it), or None if it is unknown, revoked,
    idle too long or too old."""
    now = now or datetime.now(UTC)
    digest = hasher.digest(secret)
    row = repo.load_session(engine, digest)
    if row is None or row.revoked_at is not None:
        return None
    last_seen = _parse(row.last_seen_at)
    if now - last_seen > limits.idle or now - _parse(row.created_at) > limits.absolute:
        revoke(engine, hasher, secret)
        return None
    if now - last_seen >= _TOUCH_EVERY:
        repo.touch_session(engine, digest, _iso(now))
    return str(row.user_id)


def revoke(engine: Engine, hasher: TokenHasher, secret: str) -> None:
    repo.revoke_session(engine, hasher.digest(secret), _iso(datetime.now(UTC)))


def revoke_all(engine: Engine, user_id: str) -> int:
    return repo.revoke_user_sessions(engine, user_id, _iso(datetime.now(UTC)))
