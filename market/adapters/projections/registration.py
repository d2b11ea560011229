"""Registrations (issue 29 item 1) and the account events of the audit trail (issue 28
item 9). The party a registration makes is folded by PARTY_REGISTERED (parties.py)."""

from __future__ import annotations

from market.adapters.projections.registry import handles
from market.adapters.projections.store import Store
from market.domain.events.accounts import AccountEventRecorded
from market.domain.events.registration import (
    RegistrationApproved,
    RegistrationEmailVerified,
    RegistrationRejected,
    RegistrationRequested,
)


@handles(RegistrationRequested)
def registration_requested(store: Store, seq: int, e: RegistrationRequested) -> None:
    store.insert(
        "registrations",
        {
            "id": e.registration_id,
            "legal_name": e.legal_name,
            "tax_id": e.tax_id,
            "nj_tax_registration": e.nj_tax_registration,
            "entity_type": e.entity_type,
            "tax_types": list(e.tax_types),
            "contact_email": e.contact_email,
            "officers": [dict(o) for o in e.officers],
            "affiliates": [dict(a) for a in e.affiliates],
            "status": "email_unverified",
            "reason": None,
            "party_id": None,
            "user_id": None,
            "requested_at": e.requested_at,
            "requested_seq": seq,
            "decided_seq": None,
        },
    )


@handles(RegistrationEmailVerified)
def registration_verified(store: Store, seq: int, e: RegistrationEmailVerified) -> None:
    store.update("registrations", e.registration_id, {"status": "submitted"})


@handles(RegistrationApproved)
def registration_approved(store: Store, seq: int, e: RegistrationApproved) -> None:
    store.update(
        "registrations",
        e.registration_id,
        {"status": "approved", "party_id": e.party_id, "user_id": e.user_id, "decided_seq": seq},
    )


@handles(RegistrationRejected)
def registration_rejected(store: Store, seq: int, e: RegistrationRejected) -> None:
    store.update(
        "registrations",
        e.registration_id,
        {"status": "rejected", "reason": e.reason, "decided_seq": seq},
    )


@handles(AccountEventRecorded)
def account_event(store: Store, seq: int, e: AccountEventRecorded) -> None:
    store.insert(
        "account_events",
        {
            "id": f"{seq:020d}",
            "seq": seq,
            "user_id": e.user_id,
            "kind": e.kind,
            "detail": e.detail,
            "by_user_id": e.by_user_id,
            "at": e.at,
        },
    )
