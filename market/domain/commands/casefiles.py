"""The case-file commands of the Authority's process (RULES.md section 7, ADM-1..12)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from market.domain.rules.adm_fees import Invoice


@dataclass(frozen=True)
class RecordBoardAction:
    """ADM-9: the Board's approval (or denial) of a BRRAG seller's sales."""

    party_id: str
    decision: str
    amount_cents: int
    submitted_on: date
    board_met_on: date
    governor_received_on: date
    conditions: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RecordGovernorDecision:
    """ADM-9: the Governor's early approval or veto of a Board action."""

    action_id: str
    decision: str
    decided_on: date


@dataclass(frozen=True)
class RecordClearance:
    """ADM-11, ADM-12: a tax clearance certificate, perhaps renewing an earlier one."""

    party_id: str
    certificate_number: str
    issued_on: date
    program: str
    renews: str | None = None


@dataclass(frozen=True)
class RecordFeePayment:
    """ADM-4: a payment received against a fee."""

    fee_id: str
    amount_cents: int
    method: str
    reference: str
    received_on: date


@dataclass(frozen=True)
class RecordTaxCertificate:
    """ADM-8: Taxation's valuation of a TECH application."""

    application_id: str
    benefit_cents: int
    certificate_number: str
    issued_on: date


@dataclass(frozen=True)
class InvoiceFee:
    """ADM-2, ADM-3, ADM-4: a step's fee billed to `party_id` for `subject_id` (the
    application, award or transfer), once per kind."""

    party_id: str
    subject_id: str
    bill: Invoice
