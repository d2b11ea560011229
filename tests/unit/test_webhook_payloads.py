"""A webhook payload carries only what its subscriber may read through the API: every
event type, for every role that can subscribe (the Authority; a participant that is the
event's party; a participant only named in its rows)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from market.domain.events import event_class
from market.services.notify.event_names import DOTTED
from market.services.notify.webhook_payloads import REVIEWED, payload_for
from market.services.notify.webhooks import event_types

MINE, MAIN, STRANGER = "pty-mine", "pty-main", "pty-stranger"
TYPES = sorted(event_types())


def synthetic(event_type: str, top_party: str) -> dict[str, Any]:
    """A payload of the type's shape: its party fields name `top_party`, party-id lists
    and rows name both the subscriber and a stranger."""
    out: dict[str, Any] = {}
    for field in dataclasses.fields(event_class(event_type)):
        name, kind = field.name, str(field.type)
        if name.endswith("party_ids"):
            out[name] = [MINE, STRANGER]
        elif name.endswith("party_id"):
            out[name] = top_party
        elif "Sequence" in kind or "list" in kind:
            out[name] = [
                {"party_id": STRANGER, "allocated_cents": 999_00},
                {"party_id": MINE, "allocated_cents": 1_00},
            ]
        else:
            out[name] = 7 if "int" in kind else "v"
    return out


def test_every_event_type_has_a_reviewed_policy_and_a_dotted_name() -> None:
    classes = {event_class(t) for t in TYPES}
    assert classes <= set(REVIEWED) and classes <= set(DOTTED)


@pytest.mark.parametrize("event_type", TYPES)
def test_the_authority_reads_every_payload_whole(event_type: str) -> None:
    payload = synthetic(event_type, MINE)
    assert payload_for(None, event_type, payload) == payload


@pytest.mark.parametrize("event_type", TYPES)
def test_a_party_named_in_rows_gets_only_its_own_rows(event_type: str) -> None:
    payload = synthetic(event_type, MAIN)
    mine = payload_for(MINE, event_type, payload)
    assert STRANGER not in json.dumps(mine)
    assert not set(mine) & REVIEWED[event_class(event_type)]
    for key, value in mine.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            assert value == [{"party_id": MINE, "allocated_cents": 1_00}], key


@pytest.mark.parametrize("event_type", TYPES)
def test_the_events_own_party_never_sees_strangers_in_id_lists(event_type: str) -> None:
    payload = synthetic(event_type, MINE)
    mine = payload_for(MINE, event_type, payload)
    assert not set(mine) & REVIEWED[event_class(event_type)]
    for key, value in mine.items():
        if key.endswith("party_ids"):
            assert value == [MINE]
        if STRANGER in json.dumps(value):  # only rows of the party's own filing
            assert payload.get("party_id") == MINE and isinstance(value, list), key


def test_an_allocation_run_tells_a_seller_its_own_row_only() -> None:
    rows = [
        {
            "application_id": f"app-{i}",
            "party_id": f"pty-{i}",
            "request_cents": i * 100,
            "allocated_cents": i * 50,
            "certificate_id": f"crt-{i}",
        }
        for i in range(7)
    ]
    payload = {
        "fiscal_year": 2026,
        "triggered": True,
        "total_cents": 1050,
        "ruleset": "r",
        "allocations": rows,
        "excluded_application_ids": ["app-9"],
        "cap_usage": [{"id": "cap", "bucket": "b", "cap_cents": 1, "used_cents": 1}],
    }
    mine = payload_for("pty-3", "FY_ALLOCATION_RUN", payload)
    assert mine == {
        "fiscal_year": 2026,
        "triggered": True,
        "ruleset": "r",
        "allocations": [rows[3]],
    }
