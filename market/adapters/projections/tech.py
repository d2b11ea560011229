"""TECH surrender applications, the committed fiscal-year allocation and its cap usage.
The certificates the allocation gives are created by CERT_ISSUED (certificates.py)."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.tech import (
    FyAllocationRun,
    TechApplicationReceived,
    TechReceiptRecorded,
)


@handles(TechApplicationReceived)
def tech_application_received(store: Store, seq: int, e: TechApplicationReceived) -> None:
    store.insert(
        "tech_applications",
        {
            "id": e.application_id,
            "party_id": e.party_id,
            "fiscal_year": e.fiscal_year,
            "received_on": e.received_on,
            "received_at": e.received_at,  # absent before migration 0010
            "receipt_reason": None,
            "received_seq": seq,
            "nol_cents": e.nol_cents,
            "allocation_factor": e.allocation_factor,
            "seller_tax_regime": e.seller_tax_regime,
            "rnd_credit_cents": e.rnd_credit_cents,
            "in_innovation_zone": e.in_innovation_zone,
            "benefit_cents": e.benefit_cents,
            "requested_cents": e.requested_cents,
            "eligible": e.eligible,
            "reasons": list(e.reasons),
            "facts": dict(e.facts) | {"messages": list(e.messages), "tax_year": e.tax_year},
            "allocated_cents": None,
            "certificate_id": None,
            "ruleset": e.ruleset,
        },
    )


@handles(TechReceiptRecorded)
def tech_receipt_recorded(store: Store, seq: int, e: TechReceiptRecorded) -> None:
    """The Authority's record of a paper filing's receipt (TB-6)."""
    store.update(
        "tech_applications",
        e.application_id,
        {"received_at": e.received_at, "receipt_reason": e.receipt_reason},
    )


@handles(FyAllocationRun)
def fy_allocation_run(store: Store, seq: int, e: FyAllocationRun) -> None:
    """The cap usage amounts are what the run adds to each bucket."""
    fy = e.fiscal_year
    store.insert(
        "tech_allocations",
        {
            "id": str(fy),
            "fiscal_year": fy,
            "triggered": e.triggered,
            "total_cents": e.total_cents,
            "ruleset": e.ruleset,
            "committed_seq": seq,
        },
    )
    for a in e.allocations:
        store.update(
            "tech_applications",
            a["application_id"],
            {"allocated_cents": a["allocated_cents"], "certificate_id": a["certificate_id"]},
        )
    for application_id in e.excluded_application_ids:
        store.update("tech_applications", application_id, {"allocated_cents": 0})
    for c in e.cap_usage:
        row = store.get("cap_usage", c["id"])
        if row is None:
            store.insert(
                "cap_usage",
                {
                    "id": c["id"],
                    "bucket": c["bucket"],
                    "fiscal_year": fy,
                    "cap_cents": c["cap_cents"],
                    "used_cents": c["used_cents"],
                    "queued_cents": 0,
                },
            )
        else:
            store.update(
                "cap_usage",
                c["id"],
                {"cap_cents": c["cap_cents"], "used_cents": row["used_cents"] + c["used_cents"]},
            )
