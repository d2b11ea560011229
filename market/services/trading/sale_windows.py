"""How long a certificate's credit stays usable, for the market (PRODUCT.md 8.4): a
credit nobody can use any more is not sold (`carryforward_expired` at listing, offer,
confirmation and approval), and listings and holdings show "usable through"."""

from __future__ import annotations

from datetime import date
from typing import Any

from market.adapters.repositories.models import certificate_of
from market.domain.programs import TaxType
from market.domain.rules import dm_queue, sale_window
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import carryover_window
from market.services.certificates.certificate_views import uth_tranches
from market.services.kernel import clock


def usable_through(cert: dict[str, Any], ruleset: Ruleset) -> int | None:
    """The last tax year (UTH: tax period) in which the certificate's credit may be used:
    the window credit applications use (certificate_rules.carryover_window), or for UTH the latest
    window of an installment still held."""
    tranches = uth_tranches(cert)
    if tranches is not None:
        return sale_window.usable_through(None, tranches)
    return carryover_window(certificate_of(cert), TaxType(sorted(cert["tax_types"])[0]), ruleset)


def window_fields(cert: dict[str, Any], ruleset: Ruleset) -> dict[str, Any]:
    """`usable_through` and `usable_until` (the last business date a buyer could use it),
    and `queued_usable_from`: the earliest day a queued amount can be allowed (DMQ-3)."""
    last = usable_through(cert, ruleset)
    until = sale_window.usable_until(last, ruleset)
    queued = int(cert.get("queued_cents") or 0)
    queued_from = (
        dm_queue.queued_usable_from(int(cert["fiscal_year"]), queued, clock.today())
        if queued
        else None
    )
    return {
        "usable_through": last,
        "usable_until": until.isoformat() if until else None,
        "queued_usable_from": queued_from.isoformat() if queued_from else None,
    }


def check_sellable(cert: dict[str, Any], on: date, ruleset: Ruleset) -> str:
    return sale_window.check_sellable(usable_through(cert, ruleset), on, ruleset)
