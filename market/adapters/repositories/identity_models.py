"""The identity context's rows as frozen records (services/identity): a user's account
(never its password hash) and a single-use link. The one place their columns become
typed fields."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import RowMapping, Table

# A link table's own columns; the one left names whose link it is (a user, a registration).
LINK_COLUMNS = frozenset({"token_hash", "created_at", "expires_at", "used_at"})


@dataclass(frozen=True)
class UserAccount:
    id: str
    email: str
    role: str
    party_id: str | None
    created_at: str
    active: bool


def user_account_of(row: RowMapping) -> UserAccount:
    return UserAccount(
        id=str(row["id"]),
        email=str(row["email"]),
        role=str(row["role"]),
        party_id=row["party_id"],
        created_at=str(row["created_at"]),
        active=bool(row["active"]),
    )


@dataclass(frozen=True)
class SingleUseLink:
    """A link's stored row: its token's digest, whose it is, and until when it works."""

    token_hash: str
    owner_id: str
    created_at: str
    expires_at: str
    used_at: str | None


def owner_column(table: Table) -> str:
    """The column naming whose link it is (`user_id`, `registration_id`)."""
    (name,) = [c.name for c in table.c if c.name not in LINK_COLUMNS]
    return str(name)


def link_of(table: Table, row: RowMapping) -> SingleUseLink:
    return SingleUseLink(
        token_hash=str(row["token_hash"]),
        owner_id=str(row[owner_column(table)]),
        created_at=str(row["created_at"]),
        expires_at=str(row["expires_at"]),
        used_at=row["used_at"],
    )
