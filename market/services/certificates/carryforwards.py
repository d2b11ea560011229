"""Closing carryover windows: expiring what a certificate's carryforward no longer allows
(CMN-8, UTH-10, AMB-45).
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from market.adapters.repositories.models import certificate_of
from market.domain.events.returns import CarryforwardExpired
from market.domain.model import Certificate, Tranche
from market.domain.programs import TaxType
from market.domain.rules import uth_held_tranches
from market.domain.rules.certificate_status import certificate_status
from market.domain.rulesets import Ruleset
from market.services.certificates.certificate_rules import carryover_window
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.uow import AbstractUnitOfWork


class Expiry(TypedDict):
    """What CARRYFORWARD_EXPIRED records for one certificate."""

    certificate_id: str
    party_id: str
    amount_cents: int
    carryover_last_year: int | None
    tax_year: int
    certificate_status: str
    tax_periods: NotRequired[list[Tranche]]


def _expiry(cert: Certificate, ruleset: Ruleset, tax_year: int) -> Expiry | None:
    """What closes on the certificate before `tax_year`, or None. A UTH certificate's
    tranches each have their own window (UTH-10)."""
    last = carryover_window(cert, TaxType(sorted(cert.tax_types)[0]), ruleset)
    tranches = cert.uth_tranches()
    after: list[Tranche] | None = None
    if tranches is not None:  # UTH-10: each tranche has its own 20 periods
        amount, after = uth_held_tranches.expire_tranches(tranches, tax_year)
        last = max(
            (t["carryforward_last_period"] for t in after if t.get("expired_cents")),
            default=None,
        )
    elif last is not None and last < tax_year:
        amount = cert.balance_cents
    else:
        return None
    amount = min(amount, cert.balance_cents)
    if amount <= 0:
        return None
    expiry = Expiry(
        certificate_id=cert.id,
        party_id=cert.holder_party_id,
        amount_cents=amount,
        carryover_last_year=last,
        tax_year=tax_year,
        certificate_status=certificate_status(
            cert.allowed_cents, cert.balance_cents - amount, cert.queued_cents
        ),
    )
    if after is not None:
        expiry["tax_periods"] = after
    return expiry


def expire_carryforwards(
    uow: AbstractUnitOfWork, actor: Actor, ruleset: Ruleset, tax_year: int
) -> list[Expiry]:
    """CARRYFORWARD_EXPIRED for every held (non-original) certificate whose window closed
    before `tax_year`: its remaining balance moves to expired_cents. A UTH certificate's
    tranches each have their own window (UTH-10): only what is left of those that closed
    expires, and the event records the tranches afterwards."""
    actor.require(AUTHORITY)
    expired: list[Expiry] = []
    held = uow.certificates.held_with_balance()
    uow.read_versions(Certificate.stream_of(c["id"]) for c in held)  # one query per 1,000
    for row in held:
        uow.certificates.remember(row)  # read under the head lock: no second read
        expiry = _expiry(certificate_of(row), ruleset, tax_year)
        if expiry is None:
            continue
        uow.append(
            Certificate.stream_of(expiry["certificate_id"]),
            CarryforwardExpired(**expiry),
            actor.label,
        )
        expired.append(expiry)
    return expired
