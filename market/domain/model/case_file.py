"""A case file's records as the Authority keeps them (RULES.md section 7): exhibits, fees,
tax clearance certificates, BRRAG Board actions and a TECH application's ADM steps.

They are what the API and the pages show as they are (marshmallow dumps them, Jinja reads
them, `jsonify` sends them), so each is a typed dict: one field a column, typed. What
only a rule reads is a frozen dataclass."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any, TypedDict


class Document(TypedDict):
    """An exhibit filed against a subject (PRODUCT.md 9.1, ADM-10)."""

    id: str
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
    filed_seq: int


class Fee(TypedDict):
    """A fee owed to the Authority for one step (ADM-1..ADM-4)."""

    id: str
    party_id: str
    kind: str
    program: str
    subject_id: str
    amount_cents: int
    credited_cents: int
    paid_cents: int
    reason: str
    invoiced_on: str
    ruleset: str
    invoiced_seq: int


class FeeView(Fee):
    """The fee with what it still owes and its state (`adm_fees.status`)."""

    due_cents: int
    status: str


class TaxClearance(TypedDict):
    """A tax clearance certificate of a party for a program (ADM-11)."""

    id: str
    party_id: str
    program: str
    certificate_number: str
    issued_on: str
    renews: str | None
    valid_until: str
    renewals_left: int
    recorded_seq: int


class BoardAction(TypedDict):
    """A BRRAG Board action and the Governor's decision on it (ADM-9)."""

    id: str
    party_id: str
    decision: str
    amount_cents: int
    board_met_on: str
    governor_received_on: str
    period_ends_on: str
    effective_on: str | None
    submitted_on: str
    conditions: list[Any]
    governor_decision: str | None
    governor_decided_on: str | None
    recorded_seq: int


class BoardActionView(BoardAction):
    """The action with its state on a day: awaiting_governor | in_effect | vetoed."""

    state: str
    takes_effect_on: str | None


class TechCaseFile(TypedDict):
    """Where a TECH application stands in the Authority's process (ADM-5..ADM-8)."""

    application_id: str
    party_id: str
    submitted_on: str
    preliminary_on: str | None
    conditions: list[Any] | None
    forwarded_on: str | None
    tax_certificate_number: str | None
    valued_benefit_cents: int | None
    tax_certificate_issued_on: str | None


@dataclass(frozen=True)
class ClosedSale:
    """An approved sale as ADM-9 counts it against the seller's Board approvals."""

    transfer_id: str
    amount_cents: int
    exchange_date: date
    decided_seq: int


@dataclass(frozen=True)
class ApplicationOnFile:
    """What a TECH application's case file reads of it: whose it is, under which rules,
    for which fiscal year, received when (ADM-5..ADM-8)."""

    id: str
    party_id: str
    ruleset: str
    fiscal_year: int
    received_on: date


@dataclass(frozen=True)
class TransferOnFile:
    """What a transfer's case file reads of it: its program's exhibits, its state, and
    the rules it was proposed under (ADM-8, ADM-10)."""

    id: str
    program: str
    status: str
    ruleset: str
