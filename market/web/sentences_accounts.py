"""Event sentences for registrations and accounts (issue 29 item 1, issue 28 item 9).
Each is `(payload, names) -> str`; `event_sentences.SENTENCES` maps the types to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_words import Names, name_of

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


def requested(p: Mapping[str, Any], n: Names) -> str:
    return f"{p['legal_name']} ({p['tax_id']}) asked to join; its e-mail is to be confirmed."


def verified(p: Mapping[str, Any], n: Names) -> str:
    return "The registration's e-mail was confirmed; it waits for the Authority's review."


def approved(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority approved the registration: {name_of(n, 'party_id', p)} joined, its "
        "first user invited to choose a password."
    )


def rejected(p: Mapping[str, Any], n: Names) -> str:
    return f"The Authority rejected the registration: {p['reason']}"


def account(p: Mapping[str, Any], n: Names) -> str:
    what = ACCOUNT_WORDS[p["kind"]]
    by = " by another user" if p.get("by_user_id") else ""
    detail = f" ({p['detail']})" if p.get("detail") else ""
    return f"The account {what}{by}{detail}."
