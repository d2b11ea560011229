"""The password policy (NIST SP 800-63B) and the bounded hashing pool."""

from __future__ import annotations

import threading

import pytest

from market.services.demo import DEMO_PASSWORD
from market.services.identity import passwords
from market.services.identity.passwords import HashingBusyError, WeakPasswordError, check_policy
from market.validation.error_codes import status_of


def test_twelve_characters_are_needed_and_enough() -> None:
    with pytest.raises(WeakPasswordError, match="at least 12"):
        check_policy("eleven-char")
    check_policy("twelve-chars")


def test_the_shipped_list_holds_ten_thousand_common_passwords() -> None:
    common = passwords.common_passwords()
    assert len(common) == 10_000
    assert {"123456", "password", "qwerty", "1qaz2wsx3edc"} <= common


@pytest.mark.parametrize("password", ["1qaz2wsx3edc", "1QAZ2WSX3EDC", "123qweasdzxc"])
def test_a_common_password_is_refused_whatever_its_case(password: str) -> None:
    with pytest.raises(WeakPasswordError, match="most common"):
        check_policy(password)


def test_the_email_is_not_a_password() -> None:
    with pytest.raises(WeakPasswordError, match="e-mail"):
        check_policy("jane.doe.treasury@example.com", "Jane.Doe.Treasury@example.com")
    with pytest.raises(WeakPasswordError, match="e-mail"):
        check_policy("jane.doe.treasury", "jane.doe.treasury@example.com")


def test_the_demo_password_meets_the_policy() -> None:
    check_policy(DEMO_PASSWORD, "eda@demo.nj")


def test_no_composition_rules_a_long_plain_phrase_is_fine() -> None:
    check_policy("correct horse battery staple")


def test_the_pool_refuses_a_hash_that_waits_too_long() -> None:
    passwords.configure(1, 0.05)
    try:
        entered, release = threading.Event(), threading.Event()

        def hold() -> None:
            with passwords.POOL:
                entered.set()
                release.wait(5)

        holder = threading.Thread(target=hold)
        holder.start()
        assert entered.wait(5)
        with pytest.raises(HashingBusyError) as busy:
            passwords.verify(passwords.hash_password("x" * 12), "x" * 12)
        assert status_of(busy.value) == 503 and busy.value.retry_after == 1
        release.set()
        holder.join()
        assert passwords.verify(passwords.HASHER.hash("y" * 12), "y" * 12)
    finally:
        passwords.configure(1, 0.02)


def test_service_parameters_are_argon2id_19_mib_two_passes() -> None:
    from argon2 import PasswordHasher

    service = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
    stored = service.hash("a-long-passphrase")
    assert stored.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert passwords.verify(stored, "a-long-passphrase")


def test_the_pool_is_reentrant_within_a_thread() -> None:
    with passwords.POOL:
        assert passwords.verify(passwords.hash_password("z" * 12), "z" * 12)
    assert passwords.POOL.slots.acquire(timeout=0.01)  # the slot was given back
    passwords.POOL.slots.release()


def test_one_attempt_per_address_at_a_time_the_next_is_busy_at_once() -> None:
    passwords.configure(2, 5.0)  # a free slot, and a wait long enough to notice
    try:
        with passwords.POOL.attempt("10.0.0.9"):
            # Same address from another thread: refused without taking the free slot.
            failed: list[BaseException] = []

            def same() -> None:
                try:
                    with passwords.POOL.attempt("10.0.0.9"):
                        pass
                except HashingBusyError as e:
                    failed.append(e)

            other = threading.Thread(target=same)
            other.start()
            other.join()
            assert len(failed) == 1 and status_of(failed[0]) == 503
            with passwords.POOL.attempt("10.0.0.8"):  # another address takes the free slot
                pass
        with passwords.POOL.attempt("10.0.0.9"):  # given back on the way out
            pass
        with passwords.POOL.attempt(None), passwords.POOL.attempt(None):  # no address known
            pass
        assert passwords.POOL.addresses == set()
    finally:
        passwords.configure(1, 0.02)


def test_the_breached_list_ships_over_a_hundred_thousand_entries() -> None:
    assert passwords._BREACHED.stat().st_size // passwords._RECORD >= 100_000
    assert passwords.is_breached("password1234") and passwords.is_breached("iloveyou1234")


@pytest.mark.parametrize("password", ["password1234", "PASSWORD1234", "qwertyuiop12"])
def test_a_breached_password_is_refused(password: str) -> None:
    with pytest.raises(WeakPasswordError, match="leaked"):
        check_policy(password)


def test_a_password_on_no_list_passes() -> None:
    assert not passwords.is_breached("violet-harbour-tractor-91")
    check_policy("violet-harbour-tractor-91")
