"""The failed-sign-in counts live in the database, so every worker shares them; the
lockout doubles per further failure up to its ceiling, and old counts are forgotten."""

from __future__ import annotations

import pytest
from sqlalchemy import Engine

from market.services.identity import throttle
from market.services.identity.throttle import Policy, TooManyAttemptsError

POLICY = Policy(max_failures=3, max_per_address=100, lockout_s=60, lockout_max_s=300)
T0 = 1_800_000_000.0


def _fail(engine: Engine, n: int, at: float, address: str = "192.0.2.1") -> None:
    for _ in range(n):
        throttle.record_failure(engine, "a@example.com", address, POLICY, now=at)


def test_the_lock_starts_at_the_limit_and_doubles(engine: Engine) -> None:
    _fail(engine, 2, T0)
    throttle.check(engine, "a@example.com", "192.0.2.1", now=T0)
    _fail(engine, 1, T0)
    with pytest.raises(TooManyAttemptsError) as e:
        throttle.check(engine, "a@example.com", None, now=T0 + 1)
    assert e.value.retry_after == 59
    throttle.check(engine, "a@example.com", None, now=T0 + 60)  # the lock is over
    _fail(engine, 1, T0 + 60)  # the fourth failure: 120 s
    with pytest.raises(TooManyAttemptsError) as e:
        throttle.check(engine, "a@example.com", None, now=T0 + 60)
    assert e.value.retry_after == 120
    _fail(engine, 5, T0 + 200)  # far past: capped at lockout_max_s
    with pytest.raises(TooManyAttemptsError) as e:
        throttle.check(engine, "a@example.com", None, now=T0 + 200)
    assert e.value.retry_after == 300


def test_a_success_clears_the_account_not_the_address(engine: Engine) -> None:
    strict = Policy(max_failures=3, max_per_address=4, lockout_s=60, lockout_max_s=60)
    for _ in range(2):
        throttle.record_failure(engine, "a@example.com", "192.0.2.9", strict, now=T0)
    throttle.record_success(engine, "a@example.com")
    for _ in range(2):
        throttle.record_failure(engine, "a@example.com", "192.0.2.9", strict, now=T0)
    throttle.check(engine, "a@example.com", None, now=T0)  # account at 2 of 3
    with pytest.raises(TooManyAttemptsError):
        throttle.check(engine, "b@example.com", "192.0.2.9", now=T0)  # address at 4 of 4


def test_a_count_a_day_old_starts_again(engine: Engine) -> None:
    _fail(engine, 2, T0)
    _fail(engine, 1, T0 + throttle.FORGET_AFTER_S + 1)
    throttle.check(engine, "a@example.com", None, now=T0 + throttle.FORGET_AFTER_S + 2)


def test_emails_are_counted_case_insensitively(engine: Engine) -> None:
    for email in ("A@Example.com", "a@example.COM", " a@example.com "):
        throttle.record_failure(engine, email, None, POLICY, now=T0)
    with pytest.raises(TooManyAttemptsError):
        throttle.check(engine, "a@example.com", None, now=T0)


def test_the_process_that_locks_a_key_knows_it_without_reading_it(engine: Engine) -> None:
    """The gate in front of Flask refuses the next attempt at once (`seen_lock`, no
    database read); before the limit nothing is known."""
    _fail(engine, 2, T0, address="192.0.2.7")
    assert throttle.seen_lock(engine, "a@example.com", "192.0.2.7", now=T0) == 0
    _fail(engine, 1, T0, address="192.0.2.7")
    assert throttle.seen_lock(engine, "a@example.com", None, now=T0 + 1) == 59
    assert throttle.seen_lock(engine, "b@example.com", "192.0.2.7", now=T0) == 0
