"""What a webhook message may carry: only what its subscriber may read through the API.

The Authority's subscriptions (party None) carry every payload whole. A participant's
carry its own party's part: a list of party ids keeps only its own; a list of rows that
name parties (FY_ALLOCATION_RUN's allocations, an owners' agreement's shares, a notice's
holders) keeps only the rows that name it, unless it is the event's own party (a
partnership reads its agreement and its pass-through allocations whole); and the fields
that describe other parties or the whole program (a run's total and cap usage, the
certificates and listings a notice halted, cap charges) are left out. Each event type is
listed in REVIEWED: a type nobody reviewed carries no payload to participants at all.
"""

from __future__ import annotations

from typing import Any

from market.domain.events import DomainEvent, by_type
from market.domain.events.accounts import AccountEventRecorded
from market.domain.events.certificates import CapCharged, QueueAllowed, QueueDeferred
from market.domain.events.halts import CertificateNoticeIssued, CertificateNoticeLifted
from market.domain.events.registration import RegistrationRequested
from market.domain.events.tech import FyAllocationRun
from market.domain.events.uth import UthReviewRecorded
from market.services.notify.event_names import DOTTED

# Per event class, the top-level fields left out of a participant's payload.
REVIEWED: dict[type[DomainEvent], frozenset[str]] = {t: frozenset() for t in DOTTED} | {
    FyAllocationRun: frozenset({"total_cents", "cap_usage", "excluded_application_ids"}),
    CapCharged: frozenset({"charges"}),
    CertificateNoticeIssued: frozenset({"halted_certificate_ids", "suspended_listing_ids"}),
    CertificateNoticeLifted: frozenset({"resumed_listing_ids"}),
    UthReviewRecorded: frozenset({"cap_releases", "descendants", "cuts"}),
    QueueDeferred: frozenset({"position", "cap_cents"}),
    QueueAllowed: frozenset({"remaining_cents", "cap_cents"}),
    # A registrant has no party yet; should one ever be concerned, the officers, the
    # affiliates and the tax id stay with the Authority.
    RegistrationRequested: frozenset({"tax_id", "officers", "affiliates", "contact_email"}),
    AccountEventRecorded: frozenset({"detail", "by_user_id"}),
}
_REVIEWED_BY_TYPE = by_type(REVIEWED)


def _names_parties(row: dict[str, Any]) -> set[str]:
    return {v for k, v in row.items() if k.endswith("party_id") and isinstance(v, str)}


def _narrow_list(items: list[Any], party_id: str) -> list[Any]:
    out = []
    for item in items:
        if isinstance(item, dict):
            named = _names_parties(item)
            if named and party_id not in named:
                continue  # another party's row
            out.append(narrow(item, party_id))
        else:
            out.append(item)
    return out


def narrow(payload: dict[str, Any], party_id: str, own_event: bool = False) -> dict[str, Any]:
    """A payload's rows and party-id lists cut to one party's."""
    out: dict[str, Any] = {}
    for key, value in payload.items():
        if key.endswith("party_ids") and isinstance(value, list):
            out[key] = [p for p in value if p == party_id]
        elif isinstance(value, list) and not own_event:
            out[key] = _narrow_list(value, party_id)
        elif isinstance(value, dict) and not own_event:
            out[key] = narrow(value, party_id)
        else:
            out[key] = value
    return out


def payload_for(party_id: str | None, event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload a message carries to a subscription of `party_id` (None: the
    Authority's, every payload whole)."""
    if party_id is None:
        return dict(payload)
    left_out = _REVIEWED_BY_TYPE.get(event_type)
    if left_out is None:
        return {}
    kept = {k: v for k, v in payload.items() if k not in left_out}
    return narrow(kept, party_id, own_event=kept.get("party_id") == party_id)
