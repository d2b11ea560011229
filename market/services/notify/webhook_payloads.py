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

from market.services.notify.event_names import DOTTED

# Per event type, the top-level fields left out of a participant's payload.
REVIEWED: dict[str, frozenset[str]] = {t: frozenset() for t in DOTTED} | {
    "FY_ALLOCATION_RUN": frozenset({"total_cents", "cap_usage", "excluded_application_ids"}),
    "CAP_CHARGED": frozenset({"charges"}),
    "CERTIFICATE_NOTICE_ISSUED": frozenset({"halted_certificate_ids", "suspended_listing_ids"}),
    "CERTIFICATE_NOTICE_LIFTED": frozenset({"resumed_listing_ids"}),
    "UTH_REVIEW_RECORDED": frozenset({"cap_releases", "descendants", "cuts"}),
    "QUEUE_DEFERRED": frozenset({"position", "cap_cents"}),
    "QUEUE_ALLOWED": frozenset({"remaining_cents", "cap_cents"}),
    # A registrant has no party yet; should one ever be concerned, the officers, the
    # affiliates and the tax id stay with the Authority.
    "REGISTRATION_REQUESTED": frozenset({"tax_id", "officers", "affiliates", "contact_email"}),
    "ACCOUNT_EVENT_RECORDED": frozenset({"detail", "by_user_id"}),
}


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


def payload_for(hook: dict[str, Any], event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload a subscription's message carries."""
    party_id = hook.get("party_id")
    if party_id is None:
        return dict(payload)
    if event_type not in REVIEWED:
        return {}
    kept = {k: v for k, v in payload.items() if k not in REVIEWED[event_type]}
    return narrow(kept, party_id, own_event=kept.get("party_id") == party_id)
