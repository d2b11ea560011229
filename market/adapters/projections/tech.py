"""TECH surrender applications, the committed fiscal-year allocation and its cap usage.
The certificates the allocation gives are created by CERT_ISSUED (certificates.py)."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store


@handles("TECH_APPLICATION_RECEIVED")
def tech_application_received(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "tech_applications",
        {
            "id": p["application_id"],
            "party_id": p["party_id"],
            "fiscal_year": p["fiscal_year"],
            "received_on": p["received_on"],
            "received_at": p.get("received_at"),  # absent before migration 0010
            "receipt_reason": None,
            "received_seq": event.seq,
            "nol_cents": p["nol_cents"],
            "allocation_factor": p["allocation_factor"],
            "seller_tax_regime": p["seller_tax_regime"],
            "rnd_credit_cents": p["rnd_credit_cents"],
            "in_innovation_zone": p["in_innovation_zone"],
            "benefit_cents": p["benefit_cents"],
            "requested_cents": p["requested_cents"],
            "eligible": p["eligible"],
            "reasons": list(p["reasons"]),
            "facts": dict(p["facts"])
            | {"messages": list(p["messages"]), "tax_year": p["tax_year"]},
            "allocated_cents": None,
            "certificate_id": None,
            "ruleset": p["ruleset"],
        },
    )


@handles("TECH_RECEIPT_RECORDED")
def tech_receipt_recorded(store: Store, event: Event) -> None:
    """Payload: application_id, received_on, received_at, receipt_reason, recorded_at (the
    Authority's record of a paper filing's receipt, TB-6)."""
    p = event.payload
    store.update(
        "tech_applications",
        p["application_id"],
        {"received_at": p["received_at"], "receipt_reason": p["receipt_reason"]},
    )


@handles("FY_ALLOCATION_RUN")
def fy_allocation_run(store: Store, event: Event) -> None:
    """Payload: fiscal_year, triggered, total_cents, ruleset, allocations [{application_id,
    allocated_cents, certificate_id}], excluded_application_ids, cap_usage [{id, bucket,
    cap_cents, used_cents}] (amounts to add to the bucket)."""
    p = event.payload
    fy = p["fiscal_year"]
    store.insert(
        "tech_allocations",
        {
            "id": str(fy),
            "fiscal_year": fy,
            "triggered": p["triggered"],
            "total_cents": p["total_cents"],
            "ruleset": p["ruleset"],
            "committed_seq": event.seq,
        },
    )
    for a in p["allocations"]:
        store.update(
            "tech_applications",
            a["application_id"],
            {"allocated_cents": a["allocated_cents"], "certificate_id": a["certificate_id"]},
        )
    for application_id in p["excluded_application_ids"]:
        store.update("tech_applications", application_id, {"allocated_cents": 0})
    for c in p["cap_usage"]:
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
