"""Returns and after-issuance changes to a certificate: credits applied, carryforwards
expired, pass-through allocations and recaptures. The owners' certificates that a
pass-through creates come from CERT_ISSUED (certificates.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require
from market.domain.events.returns import (
    CarryforwardExpired,
    CreditApplied,
    PassThroughAllocated,
    RecaptureAssessed,
)


def _move(
    store: Store,
    certificate_id: str,
    cents: int,
    to: str,
    status: str | None,
    tax_periods: Sequence[Mapping[str, Any]] | None = None,
) -> None:
    """Move cents from the usable balance to another bucket of the certificate; a UTH
    certificate's tranches afterwards replace its periods."""
    cert = require(store, "certificates", certificate_id)
    changes: dict[str, Any] = {
        "balance_cents": cert["balance_cents"] - cents,
        to: cert[to] + cents,
    }
    if status is not None:
        changes["status"] = status
    store.update("certificates", certificate_id, changes)
    if tax_periods is not None:
        store.update("certificates", certificate_id, {"tax_periods": list(tax_periods)})


@handles(CreditApplied)
def credit_applied(store: Store, seq: int, e: CreditApplied) -> None:
    store.insert(
        "credit_applications",
        {
            "id": e.application_id,
            "certificate_id": e.certificate_id,
            "party_id": e.party_id,
            "tax_type": e.tax_type,
            "tax_year": e.tax_year,
            "liability_cents": e.liability_cents,
            "other_credits_cents": e.other_credits_cents,
            "statutory_minimum_cents": e.statutory_minimum_cents,
            "requested_cents": e.requested_cents,
            "applied_cents": e.applied_cents,
            "carried_forward_cents": e.carried_forward_cents,
            "limited_by": e.limited_by,
            "limits": dict(e.limits),
            "ruleset": e.ruleset,
        },
    )
    # UTH: the tranches the application used (uth.consume_tranches)
    _move(
        store,
        e.certificate_id,
        e.applied_cents,
        "applied_cents",
        e.certificate_status,
        e.tax_periods,
    )


@handles(CarryforwardExpired)
def carryforward_expired(store: Store, seq: int, e: CarryforwardExpired) -> None:
    # UTH: the tranches whose window closed (uth.expire_tranches)
    cents, status = e.amount_cents, e.certificate_status
    _move(store, e.certificate_id, cents, "expired_cents", status, e.tax_periods)


@handles(PassThroughAllocated)
def pass_through_allocated(store: Store, seq: int, e: PassThroughAllocated) -> None:
    # UTH: the tranches passed through (uth.pass_through_tranches)
    _move(
        store,
        e.certificate_id,
        e.amount_cents,
        "transferred_cents",
        e.certificate_status,
        e.tax_periods,
    )


@handles(RecaptureAssessed)
def recapture_assessed(store: Store, seq: int, e: RecaptureAssessed) -> None:
    store.insert(
        "recaptures",
        {
            "id": e.recapture_id,
            "party_id": e.party_id,
            "certificate_id": e.certificate_id,
            "amount_cents": e.amount_cents,
            "fund": e.fund,
            "reason": e.reason,
            "assessed_seq": seq,
        },
    )
    if e.certificate_id is not None and e.recaptured_from_balance_cents > 0:
        _move(
            store,
            e.certificate_id,
            e.recaptured_from_balance_cents,
            "recaptured_cents",
            e.certificate_status,
        )
