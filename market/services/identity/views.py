"""What the identity use cases answer, as the API returns it and the pages show it."""

from __future__ import annotations

from typing import TypedDict


class NewUser(TypedDict):
    id: str
    email: str
    role: str
    party_id: str | None


class InvitedUser(TypedDict):
    id: str
    email: str
    party_id: str
    role: str


class InviteHolder(TypedDict):
    """Whose invitation a live link is."""

    user_id: str
    email: str | None


class ListedUser(TypedDict):
    """A line of the Authority's user list."""

    id: str
    email: str
    role: str
    party_id: str | None
    active: bool
    created_at: str
    party_name: str | None


class PartyUser(TypedDict):
    """A line of a party's user page: its role, whether active, MFA on, invited."""

    id: str
    email: str
    role: str
    active: bool
    mfa_enrolled: bool
    invite_open: bool
    created_at: str


class Deactivated(TypedDict):
    id: str
    active: bool
    tokens_revoked: int
    sessions_ended: int


class MfaReset(TypedDict):
    id: str
    mfa_enrolled: bool
    credential_removed: bool


class PasswordReplaced(TypedDict):
    """The Authority's reset of a user's password, and the tokens it revoked."""

    id: str
    email: str
    tokens_revoked: int
