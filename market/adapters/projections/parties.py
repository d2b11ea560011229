"""Parties and their ownership edges."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.parties import (
    DirectorExceptionRecorded,
    OwnersAgreementFiled,
    OwnershipRecorded,
    PartyRegistered,
)


@handles(PartyRegistered)
def party_registered(store: Store, seq: int, e: PartyRegistered) -> None:
    store.insert(
        "parties",
        {
            "id": e.party_id,
            "name": e.name,
            "tax_id": e.tax_id,
            "entity_type": e.entity_type,
            "tax_types": list(e.tax_types),
            "in_innovation_zone": e.in_innovation_zone,
            "us_employees": e.us_employees,
            "nj_full_time_employees": e.nj_full_time_employees,
            "formed_on": e.formed_on,
            "operating_income_cents_by_year": dict(e.operating_income_cents_by_year),
            "created_seq": seq,
            "director_exception": None,
        },
    )


@handles(DirectorExceptionRecorded)
def director_exception_recorded(store: Store, seq: int, e: DirectorExceptionRecorded) -> None:
    """PT-7 / AMB-53."""
    store.update("parties", e.party_id, {"director_exception": e.reason})


@handles(OwnershipRecorded)
def ownership_recorded(store: Store, seq: int, e: OwnershipRecorded) -> None:
    key = f"{e.party_id}:{e.owner_party_id}"
    row = {
        "voting_bps": e.voting_bps,
        "value_bps": e.value_bps,
        "income_share_bps": e.income_share_bps,
    }
    if store.get("ownerships", key) is None:
        store.insert(
            "ownerships",
            {"id": key, "owned_party_id": e.party_id, "owner_party_id": e.owner_party_id} | row,
        )
    else:
        store.update("ownerships", key, row)


@handles(OwnersAgreementFiled)
def owners_agreement_filed(store: Store, seq: int, e: OwnersAgreementFiled) -> None:
    """The latest filing is the agreement in force; it replaces the row of the one before."""
    row = {
        "agreement_id": e.agreement_id,
        "shares": [dict(s) for s in e.shares],
        "filed_on": e.filed_on,
        "reference": e.reference,
        "recorded_seq": seq,
    }
    if store.get("owners_agreements", e.party_id) is None:
        store.insert("owners_agreements", {"party_id": e.party_id} | row)
    else:
        store.update("owners_agreements", e.party_id, row)
