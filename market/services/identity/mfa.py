"""TOTP second factor (RFC 6238 via pyotp; NIST SP 800-63B 5.1.4) with recovery codes.

Enrolment: `begin` stores a fresh secret, unconfirmed; `confirm` with a current code puts
it in force and returns 10 single-use recovery codes, shown once and stored as SHA-256
(each is 40 random bits). `verify` accepts the current code or the one either side of it
(clock drift), never the same time step twice, or an unused recovery code, which it
spends. The secret itself must be stored readable to check codes.
"""

from __future__ import annotations

import base64
import hashlib
import secrets
import time

import pyotp
import segno
from sqlalchemy import Engine

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories import identity_guards as guards
from market.services.identity import account_log
from market.services.kernel.errors import (
    MfaAlreadyEnrolledError,
    MfaNotStartedError,
    UnauthorizedError,
)

ISSUER = "NJ Transfer Certificates"
RECOVERY_CODES = 10


class MfaRequiredError(UnauthorizedError):
    code = "mfa_required"


class MfaInvalidError(UnauthorizedError):
    code = "mfa_invalid"


def required_roles(setting: str) -> frozenset[str]:
    return frozenset(r.strip() for r in setting.split(",") if r.strip())


def is_enrolled(engine: Engine, user_id: str) -> bool:
    return guards.confirmed_at(engine, user_id) is not None


def begin(engine: Engine, user_id: str) -> str:
    """A new unconfirmed secret (replacing an unconfirmed one); refused once enrolled."""
    if is_enrolled(engine, user_id):
        raise MfaAlreadyEnrolledError("Two-step sign-in is already set up.")
    secret = pyotp.random_base32()
    guards.replace_credential(engine, user_id, secret, utcnow_iso())
    return secret


def pending_secret(engine: Engine, user_id: str) -> str | None:
    cred = guards.load_credential(engine, user_id)
    return None if cred is None or cred.confirmed_at is not None else cred.secret


def provisioning_uri(secret: str, email: str) -> str:
    return pyotp.TOTP(secret).provisioning_uri(name=email, issuer_name=ISSUER)


def qr_svg_data_uri(uri: str) -> str:
    """The QR code as an SVG data URI (rendered here: no external service sees the secret)."""
    svg = segno.make(uri, error="m").svg_inline(scale=4)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode()


def code_digest(code: str) -> str:
    return hashlib.sha256(code.strip().lower().replace("-", "").encode()).hexdigest()


_digest = code_digest


def _matching_step(secret: str, code: str, now: float) -> int | None:
    totp = pyotp.TOTP(secret)
    step = int(now) // totp.interval
    code = code.strip().replace(" ", "")
    for s in (step - 1, step, step + 1):
        if secrets.compare_digest(totp.generate_otp(s), code):
            return s
    return None


def new_recovery_code() -> str:
    code = secrets.token_hex(5)
    return f"{code[:5]}-{code[5:]}"


_recovery_code = new_recovery_code


def confirm(engine: Engine, user_id: str, code: str, now: float | None = None) -> list[str]:
    secret = pending_secret(engine, user_id)
    if secret is None:
        raise MfaNotStartedError("Start the set-up first.")
    step = _matching_step(secret, code, now or time.time())
    if step is None:
        raise MfaInvalidError("That code is not the current one; check the app's clock.")
    codes = [_recovery_code() for _ in range(RECOVERY_CODES)]
    guards.put_in_force(engine, user_id, step, utcnow_iso(), [_digest(c) for c in codes])
    account_log.record(engine, user_id, "mfa_enrolled")
    return codes


def verify(engine: Engine, user_id: str, code: str | None, now: float | None = None) -> None:
    """Accept a current TOTP code or an unused recovery code; raise mfa_required/mfa_invalid."""
    if not code or not code.strip():
        raise MfaRequiredError("This account signs in in two steps: send the code (otp).")
    cred = guards.load_credential(engine, user_id)
    if cred is None or cred.confirmed_at is None:
        raise MfaInvalidError("Two-step sign-in is not set up for this account.")
    step = _matching_step(cred.secret, code, now or time.time())
    if step is not None:
        # Compare-and-set: a step already used (or an earlier one) is refused.
        if guards.take_step(engine, user_id, step):
            return
        raise MfaInvalidError("That code was already used; wait for the next one.")
    if not guards.spend_recovery_code(engine, user_id, _digest(code), utcnow_iso()):
        raise MfaInvalidError("The code is wrong or was already used.")


def recovery_codes_left(engine: Engine, user_id: str) -> int:
    return guards.recovery_codes_left(engine, user_id)
