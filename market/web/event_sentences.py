"""Each ledger event in one sentence, in words and dollars, for the certificate page and the
ledger explorer. Pure: the page passes the names it knows (party ids and certificate ids to
names and numbers); an id it does not know is shown as it is, and an event type no class
claims reads as its type in words. The raw payload stays one click away.

One mapping, SENTENCES, from every event class to its sentence, each reading the typed
event (the stored payload brought to the current version by `upcast`); the sentences
themselves live by area (sentences_holdings, sentences_trading, ...) over the shared words
(event_words)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.domain.events import DomainEvent, upcast
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
from market.web import sentences_accounts as accounts
from market.web import sentences_casefiles as casefiles
from market.web import sentences_holdings as holdings
from market.web import sentences_records as records
from market.web import sentences_trading as trading
from market.web.event_words import Names, Sentence, words

SENTENCES: dict[type[DomainEvent], Sentence] = {
    PartyRegistered: holdings.party_registered,
    OwnershipRecorded: holdings.ownership,
    OwnersAgreementFiled: holdings.agreement,
    CertificateIssued: holdings.issued,
    CapCharged: holdings.cap_charged,
    QueueAllowed: holdings.queue_allowed,
    QueueDeferred: holdings.queue_deferred,
    TechApplicationReceived: holdings.tech_application,
    FyAllocationRun: holdings.allocation,
    ListingCreated: trading.listing,
    ListingWithdrawn: trading.listing_withdrawn,
    OfferMade: trading.offer,
    OfferAccepted: trading.offer_accepted,
    OfferDeclined: trading.offer_declined,
    OfferCountered: trading.countered,
    CounterOfferAccepted: trading.counter_accepted,
    CounterOfferDeclined: trading.counter_declined,
    TransferProposed: trading.proposed,
    TransferApproved: trading.approved,
    TransferRejected: trading.rejected,
    CreditApplied: holdings.applied,
    CarryforwardExpired: holdings.expired,
    PassThroughAllocated: holdings.pass_through,
    RecaptureAssessed: holdings.recapture,
    UthReviewRecorded: holdings.uth_review,
    TransferConfirmed: trading.confirmed,
    TransferDeclined: trading.declined,
    TechReceiptRecorded: holdings.receipt,
    DirectorExceptionRecorded: holdings.exception,
    ReminderIssued: holdings.reminder,
    CertificateNoticeIssued: holdings.halted,
    CertificateNoticeLifted: holdings.lifted,
    TransferPaymentRecorded: trading.paid,
    DealMessagePosted: trading.message,
    TransferReceiptConfirmed: trading.received,
    TransferRefundOwed: trading.refund,
    AccountEventRecorded: accounts.account,
    BoardActionRecorded: casefiles.board_action,
    DocumentFiled: casefiles.document,
    FeeInvoiced: casefiles.fee,
    FeePaymentRecorded: casefiles.fee_paid,
    GovernorDecisionRecorded: casefiles.governor,
    PartyFactsRecorded: records.party_facts,
    RecordsImported: records.records_imported,
    RegistrationApproved: accounts.approved,
    RegistrationEmailVerified: accounts.verified,
    RegistrationRejected: accounts.rejected,
    RegistrationRequested: accounts.requested,
    TaxClearanceRecorded: casefiles.clearance,
    TechApplicationSubmitted: casefiles.submitted,
    TechForwardedToTaxation: casefiles.forwarded,
    TechPreliminaryApproved: casefiles.preliminary,
    TechTaxCertificateRecorded: casefiles.valued,
}


def type_in_words(event_type: str) -> str:
    return words(event_type).lower().capitalize()


def sentence_of(event: DomainEvent, names: Names) -> str:
    """A typed event in one sentence (a class without one: its type in words)."""
    build = SENTENCES.get(type(event))
    return f"{type_in_words(event.TYPE)}." if build is None else build(event, names)


def sentence(event_type: str, payload: Mapping[str, Any], names: Names) -> str:
    """A stored event in one sentence, read as its class through `upcast`. A type no class
    claims, or a payload its class refuses (a missing field), reads as the type in words
    rather than failing the page."""
    try:
        return sentence_of(upcast(event_type, payload), names)
    except (KeyError, TypeError, ValueError):  # EventError is a ValueError
        return f"{type_in_words(event_type)}."
