"""Each ledger event in one sentence, in words and dollars, for the certificate page and the
ledger explorer. Pure: the page passes the names it knows (party ids and certificate ids to
names and numbers); an id it does not know is shown as it is, and an event type this module
does not know reads as its type in words. The raw payload stays one click away.

One mapping, SENTENCES, from every event type to its sentence; the sentences themselves
live by area (sentences_holdings, sentences_trading) over the shared words (event_words)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from market.web import sentences_accounts as accounts
from market.web import sentences_casefiles as casefiles
from market.web import sentences_holdings as holdings
from market.web import sentences_records as records
from market.web import sentences_trading as trading
from market.web.event_words import Names, Sentence, words

SENTENCES: dict[str, Sentence] = {
    "PARTY_REGISTERED": holdings.party_registered,
    "OWNERSHIP_RECORDED": holdings.ownership,
    "OWNERS_AGREEMENT_FILED": holdings.agreement,
    "CERT_ISSUED": holdings.issued,
    "CAP_CHARGED": holdings.cap_charged,
    "QUEUE_ALLOWED": holdings.queue_allowed,
    "QUEUE_DEFERRED": holdings.queue_deferred,
    "TECH_APPLICATION_RECEIVED": holdings.tech_application,
    "FY_ALLOCATION_RUN": holdings.allocation,
    "LISTING_CREATED": trading.listing,
    "LISTING_WITHDRAWN": trading.listing_withdrawn,
    "OFFER_MADE": trading.offer,
    "OFFER_ACCEPTED": trading.offer_accepted,
    "OFFER_DECLINED": trading.offer_declined,
    "OFFER_COUNTERED": trading.countered,
    "COUNTER_OFFER_ACCEPTED": trading.counter_accepted,
    "COUNTER_OFFER_DECLINED": trading.counter_declined,
    "TRANSFER_PROPOSED": trading.proposed,
    "TRANSFER_APPROVED": trading.approved,
    "TRANSFER_REJECTED": trading.rejected,
    "CREDIT_APPLIED": holdings.applied,
    "CARRYFORWARD_EXPIRED": holdings.expired,
    "PASS_THROUGH_ALLOCATED": holdings.pass_through,
    "RECAPTURE_ASSESSED": holdings.recapture,
    "UTH_REVIEW_RECORDED": holdings.uth_review,
    "TRANSFER_CONFIRMED": trading.confirmed,
    "TRANSFER_DECLINED": trading.declined,
    "TECH_RECEIPT_RECORDED": holdings.receipt,
    "DIRECTOR_EXCEPTION_RECORDED": holdings.exception,
    "REMINDER_ISSUED": holdings.reminder,
    "CERTIFICATE_NOTICE_ISSUED": holdings.halted,
    "CERTIFICATE_NOTICE_LIFTED": holdings.lifted,
    "TRANSFER_PAYMENT_RECORDED": trading.paid,
    "DEAL_MESSAGE_POSTED": trading.message,
    "TRANSFER_RECEIPT_CONFIRMED": trading.received,
    "TRANSFER_REFUND_OWED": trading.refund,
    "ACCOUNT_EVENT_RECORDED": accounts.account,
    "BOARD_ACTION_RECORDED": casefiles.board_action,
    "DOCUMENT_FILED": casefiles.document,
    "FEE_INVOICED": casefiles.fee,
    "FEE_PAYMENT_RECORDED": casefiles.fee_paid,
    "GOVERNOR_DECISION_RECORDED": casefiles.governor,
    "PARTY_FACTS_RECORDED": records.party_facts,
    "RECORDS_IMPORTED": records.records_imported,
    "REGISTRATION_APPROVED": accounts.approved,
    "REGISTRATION_EMAIL_VERIFIED": accounts.verified,
    "REGISTRATION_REJECTED": accounts.rejected,
    "REGISTRATION_REQUESTED": accounts.requested,
    "TAX_CLEARANCE_RECORDED": casefiles.clearance,
    "TECH_APPLICATION_SUBMITTED": casefiles.submitted,
    "TECH_FORWARDED_TO_TAXATION": casefiles.forwarded,
    "TECH_PRELIMINARY_APPROVED": casefiles.preliminary,
    "TECH_TAX_CERTIFICATE_RECORDED": casefiles.valued,
}


def type_in_words(event_type: str) -> str:
    return words(event_type).lower().capitalize()


def sentence(event_type: str, payload: Mapping[str, Any], names: Names) -> str:
    """The event in one sentence. A payload missing a field its sentence needs (an older
    event, another ruleset) reads as the type in words rather than failing the page."""
    build = SENTENCES.get(event_type)
    if build is not None:
        try:
            return build(payload, names)
        except (KeyError, TypeError, ValueError):
            pass
    return f"{type_in_words(event_type)}."
