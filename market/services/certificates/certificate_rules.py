"""The domain's certificate rules asked of a certificate row: the carryover window
(market.domain.rules.carryover) and the waiver check (market.domain.rules.waiver)."""

from __future__ import annotations

from typing import Any

from market.domain.programs import Program, TaxType
from market.domain.rules import carryover, waiver
from market.domain.rulesets import Ruleset


def carryover_window(cert: dict[str, Any], tax_type: TaxType, ruleset: Ruleset) -> int | None:
    """The last tax year the certificate may be used in against `tax_type`, or None."""
    return carryover.carryover_window(
        Program(cert["program"]),
        tax_type,
        ruleset,
        stated_last_year=cert["carryover_last_year"],
        credit_year=cert["credit_year"],
        fiscal_year=int(cert["fiscal_year"]),
    )


def check_not_waived(cert: dict[str, Any]) -> None:
    """CMN-4(d): refuse a use by the original holder, which waived its own claim."""
    waiver.check_not_waived(
        str(cert["id"]),
        str(cert["program"]),
        is_original=bool(cert["is_original"]),
        holder_party_id=str(cert["holder_party_id"]),
        original_holder_id=str(cert["original_holder_party_id"]),
    )
