"""Dotted event type names for webhooks, by event class (`transfer.approved`):
`resource.what_happened`, the Standard Webhooks convention. A subscription's filter takes
either form (the ledger's `TRANSFER_APPROVED` is still accepted) and is stored dotted; a
message's `type` is dotted, its `data.type` the ledger's own name."""

from __future__ import annotations

from collections.abc import Iterable

from market.domain.events import DomainEvent, by_type
from market.domain.events.accounts import AccountEventRecorded
from market.domain.events.casefiles import (
    BoardActionRecorded,
    DocumentFiled,
    FeeInvoiced,
    FeePaymentRecorded,
    GovernorDecisionRecorded,
    TaxClearanceRecorded,
    TechApplicationSubmitted,
    TechForwardedToTaxation,
    TechPreliminaryApproved,
    TechTaxCertificateRecorded,
)
from market.domain.events.certificates import (
    CapCharged,
    CertificateIssued,
    QueueAllowed,
    QueueDeferred,
)
from market.domain.events.deals import DealMessagePosted, ReminderIssued
from market.domain.events.funding import (
    TransferPaymentRecorded,
    TransferReceiptConfirmed,
    TransferRefundOwed,
)
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted
from market.domain.events.parties import (
    DirectorExceptionRecorded,
    OwnersAgreementFiled,
    OwnershipRecorded,
    PartyRegistered,
)
from market.domain.events.records import PartyFactsRecorded, RecordsImported
from market.domain.events.registration import (
    RegistrationApproved,
    RegistrationEmailVerified,
    RegistrationRejected,
    RegistrationRequested,
)
from market.domain.events.returns import (
    CarryforwardExpired,
    CreditApplied,
    PassThroughAllocated,
    RecaptureAssessed,
)
from market.domain.events.tech import FyAllocationRun, TechApplicationReceived, TechReceiptRecorded
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
from market.domain.events.uth import UthReviewRecorded

DOTTED: dict[type[DomainEvent], str] = {
    AccountEventRecorded: "account.event_recorded",
    BoardActionRecorded: "board_action.recorded",
    CapCharged: "cap.charged",
    CarryforwardExpired: "carryforward.expired",
    CertificateNoticeIssued: "certificate_notice.issued",
    CertificateNoticeLifted: "certificate_notice.lifted",
    CertificateIssued: "certificate.issued",
    CounterOfferAccepted: "offer.counter_accepted",
    CounterOfferDeclined: "offer.counter_declined",
    CreditApplied: "credit.applied",
    DirectorExceptionRecorded: "director_exception.recorded",
    DocumentFiled: "document.filed",
    FeeInvoiced: "fee.invoiced",
    FeePaymentRecorded: "fee.payment_recorded",
    FyAllocationRun: "fy_allocation.run",
    GovernorDecisionRecorded: "governor_decision.recorded",
    ListingCreated: "listing.created",
    ListingWithdrawn: "listing.withdrawn",
    OfferAccepted: "offer.accepted",
    OfferCountered: "offer.countered",
    OfferDeclined: "offer.declined",
    OfferMade: "offer.made",
    OwnershipRecorded: "ownership.recorded",
    OwnersAgreementFiled: "owners_agreement.filed",
    PartyFactsRecorded: "party_facts.recorded",
    PartyRegistered: "party.registered",
    PassThroughAllocated: "pass_through.allocated",
    QueueAllowed: "queue.allowed",
    QueueDeferred: "queue.deferred",
    RecaptureAssessed: "recapture.assessed",
    RecordsImported: "records.imported",
    RegistrationApproved: "registration.approved",
    RegistrationEmailVerified: "registration.email_verified",
    RegistrationRejected: "registration.rejected",
    RegistrationRequested: "registration.requested",
    ReminderIssued: "reminder.issued",
    TaxClearanceRecorded: "tax_clearance.recorded",
    TechApplicationReceived: "tech_application.received",
    TechApplicationSubmitted: "tech_application.submitted",
    TechForwardedToTaxation: "tech_application.forwarded_to_taxation",
    TechPreliminaryApproved: "tech_application.preliminary_approved",
    TechReceiptRecorded: "tech_application.receipt_recorded",
    TechTaxCertificateRecorded: "tech_application.tax_certificate_recorded",
    TransferApproved: "transfer.approved",
    TransferConfirmed: "transfer.confirmed",
    TransferDeclined: "transfer.declined",
    TransferPaymentRecorded: "transfer.payment_recorded",
    DealMessagePosted: "transfer.message_posted",
    TransferProposed: "transfer.proposed",
    TransferReceiptConfirmed: "transfer.receipt_confirmed",
    TransferRefundOwed: "transfer.refund_owed",
    TransferRejected: "transfer.rejected",
    UthReviewRecorded: "uth_review.recorded",
}
BY_TYPE = by_type(DOTTED)
_LEDGER = {dotted: name for name, dotted in BY_TYPE.items()}


def dotted(event_type: str) -> str:
    """The dotted name of a ledger type (one this table misses: lower case, `_` kept)."""
    return BY_TYPE.get(event_type, event_type.lower())


def canonical(name: str) -> str | None:
    """A filter entry, either form, as its dotted name; None for a name nobody knows."""
    if name == "*":
        return "*"
    if name in BY_TYPE:
        return BY_TYPE[name]
    return name if name in _LEDGER else None


def wanted(filter_types: Iterable[str], event_type: str) -> bool:
    """Does a stored filter (dotted, or a row from before the dotted names) take it?"""
    names = {canonical(t) or t for t in filter_types}
    return "*" in names or dotted(event_type) in names
