"""A sign-in refused as busy (the hashing pool full, as under a flood) counts against its
address, so a flood from one address is locked and refused before any hashing sooner;
it never counts against the account it names (issue 27, the bad-login flood)."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import Engine, select

from market.adapters.tables import LoginFailure
from market.services.identity import identity, passwords, signin
from market.services.identity.passwords import HashingBusyError
from market.services.identity.throttle import Policy, TooManyAttemptsError

failures_t = LoginFailure.__table__  # type: ignore[attr-defined]


def test_busy_refusals_lock_the_address_not_the_account(engine: Engine) -> None:
    identity.create_user(engine, "eda@example.com", "authority", "a-long-passphrase")
    policy = signin.SignInPolicy(throttle=Policy(max_failures=3, max_per_address=3))
    passwords.configure(1, 0.01)
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with passwords.POOL:
            entered.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert entered.wait(5)
        for _ in range(3):
            with pytest.raises(HashingBusyError):
                signin.first_factor(engine, "eda@example.com", "x" * 12, "10.0.0.9", policy)
        with pytest.raises(TooManyAttemptsError):  # refused before the pool is asked
            signin.first_factor(engine, "eda@example.com", "x" * 12, "10.0.0.9", policy)
    finally:
        release.set()
        holder.join()
        passwords.configure(1, 0.02)
    with engine.connect() as conn:
        keys = {r.key: r.failures for r in conn.execute(select(failures_t))}
    assert keys == {"address:10.0.0.9": 3}
    # The account itself is not locked: from another address, the password works.
    actor = signin.first_factor(engine, "eda@example.com", "a-long-passphrase", "10.0.0.8", policy)
    assert actor.role == "authority"


def test_a_second_attempt_from_the_same_address_is_busy_without_hashing(engine: Engine) -> None:
    """One attempt per address at a time (per process): the next from that address is
    refused as busy at once and counted against the address, even with a slot free; another
    address is served."""
    identity.create_user(engine, "eda@example.com", "authority", "a-long-passphrase")
    policy = signin.SignInPolicy(throttle=Policy(max_failures=3, max_per_address=3))
    passwords.configure(2, 5.0)
    entered, release = threading.Event(), threading.Event()

    def hold() -> None:
        with passwords.POOL.attempt("10.0.0.9"):
            entered.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert entered.wait(5)
        for _ in range(3):
            with pytest.raises(HashingBusyError):
                signin.first_factor(engine, "nobody@example.com", "x" * 12, "10.0.0.9", policy)
        with pytest.raises(TooManyAttemptsError):
            signin.first_factor(engine, "nobody@example.com", "x" * 12, "10.0.0.9", policy)
        actor = signin.first_factor(
            engine, "eda@example.com", "a-long-passphrase", "10.0.0.8", policy
        )
        assert actor.role == "authority"
    finally:
        release.set()
        holder.join()
        passwords.configure(1, 0.02)
    with engine.connect() as conn:
        keys = {r.key: r.failures for r in conn.execute(select(failures_t))}
    assert keys == {"address:10.0.0.9": 3}
