"""The case file around a sale (RULES.md section 7): exhibits on `document-<id>`, fees
and their payments on `fee-<id>`, tax clearance certificates on `clearance-<id>`, and a
TECH application's administrative steps on its own stream `tech-<id>`."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate


@event
class DocumentFiled(DomainEvent):
    """ADM-10: an exhibit's record; its bytes were stored under `sha256` before this
    event was appended. `party_id` is the subject's party (None for none)."""

    TYPE = "DOCUMENT_FILED"
    document_id: str
    kind: str
    subject_type: str
    subject_id: str
    party_id: str | None
    sha256: str
    bytes: int
    media_type: str
    filename: str
    version: int
    filed_by: str
    filed_at: str


@event
class FeeInvoiced(DomainEvent):
    """ADM-1..ADM-4: a fee the step `subject_id` owes the Authority."""

    TYPE = "FEE_INVOICED"
    fee_id: str
    party_id: str
    kind: str
    program: str
    subject_id: str
    amount_cents: int
    credited_cents: int
    reason: str
    invoiced_on: IsoDate
    ruleset: str


@event
class FeePaymentRecorded(DomainEvent):
    """ADM-4: the Authority records a payment (method, reference, date received)."""

    TYPE = "FEE_PAYMENT_RECORDED"
    fee_id: str
    payment_id: str
    party_id: str
    amount_cents: int
    method: str
    reference: str
    received_on: IsoDate
    recorded_at: str


@event
class TaxClearanceRecorded(DomainEvent):
    """ADM-11: a tax clearance certificate (a renewal names the one it renews)."""

    TYPE = "TAX_CLEARANCE_RECORDED"
    clearance_id: str
    party_id: str
    program: str
    certificate_number: str
    issued_on: IsoDate
    renews: str | None
    valid_until: IsoDate
    renewals_left: int
    recorded_at: str


@event
class TechApplicationSubmitted(DomainEvent):
    """ADM-5, ADM-6: the package complete and the ADM-1 fee paid before the lock."""

    TYPE = "TECH_APPLICATION_SUBMITTED"
    application_id: str
    party_id: str
    submitted_on: IsoDate
    document_ids: Sequence[str]


@event
class TechPreliminaryApproved(DomainEvent):
    """ADM-7: the Authority's preliminary approval and its conditions."""

    TYPE = "TECH_PRELIMINARY_APPROVED"
    application_id: str
    party_id: str
    approved_on: IsoDate
    conditions: Sequence[str]


@event
class TechForwardedToTaxation(DomainEvent):
    """ADM-7: forwarded to the Division of Taxation with the exhibits it needs."""

    TYPE = "TECH_FORWARDED_TO_TAXATION"
    application_id: str
    party_id: str
    forwarded_on: IsoDate
    document_ids: Sequence[str]


@event
class TechTaxCertificateRecorded(DomainEvent):
    """ADM-8: Taxation's valuation (its tax certificate to the Authority)."""

    TYPE = "TECH_TAX_CERTIFICATE_RECORDED"
    application_id: str
    party_id: str
    benefit_cents: int
    certificate_number: str
    issued_on: IsoDate


@event
class BoardActionRecorded(DomainEvent):
    """ADM-9: the Board's approval or denial of a BRRAG application; its minutes reached
    the Governor on `governor_received_on`, and it takes effect after the Governor's 10
    working days (`effective_on`) unless approved earlier or vetoed."""

    TYPE = "BOARD_ACTION_RECORDED"
    action_id: str
    party_id: str
    decision: str
    amount_cents: int
    board_met_on: IsoDate
    governor_received_on: IsoDate
    period_ends_on: IsoDate
    effective_on: IsoDate
    submitted_on: IsoDate
    conditions: Sequence[str]


@event
class GovernorDecisionRecorded(DomainEvent):
    """ADM-9: the Governor approved the minutes early or vetoed them within the period."""

    TYPE = "GOVERNOR_DECISION_RECORDED"
    action_id: str
    party_id: str
    decision: str
    decided_on: IsoDate
