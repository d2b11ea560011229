"""Returns and after-issuance changes to a certificate: credits applied, carryforwards
expired, pass-through allocations and recaptures. The owners' certificates that a
pass-through creates come from CERT_ISSUED (certificates.py)."""

from __future__ import annotations

from typing import Any

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require


def _move(store: Store, certificate_id: str, cents: int, to: str, status: str | None) -> None:
    """Move cents from the usable balance to another bucket of the certificate."""
    cert = require(store, "certificates", certificate_id)
    changes: dict[str, Any] = {
        "balance_cents": cert["balance_cents"] - cents,
        to: cert[to] + cents,
    }
    if status is not None:
        changes["status"] = status
    store.update("certificates", certificate_id, changes)


@handles("CREDIT_APPLIED")
def credit_applied(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "credit_applications",
        {
            "id": p["application_id"],
            "certificate_id": p["certificate_id"],
            "party_id": p["party_id"],
            "tax_type": p["tax_type"],
            "tax_year": p["tax_year"],
            "liability_cents": p["liability_cents"],
            "other_credits_cents": p["other_credits_cents"],
            "statutory_minimum_cents": p["statutory_minimum_cents"],
            "requested_cents": p["requested_cents"],
            "applied_cents": p["applied_cents"],
            "carried_forward_cents": p["carried_forward_cents"],
            "limited_by": p["limited_by"],
            "limits": dict(p["limits"]),
            "ruleset": p["ruleset"],
        },
    )
    _move(store, p["certificate_id"], p["applied_cents"], "applied_cents", p["certificate_status"])
    if "tax_periods" in p:  # UTH: the tranches the application used (uth.consume_tranches)
        store.update("certificates", p["certificate_id"], {"tax_periods": p["tax_periods"]})


@handles("CARRYFORWARD_EXPIRED")
def carryforward_expired(store: Store, event: Event) -> None:
    p = event.payload
    _move(store, p["certificate_id"], p["amount_cents"], "expired_cents", p["certificate_status"])
    if "tax_periods" in p:  # UTH: the tranches whose window closed (uth.expire_tranches)
        store.update("certificates", p["certificate_id"], {"tax_periods": p["tax_periods"]})


@handles("PASS_THROUGH_ALLOCATED")
def pass_through_allocated(store: Store, event: Event) -> None:
    p = event.payload
    _move(
        store, p["certificate_id"], p["amount_cents"], "transferred_cents", p["certificate_status"]
    )
    if "tax_periods" in p:  # UTH: the tranches passed through (uth.pass_through_tranches)
        store.update("certificates", p["certificate_id"], {"tax_periods": p["tax_periods"]})


@handles("RECAPTURE_ASSESSED")
def recapture_assessed(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "recaptures",
        {
            "id": p["recapture_id"],
            "party_id": p["party_id"],
            "certificate_id": p["certificate_id"],
            "amount_cents": p["amount_cents"],
            "fund": p["fund"],
            "reason": p["reason"],
            "assessed_seq": event.seq,
        },
    )
    if p["certificate_id"] is not None and p["recaptured_from_balance_cents"] > 0:
        _move(
            store,
            p["certificate_id"],
            p["recaptured_from_balance_cents"],
            "recaptured_cents",
            p["certificate_status"],
        )
