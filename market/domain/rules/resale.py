"""No secondary market: only the original holder may sell (CMN-6, AMB-59)."""

from __future__ import annotations

from market.domain.errors import ResaleNotAllowedError
from market.domain.rulesets import Ruleset


def check_can_sell(holder_is_original: bool, ruleset: Ruleset) -> None:
    if holder_is_original or ruleset.resale_allowed:
        return
    raise ResaleNotAllowedError(
        "only the business the certificate was issued to may sell or assign it; "
        "a purchaser may not resell",
        {"ruleset": ruleset.name},
    )
