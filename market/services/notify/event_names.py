"""Dotted event type names for webhooks (`transfer.approved`): `resource.what_happened`,
the Standard Webhooks convention. A subscription's filter takes either form (the ledger's
`TRANSFER_APPROVED` is still accepted) and is stored dotted; a message's `type` is dotted,
its `data.type` the ledger's own name."""

from __future__ import annotations

from collections.abc import Iterable

DOTTED: dict[str, str] = {
    "ACCOUNT_EVENT_RECORDED": "account.event_recorded",
    "BOARD_ACTION_RECORDED": "board_action.recorded",
    "CAP_CHARGED": "cap.charged",
    "CARRYFORWARD_EXPIRED": "carryforward.expired",
    "CERTIFICATE_NOTICE_ISSUED": "certificate_notice.issued",
    "CERTIFICATE_NOTICE_LIFTED": "certificate_notice.lifted",
    "CERT_ISSUED": "certificate.issued",
    "COUNTER_OFFER_ACCEPTED": "offer.counter_accepted",
    "COUNTER_OFFER_DECLINED": "offer.counter_declined",
    "CREDIT_APPLIED": "credit.applied",
    "DIRECTOR_EXCEPTION_RECORDED": "director_exception.recorded",
    "DOCUMENT_FILED": "document.filed",
    "FEE_INVOICED": "fee.invoiced",
    "FEE_PAYMENT_RECORDED": "fee.payment_recorded",
    "FY_ALLOCATION_RUN": "fy_allocation.run",
    "GOVERNOR_DECISION_RECORDED": "governor_decision.recorded",
    "LISTING_CREATED": "listing.created",
    "LISTING_WITHDRAWN": "listing.withdrawn",
    "OFFER_ACCEPTED": "offer.accepted",
    "OFFER_COUNTERED": "offer.countered",
    "OFFER_DECLINED": "offer.declined",
    "OFFER_MADE": "offer.made",
    "OWNERSHIP_RECORDED": "ownership.recorded",
    "OWNERS_AGREEMENT_FILED": "owners_agreement.filed",
    "PARTY_FACTS_RECORDED": "party_facts.recorded",
    "PARTY_REGISTERED": "party.registered",
    "PASS_THROUGH_ALLOCATED": "pass_through.allocated",
    "QUEUE_ALLOWED": "queue.allowed",
    "QUEUE_DEFERRED": "queue.deferred",
    "RECAPTURE_ASSESSED": "recapture.assessed",
    "RECORDS_IMPORTED": "records.imported",
    "REGISTRATION_APPROVED": "registration.approved",
    "REGISTRATION_EMAIL_VERIFIED": "registration.email_verified",
    "REGISTRATION_REJECTED": "registration.rejected",
    "REGISTRATION_REQUESTED": "registration.requested",
    "REMINDER_ISSUED": "reminder.issued",
    "TAX_CLEARANCE_RECORDED": "tax_clearance.recorded",
    "TECH_APPLICATION_RECEIVED": "tech_application.received",
    "TECH_APPLICATION_SUBMITTED": "tech_application.submitted",
    "TECH_FORWARDED_TO_TAXATION": "tech_application.forwarded_to_taxation",
    "TECH_PRELIMINARY_APPROVED": "tech_application.preliminary_approved",
    "TECH_RECEIPT_RECORDED": "tech_application.receipt_recorded",
    "TECH_TAX_CERTIFICATE_RECORDED": "tech_application.tax_certificate_recorded",
    "TRANSFER_APPROVED": "transfer.approved",
    "TRANSFER_CONFIRMED": "transfer.confirmed",
    "TRANSFER_DECLINED": "transfer.declined",
    "TRANSFER_PAYMENT_RECORDED": "transfer.payment_recorded",
    "DEAL_MESSAGE_POSTED": "transfer.message_posted",
    "TRANSFER_PROPOSED": "transfer.proposed",
    "TRANSFER_RECEIPT_CONFIRMED": "transfer.receipt_confirmed",
    "TRANSFER_REFUND_OWED": "transfer.refund_owed",
    "TRANSFER_REJECTED": "transfer.rejected",
    "UTH_REVIEW_RECORDED": "uth_review.recorded",
}
_LEDGER = {dotted: name for name, dotted in DOTTED.items()}


def dotted(event_type: str) -> str:
    """The dotted name of a ledger type (one this table misses: lower case, `_` kept)."""
    return DOTTED.get(event_type, event_type.lower())


def canonical(name: str) -> str | None:
    """A filter entry, either form, as its dotted name; None for a name nobody knows."""
    if name == "*":
        return "*"
    if name in DOTTED:
        return DOTTED[name]
    return name if name in _LEDGER else None


def wanted(filter_types: Iterable[str], event_type: str) -> bool:
    """Does a stored filter (dotted, or a row from before the dotted names) take it?"""
    names = {canonical(t) or t for t in filter_types}
    return "*" in names or dotted(event_type) in names
