"""The write side of typed events: `uow.append` takes an event of a class and nothing
else, and what the services write reads back through `upcast` as exactly what was
stored, on both databases."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from market.adapters.eventstore import iter_events
from market.domain.events import VERSION_KEY, upcast
from market.domain.events.parties import PartyRegistered
from market.domain.rulesets import get_ruleset
from market.services import demo
from market.services.kernel.uow import UnitOfWork

PARTY: dict[str, Any] = {
    "party_id": "pty_typed",
    "name": "Typed Co",
    "tax_id": "22-0000001",
    "entity_type": "c_corporation",
    "tax_types": ["CBT"],
    "in_innovation_zone": False,
    "us_employees": None,
    "nj_full_time_employees": None,
    "formed_on": None,
    "operating_income_cents_by_year": {},
}


def test_uow_append_refuses_anything_but_a_typed_event(engine: Engine) -> None:
    with UnitOfWork(engine) as uow:
        with pytest.raises(TypeError, match="takes a typed event"):
            uow.append("party-pty_typed", PARTY, "test")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            uow.append("party-pty_typed", "PARTY_REGISTERED", PARTY, "test")  # type: ignore[call-arg]
        stored = uow.append("party-pty_typed", PartyRegistered(**PARTY), "test", new_stream=True)
        assert (stored.type, stored.payload) == ("PARTY_REGISTERED", PARTY)
        assert uow.store.get("parties", "pty_typed") is not None


def test_what_the_services_write_reads_back_as_what_was_stored(engine: Engine) -> None:
    demo.seed(engine, get_ruleset("A1178"))
    with engine.connect() as conn:
        stored = list(iter_events(conn))
    assert len({e.type for e in stored}) >= 19
    for e in stored:
        assert upcast(e.type, e.payload).to_payload() == e.payload, e.type
    issued = [e.payload for e in stored if e.type == "CERT_ISSUED"]
    assert {p["origin"] for p in issued} == {"issued", "allocation", "transfer", "pass_through"}
    # One factory for all four origins: version 2, the activities always a field of their own.
    assert all(
        p[VERSION_KEY] == 2 and isinstance(p["creditable_activity_ids"], list) for p in issued
    )
    assert all("creditable_activity_ids" not in p["attributes"] for p in issued)
    assert all(VERSION_KEY not in e.payload for e in stored if e.type != "CERT_ISSUED")
