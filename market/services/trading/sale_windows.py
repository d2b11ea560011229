"""How long a certificate's credit stays usable, for the market (PRODUCT.md 8.4): a
credit nobody can use any more is not sold (`carryforward_expired` at listing, offer,
confirmation and approval), and listings and holdings show "usable through"."""

from __future__ import annotations

from datetime import date
from typing import TypedDict

from market.domain.model import Certificate
from market.domain.programs import TaxType
from market.domain.rules import carryover, dm_queue, sale_window
from market.domain.rulesets import Ruleset
from market.services.kernel import clock


class SaleWindow(TypedDict):
    usable_through: int | None
    usable_until: str | None
    queued_usable_from: str | None


def usable_through(cert: Certificate, ruleset: Ruleset) -> int | None:
    """The last tax year (UTH: tax period) in which the certificate's credit may be used:
    the window credit applications use (certificate_rules.carryover_window), or for UTH the latest
    window of an installment still held."""
    tranches = cert.uth_tranches()
    if tranches is not None:
        return sale_window.usable_through(None, tranches)
    return carryover.carryover_window(
        cert.program,
        TaxType(sorted(cert.tax_types)[0]),
        ruleset,
        stated_last_year=cert.carryover_last_year,
        credit_year=cert.credit_year,
        fiscal_year=cert.fiscal_year,
    )


def window_fields(cert: Certificate, ruleset: Ruleset) -> SaleWindow:
    """`usable_through` and `usable_until` (the last business date a buyer could use it),
    and `queued_usable_from`: the earliest day a queued amount can be allowed (DMQ-3)."""
    last = usable_through(cert, ruleset)
    until = sale_window.usable_until(last, ruleset)
    queued = cert.queued_cents
    queued_from = (
        dm_queue.queued_usable_from(cert.fiscal_year, queued, clock.today()) if queued else None
    )
    return {
        "usable_through": last,
        "usable_until": until.isoformat() if until else None,
        "queued_usable_from": queued_from.isoformat() if queued_from else None,
    }


def check_sellable(cert: Certificate, on: date, ruleset: Ruleset) -> str:
    return sale_window.check_sellable(usable_through(cert, ruleset), on, ruleset)
