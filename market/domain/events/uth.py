"""The UTH annual review (UTH-11, UTH-26, UTH-27) on the award's stream."""

from __future__ import annotations

from collections.abc import Sequence

from market.domain.events.base import DomainEvent, event
from market.domain.events.codec import JsonObject


@event
class UthReviewRecorded(DomainEvent):
    """`cut_cents` leaves the award's allowed amount and balance (counted as expired);
    `tax_periods` are its tranches afterwards; `cap_releases` {cap_id, bucket,
    fiscal_year, cents}; `descendants` the derived certificates' tranches afterwards."""

    TYPE = "UTH_REVIEW_RECORDED"
    certificate_id: str
    tax_period: int
    finding: str
    review: str
    periods: Sequence[int]
    ruleset: str
    transferred_tranche_effect: str
    cut_cents: int
    cuts: Sequence[JsonObject]
    certificate_status: str
    tax_periods: Sequence[JsonObject]
    cap_releases: Sequence[JsonObject]
    descendants: Sequence[JsonObject]
    assessment: JsonObject | None
