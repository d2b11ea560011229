"""The reads and writes of the sign-in guards (services/identity/mfa.py, throttle.py): a
user's TOTP credential and recovery codes (kept as digests), and the failure counters
of the throttle. Each function is one short transaction of its own, as the use cases
had them; the compare-and-set and the upsert stay single statements."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field

from sqlalchemy import Engine, case, select
from sqlalchemy.dialects import postgresql, sqlite

from market.adapters.tables import LoginFailure, MfaCredential, MfaRecoveryCode

creds_t = MfaCredential.__table__  # type: ignore[attr-defined]
codes_t = MfaRecoveryCode.__table__  # type: ignore[attr-defined]
failures_t = LoginFailure.__table__  # type: ignore[attr-defined]
# (key, its count of failures now) -> seconds to lock it for, or None: not locked.
LockRule = Callable[[str, int], int | None]


@dataclass(frozen=True)
class TotpCredential:
    secret: str = field(repr=False)
    confirmed_at: str | None


def load_credential(engine: Engine, user_id: str) -> TotpCredential | None:
    with engine.connect() as conn:
        row = conn.execute(select(creds_t).where(creds_t.c.user_id == user_id)).first()
    return None if row is None else TotpCredential(str(row.secret), row.confirmed_at)


def confirmed_at(engine: Engine, user_id: str) -> str | None:
    """When the user's second factor was put in force (None: not, or no credential)."""
    with engine.connect() as conn:
        row = conn.execute(
            select(creds_t.c.confirmed_at).where(creds_t.c.user_id == user_id)
        ).first()
    return None if row is None else row.confirmed_at


def replace_credential(engine: Engine, user_id: str, secret: str, at: str) -> None:
    """A new unconfirmed secret in place of any credential of the user."""
    with engine.begin() as conn:
        conn.execute(creds_t.delete().where(creds_t.c.user_id == user_id))
        conn.execute(creds_t.insert().values(user_id=user_id, secret=secret, created_at=at))


def put_in_force(engine: Engine, user_id: str, step: int, at: str, code_digests: list[str]) -> None:
    """Confirm the credential at TOTP step `step`, with these recovery codes only."""
    with engine.begin() as conn:
        conn.execute(
            creds_t.update()
            .where(creds_t.c.user_id == user_id)
            .values(confirmed_at=at, last_step=step)
        )
        conn.execute(codes_t.delete().where(codes_t.c.user_id == user_id))
        conn.execute(
            codes_t.insert(),
            [{"id": uuid.uuid4().hex, "user_id": user_id, "code_hash": d} for d in code_digests],
        )


def take_step(engine: Engine, user_id: str, step: int) -> bool:
    """Compare-and-set: record `step` as used unless it (or a later one) already was."""
    with engine.begin() as conn:
        done = conn.execute(
            creds_t.update()
            .where(creds_t.c.user_id == user_id)
            .where((creds_t.c.last_step.is_(None)) | (creds_t.c.last_step < step))
            .values(last_step=step)
        ).rowcount
    return bool(done == 1)


def spend_recovery_code(engine: Engine, user_id: str, code_digest: str, at: str) -> bool:
    """Spend the user's unused recovery code with this digest; whether there was one."""
    with engine.begin() as conn:
        spent = conn.execute(
            codes_t.update()
            .where(
                codes_t.c.user_id == user_id,
                codes_t.c.code_hash == code_digest,
                codes_t.c.used_at.is_(None),
            )
            .values(used_at=at)
        ).rowcount
    return bool(spent == 1)


def recovery_codes_left(engine: Engine, user_id: str) -> int:
    with engine.connect() as conn:
        rows = conn.execute(
            select(codes_t.c.id).where(codes_t.c.user_id == user_id, codes_t.c.used_at.is_(None))
        ).all()
    return len(rows)


# The throttle's counters (login_failures)


def locks_in_force(engine: Engine, keys: list[str], now_s: int) -> list[tuple[str, int]]:
    """The keys among `keys` locked after `now_s`, with the second each lock ends."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(failures_t.c.key, failures_t.c.locked_until).where(
                failures_t.c.key.in_(keys), failures_t.c.locked_until > now_s
            )
        ).all()
    return [(str(key), int(until)) for key, until in rows]


@dataclass(frozen=True)
class FailureCount:
    """One failure to count against `key` at `now_s`; a count whose last failure is older
    than `forget_after_s` starts again."""

    key: str
    now_s: int
    forget_after_s: int


def count_failures(
    engine: Engine, failures: list[FailureCount], lock_for: LockRule
) -> list[tuple[str, int]]:
    """Count each failure (one atomic upsert each, in one transaction), locking a key
    whose count reached its limit; the keys locked, with the second each lock ends."""
    locked: list[tuple[str, int]] = []
    with engine.begin() as conn:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        for f in failures:
            stmt = dialect.insert(failures_t).values(
                key=f.key, failures=1, last_failed_at=f.now_s, locked_until=0
            )
            stale = failures_t.c.last_failed_at < f.now_s - f.forget_after_s
            stmt = stmt.on_conflict_do_update(
                index_elements=["key"],
                set_={
                    "failures": case((stale, 1), else_=failures_t.c.failures + 1),
                    "last_failed_at": f.now_s,
                },
            ).returning(failures_t.c.failures)
            count = conn.execute(stmt).scalar_one()
            lock = lock_for(f.key, int(count))
            if lock is not None:
                conn.execute(
                    failures_t.update()
                    .where(failures_t.c.key == f.key)
                    .values(locked_until=f.now_s + lock)
                )
                locked.append((f.key, f.now_s + lock))
    return locked


def clear_failures(engine: Engine, key: str) -> None:
    with engine.begin() as conn:
        conn.execute(failures_t.delete().where(failures_t.c.key == key))


def count_in_window(engine: Engine, key: str, now_s: int, window_s: int) -> tuple[int, int]:
    """Count one request against `key` in a fixed window of `window_s` seconds; (the
    count so far, the second its window started). One upsert: the window starts again
    once it is over."""
    with engine.begin() as conn:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        over = failures_t.c.last_failed_at <= now_s - window_s
        stmt = (
            dialect.insert(failures_t)
            .values(key=key, failures=1, last_failed_at=now_s, locked_until=0)
            .on_conflict_do_update(
                index_elements=["key"],
                set_={
                    "failures": case((over, 1), else_=failures_t.c.failures + 1),
                    "last_failed_at": case((over, now_s), else_=failures_t.c.last_failed_at),
                },
            )
            .returning(failures_t.c.failures, failures_t.c.last_failed_at)
        )
        count, started = conn.execute(stmt).one()
    return int(count), int(started)
