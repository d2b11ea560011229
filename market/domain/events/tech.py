"""TECH surrender applications (`tech-<id>`) and the fiscal year's allocation
(`tech-fy-<FY>`); the certificates it gives are CERT_ISSUED (certificates.py)."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import IsoDate, JsonObject, omitted


@event
class TechApplicationReceived(DomainEvent):
    """TB-1..TB-6, TB-10: the application as received and judged. `received_at` and
    `receipt` are absent from applications received before migration 0010."""

    TYPE = "TECH_APPLICATION_RECEIVED"
    application_id: str
    party_id: str
    fiscal_year: int
    received_on: IsoDate
    received_at: str | None = omitted(None)
    receipt: str | None = omitted(None)
    nol_cents: int
    allocation_factor: str
    seller_tax_regime: str
    rnd_credit_cents: int
    in_innovation_zone: bool
    tax_year: int
    benefit_cents: int
    nol_benefit_cents: int
    asked_cents: int
    requested_cents: int
    lifetime_approved_cents: int
    eligible: bool
    reasons: Sequence[str]
    messages: Sequence[str]
    profitable_parents: Sequence[JsonObject]
    facts: JsonObject
    ruleset: str


@event
class TechReceiptRecorded(DomainEvent):
    """TB-6: the Authority's record of a paper filing's receipt."""

    TYPE = "TECH_RECEIPT_RECORDED"
    application_id: str
    received_on: IsoDate
    received_at: str
    receipt_reason: str
    recorded_at: str


@event
class FyAllocationRun(DomainEvent):
    """TB-14, TB-15: `allocations` are {application_id, party_id, request_cents,
    allocated_cents, certificate_id}; `cap_usage` {id, bucket, cap_cents, used_cents}
    (what it adds to the bucket)."""

    TYPE = "FY_ALLOCATION_RUN"
    fiscal_year: int
    triggered: bool
    total_cents: int
    ruleset: str
    allocations: Sequence[JsonObject]
    excluded_application_ids: Sequence[str]
    cap_usage: Sequence[JsonObject]
