"""The identity commands: who signs in and from where, a user the Authority makes, a user
a party's owner invites, and an e-mail carrying a single-use link."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class SignInAttempt:
    """Who tries to sign in, and from which address: the keys the throttle counts."""

    email: str
    address: str | None


@dataclass(frozen=True)
class CreateUser:
    """A user the Authority makes, with a password it hands over."""

    email: str
    role: str
    password: str = field(repr=False)
    party_id: str | None = None


@dataclass(frozen=True)
class InviteUser:
    """An address invited to `party_id` as owner, preparer or viewer."""

    party_id: str
    email: str
    party_role: str


@dataclass(frozen=True)
class LinkMail:
    """An e-mail carrying a single-use link, for the outbox (`kind` names it)."""

    user_id: str
    to: str
    subject: str
    body: str
    link: str = field(repr=False)
    kind: str
