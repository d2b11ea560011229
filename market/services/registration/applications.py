"""The flows around a registration, with their links and e-mails.

The applicant's account is made with the request, inactive and with no usable password,
under the registration's own id (so the outbox can address it, and nobody can sign in
with it): the e-mail check (a single-use link, 48 hours) goes to it; approval activates
it as the owner of the new party and e-mails a set-your-password link
(identity/invitations.py). Asking is throttled like signing in (identity/throttle.py):
each request counts against the client address and the contact address, so a flood is
refused with 429 before anything is written."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import Engine, insert, select, update

from market.adapters.eventstore import utcnow_iso
from market.adapters.repositories import identity_links
from market.adapters.repositories.registrations import RegistrationRecord
from market.adapters.tables import PartyMembership, RegistrationLink, User
from market.domain.commands.identity import LinkMail
from market.services.identity import account_log, invitations, single_use_links, throttle
from market.services.identity.token_digest import TokenHasher
from market.services.kernel import runner
from market.services.kernel.actor import OWNER, PARTICIPANT, Actor
from market.services.kernel.errors import EmailTakenError
from market.services.kernel.numbering import new_id
from market.services.notify.fanout import write_transaction
from market.services.registration import registrations
from market.services.registration.registrations import NewRegistration

VERIFY_VALID_FOR = timedelta(hours=48)
links_t = RegistrationLink.__table__  # type: ignore[attr-defined]
users_t = User.__table__  # type: ignore[attr-defined]
members_t = PartyMembership.__table__  # type: ignore[attr-defined]


def _throttle_key(email: str) -> str:
    return f"registration:{email}"


def submit(
    engine: Engine,
    hasher: TokenHasher,
    new: NewRegistration,
    address: str | None,
    policy: throttle.Policy,
) -> tuple[RegistrationRecord, str]:
    """Record the request and queue its e-mail check; (the registration, the token: for
    tests only, the caller never shows it)."""
    email = invitations.check_new_user(new.contact_email, OWNER)
    new = NewRegistration(**{**new.__dict__, "contact_email": email})
    throttle.check(engine, _throttle_key(email), address)
    throttle.record_failure(engine, _throttle_key(email), address, policy)
    registrations.check(new)
    with engine.connect() as conn:
        if conn.execute(select(users_t.c.id).where(users_t.c.email == email)).first():
            raise EmailTakenError(
                "That address already has an account: sign in, or use another address.",
                {"field": "contact_email"},
            )
    registration_id = new_id("reg")
    now = utcnow_iso()
    made = runner.run(engine, lambda uow: registrations.request(uow, new, registration_id, now))
    with write_transaction(engine) as conn:
        conn.execute(
            insert(users_t).values(
                id=registration_id,
                email=email,
                password_hash=invitations.unusable_password_hash(),
                role=PARTICIPANT,
                party_id=None,
                created_at=now,
                active=False,
            )
        )
        token = _send_check(conn, hasher, registration_id, email, new.legal_name)
    return made, token


def _send_check(conn: Any, hasher: TokenHasher, registration_id: str, email: str, name: str) -> str:
    token = single_use_links.issue(
        conn, links_t, hasher, {"registration_id": registration_id}, VERIFY_VALID_FOR
    )
    mail = LinkMail(
        user_id=registration_id,
        to=email,
        subject="Confirm your address to ask to join",
        body=f"You asked for {name} to join the NJ transfer certificate market. The link below "
        "works once, for 48 hours: it confirms this address and sends the request to the "
        "Authority for review. If it was not you, ignore this message.",
        link=f"/join/verify/{token}",
        kind="REGISTRATION_CHECK",
    )
    single_use_links.queue_mail(conn, mail)
    return token


def verify(engine: Engine, hasher: TokenHasher, token: str) -> RegistrationRecord:
    """Spend the link and submit the registration for review. The link is spent only
    when the registration moves (a failing move leaves it usable)."""
    registration_id = single_use_links.live_now(engine, links_t, hasher, token).owner_id

    def move(uow: Any) -> RegistrationRecord:
        single_use_links.spend(uow.conn, links_t, hasher, token)
        return registrations.verify_email(uow, registration_id)

    return runner.run(engine, move)


def registration_for_link(engine: Engine, hasher: TokenHasher, token: str) -> str:
    """The registration a verification link (used or not, unexpired or not) belongs to:
    the applicant reads its status through it."""
    digest = hasher.digest(token[: single_use_links.MAX_TOKEN])
    link = identity_links.find_link_now(engine, links_t, digest)
    if link is None:
        raise single_use_links.LinkInvalidError("This link is not known.", {})
    return link.owner_id


def approve(
    engine: Engine, hasher: TokenHasher, actor: Actor, registration_id: str
) -> tuple[RegistrationRecord, str]:
    """One unit of work: the party (PARTY_REGISTERED), the approval naming its first user,
    that user activated as the party's owner, its set-password link and e-mail queued and
    the account event; a failure anywhere writes none of them. (The registration, the
    set-password token: tests.)"""
    link: dict[str, str] = {}

    def run(uow: Any) -> RegistrationRecord:
        done = registrations.approve(uow, actor, registration_id, registration_id)
        conn = uow.conn
        conn.execute(
            update(users_t)
            .where(users_t.c.id == registration_id)
            .values(party_id=done["party_id"], active=True)
        )
        conn.execute(
            insert(members_t).values(
                user_id=registration_id,
                party_id=done["party_id"],
                party_role=OWNER,
                invited_by=actor.user_id,
                created_at=utcnow_iso(),
            )
        )
        link["token"] = invitations.send_invite(
            conn, hasher, registration_id, done["contact_email"], done["legal_name"]
        )
        account_log.record_in(uow, registration_id, "invited", "owner, by approval", actor)
        return done

    done = runner.run(engine, run)
    return done, link["token"]


def reject(engine: Engine, actor: Actor, registration_id: str, reason: str) -> RegistrationRecord:
    return runner.run(engine, lambda uow: registrations.reject(uow, actor, registration_id, reason))
