"""Event sentences for registrations and accounts (issue 29 item 1, issue 28 item 9).
Each is `(event, names) -> str` over its own event class; `event_sentences.SENTENCES`
maps the classes to them."""

from __future__ import annotations

from market.domain.events.accounts import AccountEventRecorded
from market.domain.events.registration import (
    RegistrationApproved,
    RegistrationEmailVerified,
    RegistrationRejected,
    RegistrationRequested,
)
from market.web.event_words import Names, named

ACCOUNT_WORDS = {
    "signed_in": "signed in",
    "mfa_enrolled": "turned on two-step sign-in",
    "mfa_reset": "had two-step sign-in reset",
    "recovery_codes_renewed": "made new recovery codes",
    "password_set": "chose a password from an e-mailed link",
    "password_changed": "changed the password",
    "password_reset": "reset the password from an e-mailed link",
    "invited": "was invited",
    "deactivated": "was deactivated",
}


def requested(e: RegistrationRequested, n: Names) -> str:
    return f"{e.legal_name} ({e.tax_id}) asked to join; its e-mail is to be confirmed."


def verified(e: RegistrationEmailVerified, n: Names) -> str:
    return "The registration's e-mail was confirmed; it waits for the Authority's review."


def approved(e: RegistrationApproved, n: Names) -> str:
    return (
        f"The Authority approved the registration: {named(n, e.party_id)} joined, its "
        "first user invited to choose a password."
    )


def rejected(e: RegistrationRejected, n: Names) -> str:
    return f"The Authority rejected the registration: {e.reason}"


def account(e: AccountEventRecorded, n: Names) -> str:
    what = ACCOUNT_WORDS[e.kind]
    by = " by another user" if e.by_user_id else ""
    detail = f" ({e.detail})" if e.detail else ""
    return f"The account {what}{by}{detail}."
