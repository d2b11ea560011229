"""Event sentences for trading: listings, offers, transfers from proposal to decision, the
buyer's consent and the closing record. Each is `(event, names) -> str` over its own
event class; `event_sentences.SENTENCES` maps the classes to them."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.deals import DealMessagePosted
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)
from market.domain.events.trading import (
    CounterOfferAccepted,
    CounterOfferDeclined,
    ListingCreated,
    ListingWithdrawn,
    OfferAccepted,
    OfferCountered,
    OfferDeclined,
    OfferMade,
    TransferApproved,
    TransferConfirmed,
    TransferDeclined,
    TransferProposed,
    TransferRejected,
)
from market.web.event_words import Names, dollars, named, per_dollar
from market.web.filters import per_dollar as cents_on_the_dollar


def listing(e: ListingCreated, n: Names) -> str:
    return (
        f"{named(n, e.seller_party_id)} listed {dollars(e.amount_cents)} of credit "
        f"from {named(n, e.certificate_id)} for {dollars(e.ask_cents)} "
        f"({per_dollar(e.ask_cents, e.amount_cents)})."
    )


def listing_withdrawn(e: ListingWithdrawn, n: Names) -> str:
    return "The seller withdrew the listing; its open offers lapse."


def _standing(expires_on: str | None) -> str:
    return f", open through {expires_on}" if expires_on else ""


def offer(e: OfferMade, n: Names) -> str:
    return (
        f"{named(n, e.buyer_party_id)} offered {dollars(e.price_cents)} for "
        f"{dollars(e.amount_cents)} of credit from {named(n, e.certificate_id)} "
        f"({per_dollar(e.price_cents, e.amount_cents)}){_standing(e.expires_on)}."
    )


def countered(e: OfferCountered, n: Names) -> str:
    return (
        f"The seller countered the offer: {dollars(e.price_cents)} for "
        f"{dollars(e.amount_cents)} of credit "
        f"({cents_on_the_dollar(e.price_cents, e.amount_cents)}){_standing(e.expires_on)}."
    )


def counter_accepted(e: CounterOfferAccepted, n: Names) -> str:
    return (
        "The buyer accepted the seller's counter-offer; the transfer awaits the "
        "Authority's approval."
    )


def counter_declined(e: CounterOfferDeclined, n: Names) -> str:
    return "The buyer declined the seller's counter-offer; the offer is closed."


def offer_accepted(e: OfferAccepted, n: Names) -> str:
    return "The seller accepted the offer; the transfer awaits the Authority's approval."


def offer_declined(e: OfferDeclined, n: Names) -> str:
    return "The seller declined the offer."


def proposed(e: TransferProposed, n: Names) -> str:
    return (
        f"{named(n, e.seller_party_id)} asked to transfer {dollars(e.amount_cents)} of "
        f"{e.program} credit to {named(n, e.buyer_party_id)} for "
        f"{dollars(e.consideration_cents)} "
        f"({per_dollar(e.consideration_cents, e.amount_cents)}); "
        "it awaits the Authority's approval."
    )


def confirmed(e: TransferConfirmed, n: Names) -> str:
    return f"{named(n, e.buyer_party_id)} confirmed the transfer; it goes to the Authority."


def _reasons(reasons: Sequence[str]) -> str:
    return " ".join(str(r) for r in reasons) or "no reason given."


def declined(e: TransferDeclined, n: Names) -> str:
    return f"{named(n, e.buyer_party_id)} declined the transfer: {_reasons(e.reasons)}"


def approved(e: TransferApproved, n: Names) -> str:
    checks = len(e.checks)
    return (
        f"The Authority approved the transfer of {dollars(e.amount_cents)} after "
        f"{checks} rule check{'' if checks == 1 else 's'}; the buyer holds "
        f"{named(n, e.buyer_certificate_id)}."
    )


def rejected(e: TransferRejected, n: Names) -> str:
    return f"The Authority rejected the transfer: {_reasons(e.reasons)}"


def message(e: DealMessagePosted, n: Names) -> str:
    who = n.get(e.from_party_id, "A party")
    to = n.get(e.to_party_id, "the other party")
    return f"{who} wrote to {to} in the deal room."


def paid(e: TransferPaymentRecorded, n: Names) -> str:
    return (
        f"The buyer recorded a payment of {dollars(e.amount_cents)} on {e.paid_on} "
        f"(reference {e.reference})."
    )


def received(e: TransferReceiptConfirmed, n: Names) -> str:
    return "The seller confirmed it received the payment."


def refund(e: TransferRefundOwed, n: Names) -> str:
    owed = dollars(e.refund_owed_cents)
    return f"The transfer was rejected after payment: a refund of {owed} is owed."
