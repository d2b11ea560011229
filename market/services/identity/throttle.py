"""Throttling of failed sign-ins (NIST SP 800-63B 5.2.2), per account and per client address.

State lives in the `login_failures` table, so every gunicorn worker and every machine
behind the proxy shares it (no extra service; SQLite and PostgreSQL alike). Each key
(`account:<email>`, `address:<ip>`) counts consecutive failures. Once a key reaches its
limit (`max_failures` for an account, `max_per_address` for an address) it is locked for
`lockout_s` seconds, doubled for every further failure, up to `lockout_max_s`; while
locked, attempts are refused at once with 429 and `Retry-After`, before any password is
checked (so a flood costs no hashing). A success clears the account's count (not the
address's: one valid account must not reset a guessing address). A count whose last
failure is older than `FORGET_AFTER_S` starts again. Successful sign-ins and requests
carrying a session or token are never counted.

With the defaults (10, 60 s, doubling to 1 h) an attacker gets at most about 34 guesses
per account per day, well under NIST's ceiling of 100 consecutive failures.
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass

from sqlalchemy import Engine

from market.adapters import metrics
from market.adapters.repositories import identity_guards as guards
from market.domain.errors import DomainError

FORGET_AFTER_S = 24 * 3600
# Locks this process has seen, key -> locked_until: a flood of a locked account is refused
# without a database read (about a third of a refusal's cost). Safe to keep until it
# expires: a lock is only ever extended, and nothing clears it early but an operator
# deleting its row, which other processes then notice within the lock's remaining time.
# Kept per engine (one database each).
_SEEN_LOCKS: weakref.WeakKeyDictionary[Engine, dict[str, int]] = weakref.WeakKeyDictionary()
_SEEN_MAX = 10_000
_seen_guard = threading.Lock()


def _seen(engine: Engine) -> dict[str, int]:
    with _seen_guard:
        return _SEEN_LOCKS.setdefault(engine, {})


def _remember(engine: Engine, key: str, until: int, now_s: int) -> None:
    seen = _seen(engine)
    with _seen_guard:
        if len(seen) >= _SEEN_MAX:
            for stale in [k for k, t in seen.items() if t <= now_s]:
                del seen[stale]
            if len(seen) >= _SEEN_MAX:
                seen.clear()
        seen[key] = until


@dataclass(frozen=True)
class Policy:
    max_failures: int = 10
    max_per_address: int = 100
    lockout_s: int = 60
    lockout_max_s: int = 3600


class TooManyAttemptsError(DomainError):
    code = "too_many_attempts"

    def __init__(self, retry_after: int, what: str = "failed sign-ins") -> None:
        super().__init__(
            f"Too many {what}; try again in {retry_after} seconds.",
            {"retry_after_seconds": retry_after},
        )
        self.retry_after = retry_after


def keys(email: str, address: str | None) -> list[tuple[str, str]]:
    out = [("account", f"account:{email.strip().lower()[:254]}")]
    if address:
        out.append(("address", f"address:{address[:45]}"))
    return out


def check(engine: Engine, email: str, address: str | None, now: float | None = None) -> None:
    """Refuse (429) if the account or the address is locked now."""
    now_s = int(now if now is not None else time.time())
    known = seen_lock(engine, email, address, now_s)
    if known:
        raise TooManyAttemptsError(known)
    names = [k for _, k in keys(email, address)]
    rows = guards.locks_in_force(engine, names, now_s)
    if rows:
        for key, until in rows:
            _remember(engine, key, until, now_s)
        raise TooManyAttemptsError(max(1, max(until for _, until in rows) - now_s))


def seen_lock(engine: Engine, email: str, address: str | None, now: float | None = None) -> int:
    """Seconds left of a lock this process already knows of (0: none known): no database
    read, for the WSGI gate that refuses a flood before Flask sees it."""
    now_s = int(now if now is not None else time.time())
    cached = _seen(engine)
    until = max((cached.get(k, 0) for _, k in keys(email, address)), default=0)
    return max(0, until - now_s)


def _limit(kind: str, policy: Policy) -> int:
    return policy.max_failures if kind == "account" else policy.max_per_address


def record_failure(
    engine: Engine, email: str, address: str | None, policy: Policy, now: float | None = None
) -> None:
    """Count one failure for the account and the address (atomic upsert), locking a key
    that reached its limit."""
    _count_failure(engine, keys(email, address), policy, now)


def record_busy_failure(
    engine: Engine, email: str, address: str | None, policy: Policy, now: float | None = None
) -> None:
    """An attempt refused as busy (the hashing pool full: a flood) counts against its
    address, never against the account it names (so nobody can lock another's account by
    flooding)."""
    counted = [k for k in keys(email, address) if k[0] == "address"]
    _count_failure(engine, counted, policy, now)


def _count_failure(
    engine: Engine, counted: list[tuple[str, str]], policy: Policy, now: float | None
) -> None:
    metrics.count_login_failure()
    now_s = int(now if now is not None else time.time())
    if not counted:
        return
    kinds = dict((key, kind) for kind, key in counted)

    def lock_for(key: str, count: int) -> int | None:
        over = count - _limit(kinds[key], policy)
        if over < 0:
            return None
        return int(min(policy.lockout_s * 2 ** min(over, 30), policy.lockout_max_s))

    failures = [guards.FailureCount(key, now_s, FORGET_AFTER_S) for _, key in counted]
    locked = guards.count_failures(engine, failures, lock_for)
    # The process that set a lock knows it without reading it back: the next attempt on
    # that key is refused by the gate in front of Flask at once.
    for key, until in locked:
        _remember(engine, key, until, now_s)


def record_success(engine: Engine, email: str) -> None:
    guards.clear_failures(engine, keys(email, None)[0][1])


def count_request(
    engine: Engine, key: str, limit: int, window_s: int, now: float | None = None
) -> int:
    """Count one request against `key` in a fixed window of `window_s` seconds (the same
    table, its own key prefix); 0 if within `limit`, else the seconds the window has left.
    One upsert: the window starts again once it is over."""
    now_s = int(now if now is not None else time.time())
    count, started = guards.count_in_window(engine, key, now_s, window_s)
    if count <= limit:
        return 0
    return max(1, started + window_s - now_s)
