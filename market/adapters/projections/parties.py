"""Parties and their ownership edges."""

from __future__ import annotations

from market.adapters.eventstore import Event
from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store


@handles("PARTY_REGISTERED")
def party_registered(store: Store, event: Event) -> None:
    p = event.payload
    store.insert(
        "parties",
        {
            "id": p["party_id"],
            "name": p["name"],
            "tax_id": p["tax_id"],
            "entity_type": p["entity_type"],
            "tax_types": list(p["tax_types"]),
            "in_innovation_zone": bool(p.get("in_innovation_zone", False)),
            "us_employees": p.get("us_employees"),
            "nj_full_time_employees": p.get("nj_full_time_employees"),
            "formed_on": p.get("formed_on"),
            "operating_income_cents_by_year": dict(p.get("operating_income_cents_by_year") or {}),
            "created_seq": event.seq,
            "director_exception": None,
        },
    )


@handles("DIRECTOR_EXCEPTION_RECORDED")
def director_exception_recorded(store: Store, event: Event) -> None:
    """Payload: party_id, reason, recorded_on (PT-7 / AMB-53)."""
    p = event.payload
    store.update("parties", p["party_id"], {"director_exception": p["reason"]})


@handles("OWNERSHIP_RECORDED")
def ownership_recorded(store: Store, event: Event) -> None:
    p = event.payload
    key = f"{p['party_id']}:{p['owner_party_id']}"
    row = {
        "voting_bps": p["voting_bps"],
        "value_bps": p["value_bps"],
        "income_share_bps": p.get("income_share_bps"),
    }
    if store.get("ownerships", key) is None:
        store.insert(
            "ownerships",
            {"id": key, "owned_party_id": p["party_id"], "owner_party_id": p["owner_party_id"]}
            | row,
        )
    else:
        store.update("ownerships", key, row)


@handles("OWNERS_AGREEMENT_FILED")
def owners_agreement_filed(store: Store, event: Event) -> None:
    """The latest filing is the agreement in force; it replaces the row of the one before."""
    p = event.payload
    row = {
        "agreement_id": p["agreement_id"],
        "shares": [dict(s) for s in p["shares"]],
        "filed_on": p["filed_on"],
        "reference": p.get("reference"),
        "recorded_seq": event.seq,
    }
    if store.get("owners_agreements", p["party_id"]) is None:
        store.insert("owners_agreements", {"party_id": p["party_id"]} | row)
    else:
        store.update("owners_agreements", p["party_id"], row)
