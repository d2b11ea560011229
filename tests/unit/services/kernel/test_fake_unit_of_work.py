"""The fake unit of work keeps the real one's promise: what is left without `commit()` is
gone, tables and events alike; what was committed stays, even when a later write in the
same block is left uncommitted."""

from __future__ import annotations

from market.services.parties.parties import NewParty, register_party
from tests.unit.fakes import FakeUnitOfWork
from tests.unit.services.world import AUTHORITY_USER


def _new(name: str, tax_id: str) -> NewParty:
    return NewParty(name=name, tax_id=tax_id, entity_type="c_corporation", tax_types=["CBT"])


def test_what_is_left_uncommitted_is_rolled_back_and_what_was_committed_stays() -> None:
    uow = FakeUnitOfWork()
    with uow:
        kept = register_party(uow, AUTHORITY_USER, _new("Kept", "10-0000001"))
        uow.commit()
        dropped = register_party(uow, AUTHORITY_USER, _new("Dropped", "10-0000002"))
    assert uow.parties.get(kept["id"]) is not None
    assert uow.parties.get(dropped["id"]) is None
    assert [e.stream for e in uow.events] == [f"party-{kept['id']}"]
    with uow:
        register_party(uow, AUTHORITY_USER, _new("Dropped again", "10-0000003"))
    assert len(uow.parties.where()) == 1 and len(uow.events) == 1


def test_a_unit_of_work_that_only_reads_changes_nothing() -> None:
    uow = FakeUnitOfWork()
    with uow:
        register_party(uow, AUTHORITY_USER, _new("Kept", "10-0000001"))
        uow.commit()
    before = (uow.store.tables["parties"].copy(), list(uow.events))
    with uow:
        assert len(uow.parties.where()) == 1
    assert (uow.store.tables["parties"], uow.events) == before
