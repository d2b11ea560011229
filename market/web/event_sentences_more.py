"""Sentences for the second release's events: the buyer's consent, paper receipts, the
Director's exception, reminders, trading halts and the closing record (one per type, as
in `event_sentences`, whose helpers they use)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web.event_sentences import Names, Sentence, _name, dollars, words


def _confirmed(p: Mapping[str, Any], n: Names) -> str:
    return f"{_name(n, 'buyer_party_id', p)} confirmed the transfer; it goes to the Authority."


def _declined(p: Mapping[str, Any], n: Names) -> str:
    reasons = " ".join(str(r) for r in p.get("reasons") or []) or "no reason given."
    return f"{_name(n, 'buyer_party_id', p)} declined the transfer: {reasons}"


def _receipt(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority recorded the application's paper receipt on {p['received_on']} "
        f"({p.get('receipt_reason') or 'no reason given'})."
    )


def _exception(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The Authority recorded the Director's exception for {_name(n, 'party_id', p)}: "
        f"{p.get('reason') or 'no reason given'}."
    )


def _reminder(p: Mapping[str, Any], n: Names) -> str:
    return f"Reminder sent: {p['subject']}."


def _halted(p: Mapping[str, Any], n: Names) -> str:
    count = len(p.get("halted_certificate_ids") or [])
    return (
        f"The Authority issued a {words(p['kind']).lower()} notice ({p.get('reason')}); "
        f"trading is halted in {count} certificate{'' if count == 1 else 's'}."
    )


def _lifted(p: Mapping[str, Any], n: Names) -> str:
    return "The Authority lifted the notice; trading resumes unless another notice halts it."


def _paid(p: Mapping[str, Any], n: Names) -> str:
    return (
        f"The buyer recorded a payment of {dollars(p['amount_cents'])} on {p.get('paid_on')} "
        f"(reference {p.get('reference')})."
    )


def _received(p: Mapping[str, Any], n: Names) -> str:
    return "The seller confirmed it received the payment."


def _refund(p: Mapping[str, Any], n: Names) -> str:
    owed = dollars(p["refund_owed_cents"])
    return f"The transfer was rejected after payment: a refund of {owed} is owed."


MORE: dict[str, Sentence] = {
    "TRANSFER_CONFIRMED": _confirmed,
    "TRANSFER_DECLINED": _declined,
    "TECH_RECEIPT_RECORDED": _receipt,
    "DIRECTOR_EXCEPTION_RECORDED": _exception,
    "REMINDER_ISSUED": _reminder,
    "CERTIFICATE_NOTICE_ISSUED": _halted,
    "CERTIFICATE_NOTICE_LIFTED": _lifted,
    "TRANSFER_PAYMENT_RECORDED": _paid,
    "TRANSFER_RECEIPT_CONFIRMED": _received,
    "TRANSFER_REFUND_OWED": _refund,
}
