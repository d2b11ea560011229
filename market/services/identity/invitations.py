"""Users invited by e-mail (issue 29 item 1, issue 28 item 9): the Authority or an owner
of a party names an address and a party role (owner, preparer, viewer); the user is made
with no usable password and gets a single-use link (7 days) on which they choose it.
Nobody hands a password over. The first user of an approved registration is invited the
same way (services/registration)."""

from __future__ import annotations

import secrets
import uuid
from datetime import timedelta

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories import identity as repo
from market.adapters.repositories import identity_accounts as accounts_repo
from market.adapters.tables import AccountInvite
from market.domain.commands.identity import InviteUser, LinkMail
from market.domain.errors import InvalidRequestError
from market.services.identity import account_log, passwords, single_use_links, web_sessions
from market.services.identity.token_digest import TokenHasher
from market.services.identity.views import InvitedUser, InviteHolder
from market.services.kernel.actor import AUTHORITY, OWNER, PARTICIPANT, PARTY_ROLES, Actor
from market.services.kernel.errors import EmailTakenError, ForbiddenError, not_found
from market.services.notify.fanout import write_transaction

INVITE_VALID_FOR = timedelta(days=7)
invites_t = AccountInvite.__table__  # type: ignore[attr-defined]


def unusable_password_hash() -> str:
    """An argon2 hash of a secret nobody keeps: no password signs in until one is set."""
    return passwords.hash_password(secrets.token_urlsafe(32))


def require_owner_of(actor: Actor, party_id: str) -> None:
    """The Authority, or an owner of this party."""
    if actor.role == AUTHORITY:
        return
    if actor.role != PARTICIPANT or actor.party_id != party_id:
        raise ForbiddenError("You may only manage your own party's users.", {})
    if actor.party_role != OWNER:
        raise ForbiddenError(
            "Only an owner of the party invites users or changes them.",
            {"party_role": actor.party_role, "required": OWNER},
        )


def check_new_user(email: str, party_role: str) -> str:
    address = email.strip().lower()
    if "@" not in address or len(address) > 254:
        raise InvalidRequestError("That is not an email address.", {"field": "email"})
    if party_role not in PARTY_ROLES:
        raise InvalidRequestError(
            f"Role must be one of {', '.join(PARTY_ROLES)}.", {"field": "role"}
        )
    return address


def send_invite(
    conn: Connection, hasher: TokenHasher, user_id: str, email: str, party_name: str
) -> str:
    token = single_use_links.issue(conn, invites_t, hasher, {"user_id": user_id}, INVITE_VALID_FOR)
    mail = LinkMail(
        user_id=user_id,
        to=email,
        subject="Your account on the NJ transfer certificate market",
        body=f"You have been given an account for {party_name}. The link below works once, "
        "for 7 days: choose your password there (at least 12 characters).",
        link=f"/account/set-password/{token}",
        kind="INVITE",
    )
    single_use_links.queue_mail(conn, mail)
    return token


def invite(
    engine: Engine, hasher: TokenHasher, actor: Actor, command: InviteUser
) -> tuple[InvitedUser, str]:
    """Make the invited user and queue its link; (the user, the token: for tests only)."""
    party_id, party_role = command.party_id, command.party_role
    require_owner_of(actor, party_id)
    address = check_new_user(command.email, party_role)
    user_id = uuid.uuid4().hex
    with write_transaction(engine) as conn:
        party_name = accounts_repo.party_name(conn, party_id)
        if party_name is None:
            raise not_found("Party", "party_id", party_id)
        if accounts_repo.email_taken(conn, address):
            raise EmailTakenError("That address already has an account.", {"field": "email"})
        member = InviteUser(party_id, address, party_role)
        create_invited(conn, user_id, member, actor.user_id)
        token = send_invite(conn, hasher, user_id, address, party_name)
    account_log.record(engine, user_id, "invited", f"{party_role} of {party_id}", by=actor)
    return InvitedUser(id=user_id, email=address, party_id=party_id, role=party_role), token


def create_invited(
    conn: Connection, user_id: str, member: InviteUser, invited_by: str | None
) -> None:
    """The invited user (no usable password yet) and its role in the party."""
    user = accounts_repo.InvitedUserRow(
        id=user_id,
        email=member.email,
        party_id=member.party_id,
        party_role=member.party_role,
        invited_by=invited_by,
        created_at=utcnow_iso(),
        password_hash=unusable_password_hash(),
    )
    accounts_repo.add_invited_user(conn, user, PARTICIPANT)


def check_invite(engine: Engine, hasher: TokenHasher, token: str) -> InviteHolder:
    link = single_use_links.live_now(engine, invites_t, hasher, token)
    return InviteHolder(user_id=link.owner_id, email=repo.user_email(engine, link.owner_id))


def accept_invite(
    engine: Engine, hasher: TokenHasher, token: str, password: str, confirm: str
) -> str:
    """Set the invited user's password from the link (spent once); the user's id."""
    if password != confirm:
        raise InvalidRequestError("The two passwords differ.", {"field": "password_again"})
    found = check_invite(engine, hasher, token)
    passwords.check_policy(password, found["email"] or "")
    new_hash = passwords.hash_password(password)
    with write_transaction(engine) as conn:
        link = single_use_links.spend(conn, invites_t, hasher, token)
        if not accounts_repo.set_password_if_active(conn, link.owner_id, new_hash):
            raise single_use_links.LinkInvalidError("This account was deactivated.", {})
    web_sessions.revoke_all(engine, link.owner_id)
    account_log.record(engine, link.owner_id, "password_set", "from an e-mailed link")
    return link.owner_id
