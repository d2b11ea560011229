"""One fiscal year's TECH plan from its eligible applications as plain rows (TB-5, TB-13..15,
CMN-2, AMB-31): the one arithmetic the preview, the commit and the simulator share.

Each row is (application id, party, requested, max eligible, in zone, received_at,
received_on), in receipt-stamp order. T_i is `tech_caps.clip_in_receipt_order`'s, the
amounts `tech_allocation.allocate_columns`'s; leftover cents tie by the receipt instant,
then the application id (CMN-2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from market.domain.rules import tech_allocation, tech_caps, tech_receipt
from market.domain.rulesets import Ruleset


@dataclass(frozen=True)
class PlanColumns:
    triggered: bool
    total_cents: int
    requests: list[int]  # each row's T_i, in the rows' order
    cents: list[int]  # each row's allocation, in the rows' order


def receipt_instant(received_at: str | None, received_on: str) -> str:
    """The receipt instant the ties go by (AMB-31: receipt time, not its day): the stamped
    `received_at`; a row from before migration 0010 has its day alone, which counts from
    the start of that New York day (TB-6)."""
    if received_at:
        return str(received_at)
    return _day_start(str(received_on))


@lru_cache(maxsize=4096)
def _day_start(received_on: str) -> str:
    return tech_receipt.parse_receipt(received_on).isoformat()


def plan_columns(
    rows: Sequence[Sequence[Any]], lifetime_approved: Mapping[str, int], ruleset: Ruleset
) -> PlanColumns:
    requests = tech_caps.clip_in_receipt_order(
        ((r[1], int(r[2]), int(r[3])) for r in rows), lifetime_approved, ruleset
    )
    triggered, total, cents = tech_allocation.allocate_columns(
        [str(r[0]) for r in rows],
        requests,
        [bool(r[4]) for r in rows],
        [receipt_instant(r[5], r[6]) for r in rows],
        ruleset,
    )
    return PlanColumns(triggered, total, requests, cents)
