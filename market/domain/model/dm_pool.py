"""A cap or pool's use in one fiscal year, and a certificate's place in the digital media
queue (DMQ-1..3), as the pools and the caps report read them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CapUse:
    """One `cap_usage` row: a bucket's ceiling and what it has charged in a fiscal year
    (fiscal year 0 is the UTH cumulative cap); `queued_cents` were deferred from it."""

    id: str
    bucket: str
    fiscal_year: int
    cap_cents: int
    used_cents: int
    queued_cents: int


@dataclass(frozen=True)
class QueuedCredit:
    """A certificate's cents still deferred in a digital media pool (DMQ-3); `id` is the
    certificate's."""

    id: str
    pool: str
    origin_fiscal_year: int
    remaining_cents: int
    received_at: str
    position: int
