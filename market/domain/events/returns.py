"""After issuance, on the certificate's stream: credits applied to returns, carryforwards
expired, pass-through allocations; and recaptures (`recapture-<id>`). `tax_periods`, the
UTH tranches afterwards, is written for a UTH certificate only."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate, JsonObject, omitted


@event
class CreditApplied(DomainEvent):
    TYPE = "CREDIT_APPLIED"
    application_id: str
    certificate_id: str
    party_id: str
    tax_type: str
    tax_year: int
    liability_cents: int
    other_credits_cents: int
    statutory_minimum_cents: int
    requested_cents: int
    applied_cents: int
    carried_forward_cents: int
    limited_by: str
    limits: JsonObject
    certificate_status: str
    ruleset: str
    tax_periods: Sequence[JsonObject] | None = omitted(None)


@event
class CarryforwardExpired(DomainEvent):
    TYPE = "CARRYFORWARD_EXPIRED"
    certificate_id: str
    party_id: str
    amount_cents: int
    carryover_last_year: int | None
    tax_year: int
    certificate_status: str
    tax_periods: Sequence[JsonObject] | None = omitted(None)


@event
class PassThroughAllocated(DomainEvent):
    """PT-5/PT-6, UTH-14: `allocations` are {party_id, amount_cents, certificate_id}, each
    owner's certificate issued by the CERT_ISSUED that follow."""

    TYPE = "PASS_THROUGH_ALLOCATED"
    certificate_id: str
    party_id: str
    amount_cents: int
    basis: str
    owners_agreement: JsonObject | None
    uth_partnership_basis: str
    ruleset: str
    director_review: bool
    allocations: Sequence[JsonObject]
    certificate_status: str
    tax_periods: Sequence[JsonObject] | None = omitted(None)


@event
class RecaptureAssessed(DomainEvent):
    TYPE = "RECAPTURE_ASSESSED"
    recapture_id: str
    party_id: str
    certificate_id: str | None
    program: str
    tax_type: str
    amount_cents: int
    recaptured_from_balance_cents: int
    fund: str
    reason: str
    certificate_status: str | None
    transfer_id: str | None
    basis: str
    occurred_on: IsoDate | None
    hq_window_end: IsoDate | None
