"""Certificates: issued to a seller, or derived from another by transfer, allocation or
pass-through. Every certificate row is created by one CERT_ISSUED event."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store, require
from market.domain.events.certificates import (
    CapCharged,
    CertificateIssued,
    QueueAllowed,
    QueueDeferred,
)


@handles(CertificateIssued)
def cert_issued(store: Store, seq: int, e: CertificateIssued) -> None:
    """The usable balance starts at the allowed amount; what a cap or pool deferred is
    `queued_cents`. A derived certificate counts one more child on its parent (what
    numbers the next one)."""
    store.insert(
        "certificates",
        {
            "id": e.certificate_id,
            "number": e.number,
            "program": e.program,
            "holder_party_id": e.holder_party_id,
            "original_holder_party_id": e.original_holder_party_id,
            "parent_id": e.parent_id,
            "root_id": e.root_id,
            "origin": e.origin,
            "is_original": e.is_original,
            "face_cents": e.face_cents,
            "allowed_cents": e.allowed_cents,
            "queued_cents": e.queued_cents,
            "status": e.status,
            "fiscal_year": e.fiscal_year,
            "tax_types": list(e.tax_types),
            "tax_periods": list(e.tax_periods),
            "credit_year": e.credit_year,
            "carryover_last_year": e.carryover_last_year,
            "waiver_statement": e.waiver_statement,
            "attributes": e.projected_attributes(),
            "ruleset": e.ruleset,
            "balance_cents": e.allowed_cents,
            "transferred_cents": 0,
            "applied_cents": 0,
            "expired_cents": 0,
            "recaptured_cents": 0,
            "children_count": 0,
            "issued_seq": seq,
        },
    )
    if e.parent_id is not None:
        parent = require(store, "certificates", e.parent_id)
        store.update(
            "certificates", e.parent_id, {"children_count": int(parent["children_count"]) + 1}
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


@handles(CapCharged)
def cap_charged(store: Store, seq: int, e: CapCharged) -> None:
    for c in e.charges:
        _charge_cap(
            store,
            c["cap_id"],
            c["bucket"],
            c["fiscal_year"],
            c["cap_cents"],
            c["used_cents"],
            c.get("queued_cents", 0),
        )


@handles(QueueDeferred)
def queue_deferred(store: Store, seq: int, e: QueueDeferred) -> None:
    """DMQ-3: the deferral is counted on the cap row of the FY it was deferred from."""
    store.insert(
        "dm_queue",
        {
            "id": e.certificate_id,
            "pool": e.pool,
            "origin_fiscal_year": e.fiscal_year,
            "remaining_cents": e.deferred_cents,
            "received_at": e.received_at,
            "position": e.position,
        },
    )
    _charge_cap(store, e.cap_id, e.pool, e.fiscal_year, e.cap_cents, 0, e.deferred_cents)


@handles(QueueAllowed)
def queue_allowed(store: Store, seq: int, e: QueueAllowed) -> None:
    """DMQ-3: cents become usable, charged to `fiscal_year`; allowed from the queue, they
    leave the row the deferral was counted on and the queue entry."""
    cents = e.allowed_cents
    cert = require(store, "certificates", e.certificate_id)
    store.update(
        "certificates",
        e.certificate_id,
        {
            "allowed_cents": cert["allowed_cents"] + cents,
            "balance_cents": cert["balance_cents"] + cents,
            "queued_cents": cert["queued_cents"] - cents,
            "status": e.status,
        },
    )
    _charge_cap(store, e.cap_id, e.pool, e.fiscal_year, e.cap_cents, cents, 0)
    if e.from_queue:
        if e.queued_cap_id is None or e.remaining_cents is None:
            raise KeyError(f"QUEUE_ALLOWED from the queue for {e.certificate_id} names no row")
        queued_row = require(store, "cap_usage", e.queued_cap_id)
        store.update(
            "cap_usage",
            e.queued_cap_id,
            {"queued_cents": queued_row["queued_cents"] - cents},
        )
        store.update("dm_queue", e.certificate_id, {"remaining_cents": e.remaining_cents})
