"""Parties for the pages and lists: a keyset page of parties, a party's recorded owners,
the whole ownership web and the owners' agreements in force, the Director's exceptions."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.engine import Connection

from market.adapters.repositories.parties_models import (
    ExceptedParty,
    OwnersAgreementRow,
    OwnerStake,
    PartyRow,
    StakeRow,
    owners_agreement_row,
    party_row,
    stake_row,
)
from market.adapters.tables import OwnersAgreement, Ownership, Party

parties_t = Party.__table__  # type: ignore[attr-defined]
owners_t = Ownership.__table__  # type: ignore[attr-defined]
agreements_t = OwnersAgreement.__table__  # type: ignore[attr-defined]


def party_rows(conn: Connection, only: str | None, after: str | None, limit: int) -> list[PartyRow]:
    """Up to `limit` parties by id after `after`; `only` keeps that one party."""
    stmt = select(parties_t).order_by(parties_t.c.id).limit(limit)
    if only is not None:
        stmt = stmt.where(parties_t.c.id == only)
    if after:
        stmt = stmt.where(parties_t.c.id > after)
    return [party_row(dict(r)) for r in conn.execute(stmt).mappings()]


def owners_of(conn: Connection, party_id: str) -> list[OwnerStake]:
    """The party's recorded owners and their stakes, by owner."""
    stmt = (
        select(
            owners_t.c.owner_party_id,
            owners_t.c.voting_bps,
            owners_t.c.value_bps,
            owners_t.c.income_share_bps,
        )
        .where(owners_t.c.owned_party_id == party_id)
        .order_by(owners_t.c.owner_party_id)
    )
    return [
        OwnerStake(
            owner_party_id=r["owner_party_id"],
            voting_bps=r["voting_bps"],
            value_bps=r["value_bps"],
            income_share_bps=r["income_share_bps"],
        )
        for r in conn.execute(stmt).mappings()
    ]


def ownership_edges(conn: Connection) -> list[StakeRow]:
    stmt = select(owners_t).order_by(owners_t.c.owned_party_id, owners_t.c.owner_party_id)
    return [stake_row(dict(r)) for r in conn.execute(stmt).mappings()]


def agreements_in_force(conn: Connection) -> dict[str, OwnersAgreementRow]:
    rows = conn.execute(select(agreements_t)).mappings()
    return {r["party_id"]: owners_agreement_row(dict(r)) for r in rows}


def excepted_parties(conn: Connection, limit: int) -> list[ExceptedParty]:
    """The parties the Director has excepted (PT-7, AMB-53), by name."""
    stmt = (
        select(parties_t.c.id, parties_t.c.name, parties_t.c.director_exception)
        .where(parties_t.c.director_exception.is_not(None))
        .order_by(parties_t.c.name)
        .limit(limit)
    )
    return [
        ExceptedParty(id=r["id"], name=r["name"], director_exception=r["director_exception"])
        for r in conn.execute(stmt).mappings()
    ]
