"""Closing carryover windows: expiring what a certificate's carryforward no longer allows
(CMN-8, UTH-10, AMB-45).
"""

from __future__ import annotations

from typing import Any

from market.domain.events.returns import CarryforwardExpired
from market.domain.programs import TaxType
from market.domain.rules import uth_held_tranches
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import carryover_window
from market.services.certificates.certificate_views import uth_tranches
from market.services.certificates.returns import certificate_stream
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.uow import AbstractUnitOfWork


def expire_carryforwards(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, tax_year: int
) -> list[dict[str, Any]]:
    """CARRYFORWARD_EXPIRED for every held (non-original) certificate whose window closed
    before `tax_year`: its remaining balance moves to expired_cents. A UTH certificate's
    tranches each have their own window (UTH-10): only what is left of those that closed
    expires, and the event records the tranches afterwards."""
    actor.require(AUTHORITY)
    expired: list[dict[str, Any]] = []
    held = uow.certificates.held_with_balance()
    uow.read_versions(certificate_stream(c["id"]) for c in held)  # one query per 1,000, not each
    for cert in held:
        uow.certificates.remember(cert)  # read under the head lock: no second read
        tax_type = TaxType(sorted(cert["tax_types"])[0])
        last = carryover_window(cert, tax_type, ruleset)
        tranches = uth_tranches(cert)
        after: list[dict[str, Any]] | None = None
        if tranches is not None:  # UTH-10: each tranche has its own 20 periods
            amount, after = uth_held_tranches.expire_tranches(tranches, tax_year)
            last = max(
                (int(t["carryforward_last_period"]) for t in after if t.get("expired_cents")),
                default=None,
            )
        elif last is not None and last < tax_year:
            amount = int(cert["balance_cents"])
        else:
            continue
        amount = min(amount, int(cert["balance_cents"]))
        if amount <= 0:
            continue
        payload = {
            "certificate_id": cert["id"],
            "party_id": cert["holder_party_id"],
            "amount_cents": amount,
            "carryover_last_year": last,
            "tax_year": tax_year,
            "certificate_status": certificate_status(
                int(cert["allowed_cents"]),
                int(cert["balance_cents"]) - amount,
                int(cert["queued_cents"]),
            ),
        }
        if after is not None:
            payload["tax_periods"] = after
        uow.append(certificate_stream(cert["id"]), CarryforwardExpired(**payload), actor.label)
        expired.append(payload)
    return expired
