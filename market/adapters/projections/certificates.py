"""Certificates: issued to a seller, or derived from another by transfer, allocation or
pass-through. Every certificate row is created by one CERT_ISSUED event."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store

CERT_FIELDS = (
    "number",
    "program",
    "holder_party_id",
    "original_holder_party_id",
    "parent_id",
    "root_id",
    "origin",
    "is_original",
    "face_cents",
    "allowed_cents",
    "queued_cents",
    "status",
    "fiscal_year",
    "tax_types",
    "tax_periods",
    "credit_year",
    "carryover_last_year",
    "waiver_statement",
    "attributes",
    "ruleset",
)


@handles("CERT_ISSUED")
def cert_issued(store: Store, event: Event) -> None:
    """Payload: `certificate_id` plus every name in CERT_FIELDS. The usable balance starts
    at the allowed amount; what a cap or pool deferred is `queued_cents`."""
    p = event.payload
    row = {name: p[name] for name in CERT_FIELDS}
    row |= {
        "id": p["certificate_id"],
        "balance_cents": p["allowed_cents"],
        "transferred_cents": 0,
        "applied_cents": 0,
        "expired_cents": 0,
        "recaptured_cents": 0,
        "issued_seq": event.seq,
    }
    store.insert("certificates", row)
