"""Certificates: issued to a seller, or derived from another by transfer, allocation or
pass-through. Every certificate row is created by one CERT_ISSUED event."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require

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
    at the allowed amount; what a cap or pool deferred is `queued_cents`. A derived
    certificate counts one more child on its parent (what numbers the next one)."""
    p = event.payload
    row = {name: p[name] for name in CERT_FIELDS}
    row |= {
        "id": p["certificate_id"],
        "balance_cents": p["allowed_cents"],
        "transferred_cents": 0,
        "applied_cents": 0,
        "expired_cents": 0,
        "recaptured_cents": 0,
        "children_count": 0,
        "issued_seq": event.seq,
    }
    store.insert("certificates", row)
    if p["parent_id"] is not None:
        parent = require(store, "certificates", p["parent_id"])
        store.update(
            "certificates", p["parent_id"], {"children_count": int(parent["children_count"]) + 1}
        )


def _charge_cap(
    store: Store, cap_id: str, bucket: str, fiscal_year: int, cap_cents: int, used: int, queued: int
) -> None:
    """Add to one cap_usage row, creating it with the ruleset's cap on first use."""
    row = store.get("cap_usage", cap_id)
    if row is None:
        store.insert(
            "cap_usage",
            {
                "id": cap_id,
                "bucket": bucket,
                "fiscal_year": fiscal_year,
                "cap_cents": cap_cents,
                "used_cents": used,
                "queued_cents": queued,
            },
        )
    else:
        store.update(
            "cap_usage",
            cap_id,
            {
                "used_cents": row["used_cents"] + used,
                "queued_cents": row["queued_cents"] + queued,
            },
        )


@handles("CAP_CHARGED")
def cap_charged(store: Store, event: Event) -> None:
    """Payload: `certificate_id` and `charges`, a list of {cap_id, bucket, fiscal_year,
    cap_cents, used_cents, queued_cents} (amounts are what this event adds)."""
    for c in event.payload["charges"]:
        _charge_cap(
            store,
            c["cap_id"],
            c["bucket"],
            c["fiscal_year"],
            c["cap_cents"],
            c["used_cents"],
            c.get("queued_cents", 0),
        )


@handles("QUEUE_DEFERRED")
def queue_deferred(store: Store, event: Event) -> None:
    """DMQ-3: part or all of a digital media certificate waits for a later fiscal year.
    Payload: certificate_id, pool, fiscal_year (the bucket it was deferred from), cap_id,
    cap_cents, deferred_cents, received_at, position."""
    p = event.payload
    store.insert(
        "dm_queue",
        {
            "id": p["certificate_id"],
            "pool": p["pool"],
            "origin_fiscal_year": p["fiscal_year"],
            "remaining_cents": p["deferred_cents"],
            "received_at": p["received_at"],
            "position": p["position"],
        },
    )
    _charge_cap(
        store, p["cap_id"], p["pool"], p["fiscal_year"], p["cap_cents"], 0, p["deferred_cents"]
    )


@handles("QUEUE_ALLOWED")
def queue_allowed(store: Store, event: Event) -> None:
    """DMQ-3: cents of a digital media certificate become usable, charged to `fiscal_year`.
    Payload: certificate_id, pool, fiscal_year, cap_id, cap_cents, allowed_cents, status
    (the certificate's status afterwards), from_queue; when from_queue, also queued_cap_id
    (the row the deferral was counted on) and remaining_cents (left in the queue)."""
    p = event.payload
    cents = p["allowed_cents"]
    cert = require(store, "certificates", p["certificate_id"])
    store.update(
        "certificates",
        p["certificate_id"],
        {
            "allowed_cents": cert["allowed_cents"] + cents,
            "balance_cents": cert["balance_cents"] + cents,
            "queued_cents": cert["queued_cents"] - cents,
            "status": p["status"],
        },
    )
    _charge_cap(store, p["cap_id"], p["pool"], p["fiscal_year"], p["cap_cents"], cents, 0)
    if p["from_queue"]:
        queued_row = require(store, "cap_usage", p["queued_cap_id"])
        store.update(
            "cap_usage",
            p["queued_cap_id"],
            {"queued_cents": queued_row["queued_cents"] - cents},
        )
        store.update("dm_queue", p["certificate_id"], {"remaining_cents": p["remaining_cents"]})
