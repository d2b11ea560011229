"""Event sentences for trading: listings, offers, transfers from proposal to decision, the
buyer's consent and the closing record. Each is `(payload, names) -> str`;
`event_sentences.SENTENCES` maps the types to them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_words import (
    Names,
    dollars,
    name_of,
    per_dollar,
)
from market.web.filters import per_dollar as cents_on_the_dollar


def listing(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{name_of(n, 'seller_party_id', p)} listed {dollars(p.get('amount_cents'))} of credit "
        f"from {name_of(n, 'certificate_id', p)} for {dollars(p.get('ask_cents'))} "
        f"({per_dollar(p.get('ask_cents'), p.get('amount_cents'))})."
    )


def listing_withdrawn(p: Mapping[str, Any], n: Names) -> str:
    return "The seller withdrew the listing; its open offers lapse."


def _standing(p: Mapping[str, Any]) -> str:
    return f", open through {p['expires_on']}" if p.get("expires_on") else ""


def offer(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{name_of(n, 'buyer_party_id', p)} offered {dollars(p.get('price_cents'))} for "
        f"{dollars(p.get('amount_cents'))} of credit from {name_of(n, 'certificate_id', p)} "
        f"({per_dollar(p.get('price_cents'), p.get('amount_cents'))}){_standing(p)}."
    )


def countered(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The seller countered the offer: {dollars(p.get('price_cents'))} for "
        f"{dollars(p.get('amount_cents'))} of credit "
        f"({cents_on_the_dollar(p.get('price_cents'), p.get('amount_cents'))}){_standing(p)}."
    )


def counter_accepted(p: Mapping[str, Any], n: Names) -> str:
    return (
        "The buyer accepted the seller's counter-offer; the transfer awaits the "
        "Authority's approval."
    )


def counter_declined(p: Mapping[str, Any], n: Names) -> str:
    return "The buyer declined the seller's counter-offer; the offer is closed."


def offer_accepted(p: Mapping[str, Any], n: Names) -> str:
    return "The seller accepted the offer; the transfer awaits the Authority's approval."


def offer_declined(p: Mapping[str, Any], n: Names) -> str:
    return "The seller declined the offer."


def proposed(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"{name_of(n, 'seller_party_id', p)} asked to transfer {dollars(p.get('amount_cents'))} of "
        f"{p.get('program')} credit to {name_of(n, 'buyer_party_id', p)} for "
        f"{dollars(p.get('consideration_cents'))} "
        f"({per_dollar(p.get('consideration_cents'), p.get('amount_cents'))}); "
        "it awaits the Authority's approval."
    )


def confirmed(p: Mapping[str, Any], n: Names) -> str:
    return f"{name_of(n, 'buyer_party_id', p)} confirmed the transfer; it goes to the Authority."


def declined(p: Mapping[str, Any], n: Names) -> str:
    reasons = " ".join(str(r) for r in p.get("reasons") or []) or "no reason given."
    return f"{name_of(n, 'buyer_party_id', p)} declined the transfer: {reasons}"


def approved(p: Mapping[str, Any], n: Names) -> str:
    checks = p.get("checks") or []
    return (
        f"The Authority approved the transfer of {dollars(p.get('amount_cents'))} after "
        f"{len(checks)} rule check{'' if len(checks) == 1 else 's'}; the buyer holds "
        f"{name_of(n, 'buyer_certificate_id', p)}."
    )


def rejected(p: Mapping[str, Any], n: Names) -> str:
    reasons = " ".join(str(r) for r in p.get("reasons") or []) or "no reason given."
    return f"The Authority rejected the transfer: {reasons}"


def message(p: Mapping[str, Any], n: Names) -> str:
    who = n.get(str(p.get("from_party_id")), "A party")
    to = n.get(str(p.get("to_party_id")), "the other party")
    return f"{who} wrote to {to} in the deal room."


def paid(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The buyer recorded a payment of {dollars(p['amount_cents'])} on {p.get('paid_on')} "
        f"(reference {p.get('reference')})."
    )


def received(p: Mapping[str, Any], n: Names) -> str:
    return "The seller confirmed it received the payment."


def refund(p: Mapping[str, Any], n: Names) -> str:
    owed = dollars(p["refund_owed_cents"])
    return f"The transfer was rejected after payment: a refund of {owed} is owed."
