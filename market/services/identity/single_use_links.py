"""Single-use e-mailed links (registration's e-mail check, set-your-password invitations),
made like the password-reset links (password_reset.py): a random token (32 bytes) whose
HMAC only is stored (token_digest.py), an expiry, spent once under a compare-and-set, and
the e-mail put in the outbox for the worker (never sent inside the request)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from sqlalchemy import Engine, Table
from sqlalchemy.engine import Connection

from market.adapters.repositories import identity_links as links
from market.adapters.repositories.identity_models import SingleUseLink
from market.domain.commands.identity import LinkMail
from market.domain.errors import InvalidRequestError
from market.services.identity.token_digest import TokenHasher
from market.services.kernel import clock
from market.services.kernel.numbering import new_id
from market.services.notify.delivery import iso
from market.services.notify.mail_render import absolute, render_email

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
    ((_, owner_id),) = owner.items()
    link = SingleUseLink(
        token_hash=hasher.digest(token),
        owner_id=owner_id,
        created_at=iso(now),
        expires_at=iso(now + valid_for),
        used_at=None,
    )
    links.replace_links(conn, table, link)
    return token


def live(conn: Connection, table: Table, hasher: TokenHasher, token: str) -> SingleUseLink:
    """The link if it is unused and unexpired, else `link_invalid`."""
    return _usable(links.find_link(conn, table, hasher.digest(token[:MAX_TOKEN])))


def live_now(engine: Engine, table: Table, hasher: TokenHasher, token: str) -> SingleUseLink:
    """The same, in a connection of its own."""
    return _usable(links.find_link_now(engine, table, hasher.digest(token[:MAX_TOKEN])))


def _usable(link: SingleUseLink | None) -> SingleUseLink:
    if link is None or link.used_at is not None or link.expires_at <= iso(clock.now_utc()):
        raise LinkInvalidError(
            "This link is not valid any more (used, expired or replaced by a newer one).", {}
        )
    return link


def spend(conn: Connection, table: Table, hasher: TokenHasher, token: str) -> SingleUseLink:
    """Check and spend the link in one transaction; a concurrent spend loses."""
    row = live(conn, table, hasher, token)
    if not links.spend_link(conn, table, row.token_hash, iso(clock.now_utc())):
        raise LinkInvalidError("This link was used a moment ago.", {})
    return row


def queue_mail(conn: Connection, mail: LinkMail) -> None:
    """One e-mail in the outbox (`kind` names it; unique with a random suffix)."""
    text, html = render_email(mail.subject, mail.body, absolute(mail.link))
    row = links.LinkMailRow(
        id=new_id("eml"),
        user_id=mail.user_id,
        type=f"{mail.kind}_{secrets.token_hex(12)}"[:64],
        to_addr=mail.to,
        subject=mail.subject,
        text_body=text,
        html_body=html,
        at=iso(clock.now_utc()),
    )
    links.queue_link_mail(conn, row)
