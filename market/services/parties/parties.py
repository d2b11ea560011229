"""Registering parties and their ownership; the affiliation question between two parties."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any, TypedDict

from market.adapters.reads import parties as party_reads
from market.adapters.repositories.parties_models import (
    AgreementShare,
    OwnersAgreementRow,
    OwnerStake,
    PartyRow,
)
from market.domain.commands.parties import RecordOwnership
from market.domain.errors import InvalidRequestError
from market.domain.events.parties import (
    OwnersAgreementFiled,
    OwnershipRecorded,
    PartyRegistered,
)
from market.domain.rules import pass_through
from market.domain.rules.affiliation import OwnershipGraph, Stake, affiliation
from market.domain.rulesets import Ruleset
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.errors import ConflictError, not_found
from market.services.kernel.paging import split_page
from market.services.kernel.reads import Connection, Source, repositories
from market.services.kernel.uow import AbstractUnitOfWork

ENTITY_TYPES = (
    "c_corporation",
    "s_corporation",
    "partnership",
    "llc",
    "sole_proprietorship",
    "individual",
    "insurance_company",
)
TAX_TYPES = ("CBT", "GIT", "IPT")
MAX_BPS = 10_000


class PartyView(PartyRow):
    """A party with its recorded owners (TB-20)."""

    owners: list[OwnerStake]


class OwnershipView(TypedDict):
    party_id: str
    owner_party_id: str
    voting_bps: int
    value_bps: int
    income_share_bps: int | None


class FiledAgreementView(OwnersAgreementRow):
    """The agreement just filed, naming the one it replaces."""

    replaces_agreement_id: str | None


class AffiliationView(TypedDict):
    affiliated: bool
    reasons: list[str]
    paths: list[Any]  # each path's steps, as plain values


@dataclass(frozen=True)
class NewParty:
    name: str
    tax_id: str
    entity_type: str
    tax_types: list[str]
    in_innovation_zone: bool = False
    us_employees: int | None = None
    nj_full_time_employees: int | None = None
    formed_on: str | None = None
    operating_income_cents_by_year: dict[str, int] | None = None


def register_party(uow: AbstractUnitOfWork, actor: Actor, new: NewParty) -> PartyRow:
    actor.require(AUTHORITY)
    if new.entity_type not in ENTITY_TYPES:
        raise InvalidRequestError(
            f"Unknown entity type {new.entity_type!r}.", {"field": "entity_type"}
        )
    if not set(new.tax_types) <= set(TAX_TYPES):
        raise InvalidRequestError(
            "Tax types must be among CBT, GIT and IPT.", {"field": "tax_types"}
        )
    taken = uow.parties.by_tax_id(new.tax_id)
    if taken is not None:
        raise ConflictError(
            f"A party with tax id {new.tax_id} is already registered.",
            {"tax_id": new.tax_id, "party_id": taken["id"]},
        )
    party_id = f"pty_{uuid.uuid4().hex[:20]}"
    registered = PartyRegistered(
        party_id=party_id,
        name=new.name,
        tax_id=new.tax_id,
        entity_type=new.entity_type,
        tax_types=sorted(set(new.tax_types)),
        in_innovation_zone=new.in_innovation_zone,
        us_employees=new.us_employees,
        nj_full_time_employees=new.nj_full_time_employees,
        formed_on=new.formed_on,
        operating_income_cents_by_year=new.operating_income_cents_by_year or {},
    )
    uow.append(f"party-{party_id}", registered, actor.label, new_stream=True)
    return party_record(uow, party_id)


def record_ownership(
    uow: AbstractUnitOfWork, actor: Actor, command: RecordOwnership
) -> OwnershipView:
    party_id, owner_party_id, voting_bps, value_bps, income_share_bps = (
        command.party_id,
        command.owner_party_id,
        command.voting_bps,
        command.value_bps,
        command.income_share_bps,
    )
    actor.require(AUTHORITY)
    load_party(uow, party_id)
    load_party(uow, owner_party_id)
    if party_id == owner_party_id:
        raise InvalidRequestError("A party cannot own itself.", {"party_id": party_id})
    shares = {
        "voting_bps": voting_bps,
        "value_bps": value_bps,
        "income_share_bps": income_share_bps,
    }
    for name, bps in shares.items():
        if bps is not None and not 0 <= bps <= MAX_BPS:
            raise InvalidRequestError(f"{name} must be between 0 and 10000.", {name: bps})
    others = [o for o in uow.parties.owners_of(party_id) if o["owner_party_id"] != owner_party_id]
    held = {
        "voting_bps": sum(o["voting_bps"] or 0 for o in others),
        "value_bps": sum(o["value_bps"] or 0 for o in others),
        "income_share_bps": sum(o["income_share_bps"] or 0 for o in others),
    }
    for name, bps in shares.items():
        total = held[name] + (bps or 0)
        if total > MAX_BPS:
            raise InvalidRequestError(
                f"Stakes in this party would sum to {total} bps of {name[:-4]}, over 10000.",
                {"field": name, "total_bps": total},
            )
    recorded = OwnershipRecorded(
        party_id=party_id,
        owner_party_id=owner_party_id,
        voting_bps=voting_bps,
        value_bps=value_bps,
        income_share_bps=income_share_bps,
    )
    uow.append(f"party-{party_id}", recorded, actor.label)
    return ownership_view(uow, party_id, owner_party_id)


def ownership_view(source: Source, party_id: str, owner_party_id: str) -> OwnershipView:
    row = repositories(source).parties.stake(party_id, owner_party_id)
    if row is None:
        raise LookupError(f"ownerships {party_id}:{owner_party_id} was not projected")
    return {
        "party_id": row["owned_party_id"],
        "owner_party_id": row["owner_party_id"],
        "voting_bps": row["voting_bps"],
        "value_bps": row["value_bps"],
        "income_share_bps": row["income_share_bps"],
    }


@dataclass(frozen=True)
class NewOwnersAgreement:
    shares: list[tuple[str, int]]  # (owner_party_id, share_bps) as sent
    filed_on: str  # ISO date the agreement was filed with the Director
    reference: str | None = None


def file_owners_agreement(
    uow: AbstractUnitOfWork, actor: Actor, party_id: str, new: NewOwnersAgreement
) -> FiledAgreementView:
    """UTH-14 / AMB-17: the Authority records that a partnership filed an owners' agreement
    with the Director. OWNERS_AGREEMENT_FILED on the party's stream; the latest filing is
    the agreement in force (it names the one it replaces)."""
    actor.require(AUTHORITY)
    party = load_party(uow, party_id)
    for owner_id in dict.fromkeys(owner for owner, _ in new.shares):
        load_party(uow, owner_id)
    recorded = {r["owner_party_id"] for r in uow.parties.owners_of(party_id)}
    current = owners_agreement(uow, party_id)
    shares = pass_through.validate_owners_agreement(
        party_id,
        party["entity_type"],
        new.shares,
        recorded,
        new.filed_on,
        current["filed_on"] if current is not None else None,
    )
    agreement_id = f"oag_{uuid.uuid4().hex[:20]}"
    filed = OwnersAgreementFiled(
        party_id=party_id,
        agreement_id=agreement_id,
        shares=[{"owner_party_id": o, "share_bps": bps} for o, bps in sorted(shares.items())],
        filed_on=new.filed_on,
        reference=new.reference,
        replaces_agreement_id=current["agreement_id"] if current is not None else None,
    )
    uow.append(f"party-{party_id}", filed, actor.label)
    found = owners_agreement(uow, party_id)
    if found is None:  # the projection handler writes the row on append
        raise LookupError(f"owners_agreements {party_id} was not projected")
    return FiledAgreementView(**found, replaces_agreement_id=filed.replaces_agreement_id)


def owners_agreement(source: Source, party_id: str) -> OwnersAgreementRow | None:
    """The owners' agreement in force for a partnership, or None if none was filed."""
    row = repositories(source).parties.owners_agreement(party_id)
    if row is None:
        return None
    return {
        "party_id": row["party_id"],
        "agreement_id": row["agreement_id"],
        "shares": [AgreementShare(**s) for s in row["shares"]],
        "filed_on": row["filed_on"],
        "reference": row["reference"],
        "recorded_seq": row["recorded_seq"],
    }


def party_record(source: Source, party_id: str) -> PartyRow:
    """The party's row, every column (what its pages show), or 404."""
    party = repositories(source).parties.record(party_id)
    if party is None:
        raise not_found("Party", "party_id", party_id)
    return party


def load_party(source: Source, party_id: str) -> dict[str, Any]:
    """`party_record` for the contexts that still read parties as plain rows."""
    return dict(party_record(source, party_id))


def get_party(conn: Connection, actor: Actor, party_id: str) -> PartyView:
    party = party_record(conn, party_id)
    actor.require_reader_of(party_id, not_found("Party", "party_id", party_id))
    return PartyView(**party, owners=party_reads.owners_of(conn, party_id))


def list_parties(
    conn: Connection, actor: Actor, after: str | None, limit: int
) -> tuple[list[PartyRow], str | None]:
    only = None if actor.role in (AUTHORITY, AUDITOR) else (actor.party_id or "")
    rows = party_reads.party_rows(conn, only, after, limit + 1)
    return split_page(rows, limit, lambda r: r["id"])


def ownership_graph(source: Source) -> OwnershipGraph:
    stakes = [
        Stake(r["owner_party_id"], r["owned_party_id"], r["voting_bps"], r["value_bps"])
        for r in repositories(source).parties.stakes()
    ]
    return OwnershipGraph.from_stakes(stakes)


def affiliation_between(
    conn: Connection, actor: Actor, a: str, b: str, ruleset: Ruleset
) -> AffiliationView:
    actor.require(AUTHORITY)
    load_party(conn, a)
    load_party(conn, b)
    return affiliation_view(ownership_graph(conn), a, b, ruleset)


def affiliation_view(graph: OwnershipGraph, a: str, b: str, ruleset: Ruleset) -> AffiliationView:
    """`affiliation_between`'s answer on a graph already built (a page deciding many pairs
    builds it once)."""
    result = affiliation(graph, a, b, ruleset)
    return {
        "affiliated": result.affiliated,
        "reasons": list(result.reasons),
        "paths": [_path_repr(p) for p in result.paths],
    }


def _path_repr(path: Any) -> Any:
    if isinstance(path, (list, tuple)):
        return [_path_repr(p) for p in path]
    if isinstance(path, (str, int, bool)) or path is None:
        return path
    if hasattr(path, "__dataclass_fields__"):
        return {k: _path_repr(getattr(path, k)) for k in path.__dataclass_fields__}
    return str(path)
