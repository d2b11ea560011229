"""Signing in: throttling, the password, and the second factor when the user enrolled one.

A password sign-in asks both at once (`sign_in`): whatever was wrong, the answer is the
same `unauthorized` (no oracle telling a right password from a wrong one).

Order matters: a locked account or address is refused (429) before any password is
hashed; every wrong password, missing or wrong second factor counts as one failure; only
a complete sign-in clears the account's count. A user who enrolled TOTP needs it
whatever their role (every role may enrol; the account page tells those in
MFA_REQUIRED_ROLES that they must).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from market.domain.commands.identity import SignInAttempt
from market.services.identity import account_log, identity, mfa, passwords, throttle
from market.services.kernel.actor import Actor
from market.services.kernel.errors import UnauthorizedError


@dataclass(frozen=True)
class SignInPolicy:
    throttle: throttle.Policy = field(default_factory=throttle.Policy)
    mfa_roles: frozenset[str] = frozenset({"authority", "auditor"})


def policy_from(settings: Mapping[str, Any]) -> SignInPolicy:
    return SignInPolicy(
        throttle=throttle.Policy(
            max_failures=int(settings.get("LOGIN_MAX_FAILURES", 10)),
            max_per_address=int(settings.get("LOGIN_MAX_FAILURES_PER_ADDRESS", 100)),
            lockout_s=int(settings.get("LOGIN_LOCKOUT_SECONDS", 60)),
            lockout_max_s=int(settings.get("LOGIN_LOCKOUT_MAX_SECONDS", 3600)),
        ),
        mfa_roles=mfa.required_roles(str(settings.get("MFA_REQUIRED_ROLES", ""))),
    )


def first_factor(
    engine: Engine, email: str, password: str, address: str | None, policy: SignInPolicy
) -> Actor:
    throttle.check(engine, email, address)
    try:
        # The whole attempt holds one slot, and one per address (see services/passwords).
        with passwords.POOL.attempt(address):
            try:
                return identity.check_password(engine, email, password)
            except UnauthorizedError:
                throttle.record_failure(engine, email, address, policy.throttle)
                raise
    except passwords.HashingBusyError:
        # A flood keeps the pool full: its address reaches its limit, and is refused
        # before any hashing, the sooner (the account it names is not counted).
        throttle.record_busy_failure(engine, email, address, policy.throttle)
        raise


def needs_second_factor(engine: Engine, actor: Actor) -> bool:
    return mfa.is_enrolled(engine, actor.user_id)


def second_factor(
    engine: Engine, actor: Actor, attempt: SignInAttempt, code: str | None, policy: SignInPolicy
) -> None:
    throttle.check(engine, attempt.email, attempt.address)
    with passwords.POOL:
        try:
            mfa.verify(engine, actor.user_id, code)
        except UnauthorizedError:
            throttle.record_failure(engine, attempt.email, attempt.address, policy.throttle)
            raise


def succeeded(engine: Engine, email: str) -> None:
    """A person signed in to the pages: the count clears, and the audit trail records it
    (issue 28 item 9). A bearer token's issue (`sign_in`) clears the count only."""
    throttle.record_success(engine, email)
    actor = identity.actor_for_email(engine, email)
    if actor is not None:
        account_log.record(engine, actor.user_id, "signed_in")


WRONG_CREDENTIALS = "The email, password or code is wrong."


def sign_in(
    engine: Engine, attempt: SignInAttempt, password: str, otp: str | None, policy: SignInPolicy
) -> Actor:
    """Both steps at once (POST /auth/token, and the sign-in page, whose form always
    has the code field). A wrong password, a right one without its code and a right one
    with a wrong code answer alike (401 `unauthorized`, one message), so the answer
    never tells whether a guessed password was right."""
    try:
        actor = first_factor(engine, attempt.email, password, attempt.address, policy)
        if needs_second_factor(engine, actor):
            second_factor(engine, actor, attempt, otp, policy)
    except UnauthorizedError:
        raise UnauthorizedError(WRONG_CREDENTIALS, {}) from None
    throttle.record_success(engine, attempt.email)  # the pages record the sign-in: `succeeded`
    return actor
