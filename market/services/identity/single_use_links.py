"""Single-use e-mailed links (registration's e-mail check, set-your-password invitations),
made like the password-reset links (password_reset.py): a random token (32 bytes) whose
HMAC only is stored (token_digest.py), an expiry, spent once under a compare-and-set, and
the e-mail put in the outbox for the worker (never sent inside the request)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Connection

from market.adapters.repositories.identity_models import SingleUseLink, link_of
from market.adapters.tables import EmailMessage
from market.domain.commands.identity import LinkMail
from market.domain.errors import InvalidRequestError
from market.services.identity.token_digest import TokenHasher
from market.services.kernel import clock
from market.services.kernel.numbering import new_id
from market.services.notify.delivery import iso
from market.services.notify.mail_render import absolute, render_email

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
MAX_TOKEN = 100


class LinkInvalidError(InvalidRequestError):
    code = "link_invalid"


def issue(
    conn: Connection,
    table: Table,
    hasher: TokenHasher,
    owner: dict[str, str],
    valid_for: timedelta,
) -> str:
    """A new token for `owner` (its column: value); earlier unused links of that owner
    stop working. Returns the token (to put in the e-mail only)."""
    token = secrets.token_urlsafe(32)
    now = clock.now_utc()
    ((column, value),) = owner.items()
    conn.execute(
        update(table)
        .where(table.c[column] == value, table.c.used_at.is_(None))
        .values(used_at=iso(now))
    )
    conn.execute(
        insert(table).values(
            token_hash=hasher.digest(token),
            created_at=iso(now),
            expires_at=iso(now + valid_for),
            **owner,
        )
    )
    return token


def live(conn: Connection, table: Table, hasher: TokenHasher, token: str) -> SingleUseLink:
    """The link if it is unused and unexpired, else `link_invalid`."""
    row = (
        conn.execute(select(table).where(table.c.token_hash == hasher.digest(token[:MAX_TOKEN])))
        .mappings()
        .first()
    )
    link = None if row is None else link_of(table, row)
    if link is None or link.used_at is not None or link.expires_at <= iso(clock.now_utc()):
        raise LinkInvalidError(
            "This link is not valid any more (used, expired or replaced by a newer one).", {}
        )
    return link


def spend(conn: Connection, table: Table, hasher: TokenHasher, token: str) -> SingleUseLink:
    """Check and spend the link in one transaction; a concurrent spend loses."""
    row = live(conn, table, hasher, token)
    done = conn.execute(
        update(table)
        .where(table.c.token_hash == row.token_hash, table.c.used_at.is_(None))
        .values(used_at=iso(clock.now_utc()))
    )
    if done.rowcount != 1:
        raise LinkInvalidError("This link was used a moment ago.", {})
    return row


def queue_mail(conn: Connection, mail: LinkMail) -> None:
    """One e-mail in the outbox (`kind` names it; unique with a random suffix)."""
    now = iso(clock.now_utc())
    text, html = render_email(mail.subject, mail.body, absolute(mail.link))
    conn.execute(
        insert(mail_t).values(
            id=new_id("eml"),
            user_id=mail.user_id,
            seq=0,
            type=f"{mail.kind}_{secrets.token_hex(12)}"[:64],
            to_addr=mail.to,
            subject=mail.subject,
            text_body=text,
            html_body=html,
            status="pending",
            attempts=0,
            next_attempt_at=now,
            created_at=now,
        )
    )
