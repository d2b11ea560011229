"""UnitOfWork.append projects the typed event a service built, not its stored payload read
back through `upcast`: honest only because every class's event reads back from its
stored form (canonical JSON) as the same event. Proven here for every class, on the
events of a ledger written by the code before typed events, brought to the current
version (tests/unit/fakes.py checks it again for every event the services build)."""

from __future__ import annotations

import json

import pytest

from market.adapters.eventstore import canonical_json
from market.domain.events import event_class, event_types, upcast
from tests import casefile_events, ledger_v1


@pytest.mark.parametrize("type_", sorted(event_types()))
def test_an_event_reads_back_from_its_stored_payload_as_itself(type_: str) -> None:
    payloads = [e["payload"] for e in ledger_v1.of_type(type_)]
    payloads += casefile_events.SAMPLES.get(type_, [])  # types newer than the old ledger
    samples = [upcast(type_, p) for p in payloads]
    assert samples, f"the old ledger has no {type_}"
    for typed in samples:
        stored = json.loads(canonical_json(typed.to_payload()))
        again = upcast(type_, stored)
        assert type(again) is event_class(type_)
        assert again == typed
        assert again.to_payload() == stored


def test_a_changed_field_does_not_read_back_as_the_same_event() -> None:
    typed = upcast("PARTY_REGISTERED", ledger_v1.of_type("PARTY_REGISTERED")[0]["payload"])
    stored = json.loads(canonical_json(typed.to_payload()))
    stored["name"] = stored["name"] + " (changed)"
    assert upcast("PARTY_REGISTERED", stored) != typed
