"""The rows of the Authority's "Things to do" (market.services.queries.todo), one type per
kind of wait: the columns each kind's sentence reads, and the instant or date it has
waited from."""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from sqlalchemy.engine import RowMapping


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


def waiting_transfer(r: RowMapping) -> WaitingTransfer:
    return WaitingTransfer(
        id=r["id"],
        program=r["program"],
        seller_party_id=r["seller_party_id"],
        buyer_party_id=r["buyer_party_id"],
        amount_cents=r["amount_cents"],
        consideration_cents=r["consideration_cents"],
        status=r["status"],
        recorded_at=r["recorded_at"],
    )


def waiting_closing(r: RowMapping) -> WaitingClosing:
    return WaitingClosing(
        id=r["id"],
        program=r["program"],
        seller_party_id=r["seller_party_id"],
        buyer_party_id=r["buyer_party_id"],
        consideration_cents=r["consideration_cents"],
        paid_on=r["paid_on"],
        recorded_at=r["recorded_at"],
    )


def waiting_registration(r: RowMapping) -> WaitingRegistration:
    return WaitingRegistration(
        id=r["id"],
        legal_name=r["legal_name"],
        status=r["status"],
        requested_at=r["requested_at"],
        entity_type=r["entity_type"],
    )


def owed_fee(r: RowMapping) -> OwedFee:
    return OwedFee(
        id=r["id"],
        party_id=r["party_id"],
        kind=r["kind"],
        program=r["program"],
        amount_cents=r["amount_cents"],
        credited_cents=r["credited_cents"],
        paid_cents=r["paid_cents"],
        invoiced_on=r["invoiced_on"],
    )


def lapsing_clearance(r: RowMapping) -> LapsingClearance:
    return LapsingClearance(
        party_id=r["party_id"],
        program=r["program"],
        certificate_number=r["certificate_number"],
        valid_until=r["valid_until"],
    )


def uth_award(r: RowMapping) -> UthAward:
    return UthAward(
        id=r["id"],
        number=r["number"],
        holder_party_id=r["holder_party_id"],
        tax_periods=r["tax_periods"],
        recorded_at=r["recorded_at"],
    )


def waiting_tech(r: RowMapping) -> WaitingTech:
    return WaitingTech(
        id=r["id"],
        party_id=r["party_id"],
        fiscal_year=r["fiscal_year"],
        received_on=r["received_on"],
        requested_cents=r["requested_cents"],
        submitted_on=r["submitted_on"],
        preliminary_on=r["preliminary_on"],
        forwarded_on=r["forwarded_on"],
        tax_certificate_issued_on=r["tax_certificate_issued_on"],
    )
