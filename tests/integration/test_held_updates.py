"""Projection updates held back by the unit of work (market/adapters/projections/pending.py),
on SQLite and PostgreSQL: a held row's changes go to the database in one UPDATE, at commit
or before anything could read them; an insert that could collide with a held-back change
of a unique key waits for it; a change the database refuses fails the commit and writes
nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import IntegrityError

from market.adapters.eventstore import head
from market.adapters.projections.pending import PendingUpdates
from market.adapters.tables import metadata
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import UnitOfWork
from market.services.parties.parties import NewParty, register_party
from tests.helpers import sent_statements

UPDATES_OF_PARTIES = re.compile(r'UPDATE "?parties"?', re.IGNORECASE)


def _party(uow: UnitOfWork, n: int) -> str:
    new = NewParty(name=f"P{n}", tax_id=f"T-{n}", entity_type="llc", tax_types=["GIT"])
    return str(register_party(uow, SYSTEM, new)["id"])


def _updates_of_parties(sent: list[str]) -> list[str]:
    return [u for statement in sent for u in UPDATES_OF_PARTIES.findall(statement)]


def _name(engine: Engine, party_id: str) -> str:
    with engine.connect() as conn:
        return str(
            conn.execute(text("select name from parties where id = :i"), {"i": party_id}).scalar()
        )


def _party_row(party_id: str, tax_id: str) -> dict[str, Any]:
    return {
        "id": party_id,
        "name": "Taker",
        "tax_id": tax_id,
        "entity_type": "llc",
        "tax_types": ["GIT"],
        "in_innovation_zone": False,
        "us_employees": None,
        "nj_full_time_employees": None,
        "formed_on": None,
        "operating_income_cents_by_year": {},
        "created_seq": 1,
        "director_exception": None,
    }


def _seeded(engine: Engine, *numbers: int) -> list[str]:
    with UnitOfWork(engine) as uow:
        ids = [_party(uow, n) for n in numbers]
        uow.commit()
    return ids


def test_a_rows_changes_go_to_the_database_in_one_update_at_commit(engine: Engine) -> None:
    (party,) = _seeded(engine, 1)
    with sent_statements(engine) as sent, UnitOfWork(engine) as uow:
        assert uow.store.get("parties", party) is not None  # held from here
        uow.store.update("parties", party, {"name": "First"})
        uow.store.update("parties", party, {"name": "Second", "formed_on": "2001-02-03"})
        assert _updates_of_parties(sent) == []  # nothing could read them yet
        assert uow.store.get("parties", party)["name"] == "Second"  # the held copy follows
        uow.events.append("test-held", "HELD_TEST", {}, SYSTEM.label)
        uow.commit()
    assert len(_updates_of_parties(sent)) == 1
    assert _name(engine, party) == "Second"


def test_anything_that_could_read_a_held_back_change_sees_it(engine: Engine) -> None:
    (party,) = _seeded(engine, 2)
    with UnitOfWork(engine) as uow:
        uow.store.get("parties", party)
        uow.store.update("parties", party, {"name": "By rows"})
        assert [r["name"] for r in uow.store.rows("parties", id=party)] == ["By rows"]
        uow.store.update("parties", party, {"name": "By connection"})
        query = text("select name from parties where id = :i")
        assert uow.conn.execute(query, {"i": party}).scalar() == "By connection"
        uow.store.update("parties", party, {"name": "By repository"})
        assert uow.parties.by_tax_id("T-2")["name"] == "By repository"  # type: ignore[index]


def test_an_insert_waits_for_a_held_back_change_of_a_unique_key(engine: Engine) -> None:
    """The party's tax id moves to a new one and another party takes the old one in the
    same unit: the insert would collide with the old value if the update waited for
    commit."""
    (party,) = _seeded(engine, 3)
    with UnitOfWork(engine) as uow:
        uow.store.get("parties", party)
        uow.store.update("parties", party, {"tax_id": "T-3-new"})
        taken = "pty_taken"
        uow.store.insert("parties", _party_row(taken, "T-3"))  # no read in between
        uow.commit()
    with engine.connect() as conn:
        rows = conn.execute(text("select id, tax_id from parties order by tax_id")).all()
    assert [tuple(r) for r in rows] == [(taken, "T-3"), (party, "T-3-new")]


def test_which_held_back_changes_an_insert_waits_for() -> None:
    pending = PendingUpdates()
    certificates, registrations = metadata.tables["certificates"], metadata.tables["registrations"]
    pending.add("certificates", "crt_1", {"balance_cents": 1, "children_count": 2})
    assert not pending.blocks_insert(certificates)  # no unique key touched
    pending.add("certificates", "crt_1", {"number": "X-1"})
    assert pending.blocks_insert(certificates)
    # A partial unique index's predicate may read any column.
    pending.add("registrations", "reg_1", {"status": "approved"})
    assert pending.blocks_insert(registrations)
    assert [(t, k) for t, k, _ in pending.take()] == [
        ("certificates", "crt_1"),
        ("registrations", "reg_1"),
    ]
    assert not pending


def test_a_held_back_change_the_database_refuses_fails_the_commit(engine: Engine) -> None:
    """`used_cents <= cap_cents` (a CHECK): the update is sent at commit, fails there, and
    nothing of the unit is written."""
    with engine.connect() as conn:
        before = head(conn)
    with UnitOfWork(engine) as uow:
        row = {"id": "cap-x", "bucket": "X", "fiscal_year": 2014, "cap_cents": 10}
        uow.store.insert("cap_usage", row | {"used_cents": 0, "queued_cents": 0})
        uow.store.get("cap_usage", "cap-x")
        uow.store.update("cap_usage", "cap-x", {"used_cents": 11})
        uow.events.append("test-held", "HELD_TEST", {}, SYSTEM.label)
        with pytest.raises(IntegrityError):
            uow.commit()
    with engine.connect() as conn:
        assert head(conn) == before
        assert conn.execute(text("select count(*) from cap_usage")).scalar() == 0
