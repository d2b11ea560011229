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
