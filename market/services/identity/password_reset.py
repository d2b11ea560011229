"""Password reset by an e-mailed, single-use link valid 30 minutes (issue 15, item 5).

The request answers the same whatever the address (no account oracle); when an active
user has it, a random token (32 bytes) is made, only its HMAC under the token hash key
(services/identity/token_digest.py) is stored, earlier unused
links of that user stop working, and the e-mail goes into the outbox, sent by the worker
(never inside the request). Using the link sets the password, spends the token, and
revokes the user's API tokens.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters.repositories import identity as repo
from market.adapters.repositories import identity_links as links
from market.adapters.repositories.identity_models import SingleUseLink
from market.adapters.tables import PasswordReset
from market.domain.errors import InvalidRequestError
from market.services.identity import account_log, identity, passwords, throttle, web_sessions
from market.services.identity.token_digest import TokenHasher
from market.services.kernel import clock
from market.services.kernel.numbering import new_id
from market.services.notify.delivery import iso
from market.services.notify.fanout import write_transaction
from market.services.notify.mail_render import absolute, render_email

VALID_FOR = timedelta(minutes=30)
# Reset requests, per address asked for and per client address, in 15 minutes: more are
# refused (429) whether or not an account has the address (no account oracle).
MAX_PER_ACCOUNT = 3
MAX_PER_ADDRESS = 10
WINDOW_S = 15 * 60
resets_t = PasswordReset.__table__  # type: ignore[attr-defined]


class ResetLinkError(InvalidRequestError):
    code = "reset_link_invalid"


def throttle_request(engine: Engine, email: str, client: str | None) -> None:
    """Count the request per e-mail address and per client address; 429 past a limit."""
    keys = [(f"reset-account:{email.strip().lower()[:240]}", MAX_PER_ACCOUNT)]
    if client:
        keys.append((f"reset-address:{client[:45]}", MAX_PER_ADDRESS))
    waits = [throttle.count_request(engine, key, limit, WINDOW_S) for key, limit in keys]
    if max(waits):
        raise throttle.TooManyAttemptsError(max(waits), "reset requests")


def request_reset(
    engine: Engine, hasher: TokenHasher, email: str, client: str | None = None
) -> str | None:
    """Queue the link for `email` if an active user has it (throttled per address and per
    client); the token, for tests only (the caller must never show it). The outbox keeps
    the link until it is sent, then only a body without it (notify/mailer.py)."""
    throttle_request(engine, email, client)
    address = email.strip().lower()[:254]
    user = repo.active_user_by_email(engine, address)
    if user is None:
        return None
    token = secrets.token_urlsafe(32)
    now = clock.now_utc()
    hashed = hasher.digest(token)
    subject = "Reset your password"
    body = (
        "Someone (we hope you) asked to reset the password of your account on the NJ transfer "
        "certificate market. The link below works once, for 30 minutes. If it was not you, "
        "ignore this message: your password stays as it is."
    )
    link = f"/password/reset/{token}"
    text, html = render_email(subject, body, absolute(link))
    reset = SingleUseLink(hashed, user.id, iso(now), iso(now + VALID_FOR), used_at=None)
    mail = links.LinkMailRow(
        id=new_id("eml"),
        user_id=user.id,
        type=f"PASSWORD_RESET_{hashed[:24]}",
        to_addr=user.email,
        subject=subject,
        text_body=text,
        html_body=html,
        at=iso(now),
    )
    with write_transaction(engine) as conn:
        links.replace_links(conn, resets_t, reset)
        links.queue_link_mail(conn, mail)
    return token


def _live(conn: Connection, hasher: TokenHasher, token: str) -> SingleUseLink:
    return _usable(links.find_link(conn, resets_t, hasher.digest(token)))


def _live_now(engine: Engine, hasher: TokenHasher, token: str) -> SingleUseLink:
    return _usable(links.find_link_now(engine, resets_t, hasher.digest(token)))


def _usable(link: SingleUseLink | None) -> SingleUseLink:
    if link is None or link.used_at is not None or link.expires_at <= iso(clock.now_utc()):
        raise ResetLinkError("This reset link is not valid any more: ask for a new one.", {})
    return link


def check_link(engine: Engine, hasher: TokenHasher, token: str) -> None:
    _live_now(engine, hasher, token[:100])


def reset_password(
    engine: Engine, hasher: TokenHasher, token: str, password: str, confirm: str
) -> None:
    if password != confirm:
        raise InvalidRequestError("The two passwords differ.", {})
    user_id = _live_now(engine, hasher, token[:100]).owner_id
    # The same policy as every other way of setting a password (length, common list).
    passwords.check_policy(password, identity.user_email(engine, user_id) or "")
    new_hash = passwords.hash_password(password)
    now = iso(clock.now_utc())
    with write_transaction(engine) as conn:
        link = _live(conn, hasher, token[:100])
        if not links.spend_link(conn, resets_t, link.token_hash, now):
            # used by a concurrent request a moment ago
            raise ResetLinkError("This reset link is not valid any more: ask for a new one.", {})
        links.set_password_revoking_tokens(conn, link.owner_id, new_hash, now)
    # Whoever knew the old password is signed out of the pages too.
    web_sessions.revoke_all(engine, user_id)
    account_log.record(engine, user_id, "password_reset")
