"""The rows of the Authority's "Things to do" (market.services.queries.todo), one type per
kind of wait: the columns each kind's sentence reads, and the instant or date it has
waited from."""

from __future__ import annotations

from datetime import date
from typing import TypedDict


class WaitingTransfer(TypedDict):
    """A transfer waiting for the buyer's confirmation or the Authority's approval;
    `recorded_at`: the event it has waited since (its confirmation, else its proposal)."""

    id: str
    program: str
    seller_party_id: str
    buyer_party_id: str
    amount_cents: int
    consideration_cents: int
    status: str
    recorded_at: str


class WaitingClosing(TypedDict):
    """An approved transfer whose payment is not recorded (`paid_on` None) or whose receipt
    is not confirmed; `recorded_at`: its approval."""

    id: str
    program: str
    seller_party_id: str
    buyer_party_id: str
    consideration_cents: int
    paid_on: str | None
    recorded_at: str


class WaitingRegistration(TypedDict):
    id: str
    legal_name: str
    status: str  # email_unverified | submitted
    requested_at: str
    entity_type: str


class OwedFee(TypedDict):
    id: str
    party_id: str
    kind: str
    program: str
    amount_cents: int
    credited_cents: int
    paid_cents: int
    invoiced_on: str


class LapsingClearance(TypedDict):
    party_id: str
    program: str
    certificate_number: str
    valid_until: str


class UthAward(TypedDict):
    """An original UTH award; `tax_periods` carry each installment's review."""

    id: str
    number: str
    holder_party_id: str
    tax_periods: list[object] | None  # JSON: each installment's {period, cents, review?}
    recorded_at: str  # its issuance


class DueUthReview(TypedDict):
    """An installment of an original UTH award whose annual review is due (UTH-7)."""

    id: str
    number: str
    holder_party_id: str
    period: int
    cents: int
    since: date


class WaitingTech(TypedDict):
    """A TECH application a case-file step or the allocation waits on."""

    id: str
    party_id: str
    fiscal_year: int
    received_on: str
    requested_cents: int
    submitted_on: str | None
    preliminary_on: str | None
    forwarded_on: str | None
    tax_certificate_issued_on: str | None
