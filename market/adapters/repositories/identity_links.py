"""The single-use links' reads and writes (services/identity: password resets,
invitations, registration checks): found by the token's HMAC digest only, spent under a
compare-and-set. Functions taking a Connection run in the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Engine, Table, insert, select, update
from sqlalchemy.engine import Connection

from market.adapters.repositories.identity_models import SingleUseLink, link_of, owner_column
from market.adapters.tables import ApiToken, EmailMessage, User

mail_t = EmailMessage.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]
tokens_t = ApiToken.__table__  # type: ignore[attr-defined]


def find_link(conn: Connection, table: Table, digest: str) -> SingleUseLink | None:
    row = conn.execute(select(table).where(table.c.token_hash == digest)).mappings().first()
    return None if row is None else link_of(table, row)


def find_link_now(engine: Engine, table: Table, digest: str) -> SingleUseLink | None:
    """The same, in a connection of its own."""
    with engine.connect() as conn:
        return find_link(conn, table, digest)


def replace_links(conn: Connection, table: Table, link: SingleUseLink) -> None:
    """`link` in place of its owner's unused ones, which stop working at its creation."""
    column = owner_column(table)
    conn.execute(
        update(table)
        .where(table.c[column] == link.owner_id, table.c.used_at.is_(None))
        .values(used_at=link.created_at)
    )
    conn.execute(
        insert(table).values(
            {
                "token_hash": link.token_hash,
                "created_at": link.created_at,
                "expires_at": link.expires_at,
                column: link.owner_id,
            }
        )
    )


def spend_link(conn: Connection, table: Table, digest: str, at: str) -> bool:
    """Mark the link used unless it already is; whether this call spent it."""
    done = conn.execute(
        update(table)
        .where(table.c.token_hash == digest, table.c.used_at.is_(None))
        .values(used_at=at)
    )
    return bool(done.rowcount == 1)


@dataclass(frozen=True)
class LinkMailRow:
    """An e-mail carrying a link, as the outbox keeps it until the worker sends it."""

    id: str
    user_id: str
    type: str
    to_addr: str
    subject: str
    text_body: str = field(repr=False)
    html_body: str = field(repr=False)
    at: str


def queue_link_mail(conn: Connection, mail: LinkMailRow) -> None:
    """Into the outbox, pending and due at once (no ledger event: seq 0)."""
    conn.execute(
        insert(mail_t).values(
            id=mail.id,
            user_id=mail.user_id,
            seq=0,
            type=mail.type,
            to_addr=mail.to_addr,
            subject=mail.subject,
            text_body=mail.text_body,
            html_body=mail.html_body,
            status="pending",
            attempts=0,
            next_attempt_at=mail.at,
            created_at=mail.at,
        )
    )


def set_password_revoking_tokens(
    conn: Connection, user_id: str, password_hash: str, at: str
) -> None:
    """What a spent reset link does: the new password hash, and every live bearer token
    of the user revoked at `at`."""
    conn.execute(update(users_t).where(users_t.c.id == user_id).values(password_hash=password_hash))
    conn.execute(
        update(tokens_t)
        .where(tokens_t.c.user_id == user_id, tokens_t.c.revoked_at.is_(None))
        .values(revoked_at=at)
    )
