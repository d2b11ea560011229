"""A party's NAICS 2022 code and employees by year (PRODUCT.md 9.2): the facts the
statutory reports break credits down by industry and size. PARTY_FACTS_RECORDED on the
party's stream; the latest recording stands."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.tables import PartyFacts
from market.domain.commands.records import RecordPartyFacts
from market.domain.events.records import PartyFactsRecorded
from market.domain.rules.records import check_employees, check_naics
from market.services.kernel.actor import AUTHORITY, Actor
from market.services.kernel.reads import Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork
from market.services.parties.parties import load_party

facts_t = PartyFacts.__table__  # type: ignore[attr-defined]


class PartyFactsView(TypedDict):
    """A party's industry (NAICS 2022) and employees by year ("2024": 12)."""

    naics_code: str | None
    employees: dict[str, int]


def no_facts() -> PartyFactsView:
    return {"naics_code": None, "employees": {}}


def record_party_facts(
    uow: AbstractUnitOfWork, actor: Actor, command: RecordPartyFacts
) -> PartyFactsView:
    """Record (or replace) the party's industry and employees, and its TECH eligibility
    facts (TB-1) if given; a field left out (None) keeps what was recorded before."""
    party_id, naics_code, employees = command.party_id, command.naics_code, command.employees
    tech = command.tech
    actor.require(AUTHORITY)
    load_party(uow, party_id)
    before = facts_of(uow, party_id)
    code = check_naics(naics_code) if naics_code is not None else before["naics_code"]
    counts = check_employees(employees) if employees is not None else before["employees"]
    uow.append(
        f"party-{party_id}",
        PartyFactsRecorded(
            party_id=party_id,
            naics_code=code,
            employees=counts,
            us_employees=tech.us_employees if tech else None,
            nj_full_time_employees=tech.nj_full_time_employees if tech else None,
            formed_on=tech.formed_on.isoformat() if tech and tech.formed_on else None,
        ),
        actor.label,
    )
    return facts_of(uow, party_id)


def facts_of(source: Source, party_id: str) -> PartyFactsView:
    row = repositories(source).parties.store.get("party_facts", party_id)
    if row is None:
        return no_facts()
    return {"naics_code": row["naics_code"], "employees": dict(row["employees"])}


def with_facts(source: Source, party: dict[str, Any]) -> dict[str, Any]:
    """The party's answer with its facts (the API's and the pages' party views)."""
    return {**party, **facts_of(source, str(party["id"]))}


def facts_for(conn: Connection, party_ids: Iterable[str]) -> dict[str, PartyFactsView]:
    """The facts of many parties in one query (a page of parties); absent: none recorded."""
    ids = list(party_ids)
    if not ids:
        return {}
    rows = conn.execute(select(facts_t).where(facts_t.c.party_id.in_(ids))).mappings()
    return {
        r["party_id"]: {"naics_code": r["naics_code"], "employees": dict(r["employees"])}
        for r in rows
    }
