"""The domain's certificate rules asked of a certificate (market.domain.model): the
carryover window (market.domain.rules.carryover) and the waiver check
(market.domain.rules.waiver)."""

from __future__ import annotations

from market.domain.model import Certificate
from market.domain.programs import TaxType
from market.domain.rules import carryover, waiver
from market.domain.rulesets import Ruleset


def carryover_window(cert: Certificate, tax_type: TaxType, ruleset: Ruleset) -> int | None:
    """The last tax year the certificate may be used in against `tax_type`, or None."""
    return carryover.carryover_window(
        cert.program,
        tax_type,
        ruleset,
        stated_last_year=cert.carryover_last_year,
        credit_year=cert.credit_year,
        fiscal_year=cert.fiscal_year,
    )


def check_not_waived(cert: Certificate) -> None:
    """CMN-4(d): refuse a use by the original holder, which waived its own claim."""
    waiver.check_not_waived(
        cert.id,
        cert.program.value,
        is_original=cert.is_original,
        holder_party_id=cert.holder_party_id,
        original_holder_id=cert.original_holder_party_id,
    )
