"""Parties, ownership and the affiliation question."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, engine, page, ruleset
from market.api.schemas import EntityFacts, PageArgs, page_of
from market.domain.commands.parties import RecordOwnership
from market.domain.commands.records import HeadcountFacts, RecordPartyFacts
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.parties import parties
from market.services.records import party_facts
from market.validation import (
    OwnerIn,
    OwnersAgreementIn,
    PartyFactsIn,
    PartyFields,
    employees_field,
    naics_field,
)

blp = Blueprint("parties", __name__, url_prefix="/api/v1/parties", description="Parties")


class PartyIn(EntityFacts, PartyFields):
    """Who the party is (shared with the pages' form), its TECH eligibility facts and its
    report facts (PRODUCT.md 9.2)."""

    naics_code = naics_field()
    employees = employees_field()


class PartyOut(Schema):
    id = fields.String()
    name = fields.String()
    tax_id = fields.String()
    entity_type = fields.String()
    tax_types = fields.List(fields.String())
    in_innovation_zone = fields.Boolean()
    us_employees = fields.Integer(allow_none=True)
    nj_full_time_employees = fields.Integer(allow_none=True)
    formed_on = fields.String(allow_none=True)
    operating_income_cents_by_year = fields.Dict()
    naics_code = fields.String(allow_none=True, metadata={"description": "NAICS 2022"})
    employees = fields.Dict(metadata={"description": "employees by year"})
    owners = fields.List(fields.Dict())
    owners_agreement = fields.Dict(allow_none=True)
    director_exception = fields.String(
        allow_none=True, metadata={"description": "PT-7/AMB-53: the Director's exception"}
    )


class OwnershipOut(Schema):
    party_id = fields.String()
    owner_party_id = fields.String()
    voting_bps = fields.Integer()
    value_bps = fields.Integer()
    income_share_bps = fields.Integer(allow_none=True)


class OwnersAgreementOut(Schema):
    party_id = fields.String()
    agreement_id = fields.String()
    shares = fields.List(fields.Dict())
    filed_on = fields.String()
    reference = fields.String(allow_none=True)
    recorded_seq = fields.Integer()
    replaces_agreement_id = fields.String(allow_none=True)


class AffiliationOut(Schema):
    affiliated = fields.Boolean()
    reasons = fields.List(fields.String())
    paths = fields.List(fields.Raw())


@blp.route("", methods=["POST"])
@blp.arguments(PartyIn)
@blp.alt_response(201, schema=PartyOut)
def create_party(data: dict[str, Any]) -> ResponseReturnValue:
    """Register a business or taxpayer (authority)."""
    actor = current_actor()
    if data.get("formed_on") is not None:
        data["formed_on"] = data["formed_on"].isoformat()
    naics_code, employees = data.pop("naics_code"), data.pop("employees")
    new = parties.NewParty(**data)

    def run(uow: UnitOfWork) -> dict[str, Any]:
        party = parties.register_party(uow, actor, new)
        if naics_code is not None or employees is not None:
            party_facts.record_party_facts(
                uow, actor, RecordPartyFacts(party["id"], naics_code, employees)
            )
        return party_facts.with_facts(uow, dict(party))

    return command(run, PartyOut())


@blp.route("/<party_id>", methods=["PATCH"])
@blp.arguments(PartyFactsIn)
@blp.alt_response(200, schema=PartyOut)
def update_party_facts(data: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """Record the party's NAICS code and employees by year (authority; PRODUCT.md 9.2)."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> dict[str, Any]:
        tech = HeadcountFacts(
            data["us_employees"], data["nj_full_time_employees"], data["formed_on"]
        )
        facts = RecordPartyFacts(party_id, data["naics_code"], data["employees"], tech)
        party_facts.record_party_facts(uow, actor, facts)
        return party_facts.with_facts(uow, parties.load_party(uow, party_id))

    return command(run, PartyOut(), status=200)


@blp.route("", methods=["GET"])
@blp.arguments(PageArgs, location="query")
@blp.alt_response(200, schema=page_of(PartyOut, "PartyPage", fields.String(allow_none=True)))
def list_parties(args: dict[str, Any]) -> ResponseReturnValue:
    """Parties, page by page (a participant sees only its own)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        found, nxt = parties.list_parties(conn, actor, args["after"], args["limit"])
        items = [party_facts.with_facts(conn, dict(p)) for p in found]
    return page(items, PartyOut(), nxt)


@blp.route("/<party_id>", methods=["GET"])
@blp.alt_response(200, schema=PartyOut)
def get_party(party_id: str) -> ResponseReturnValue:
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        party: dict[str, Any] = dict(parties.get_party(conn, actor, party_id))
        party["owners_agreement"] = parties.owners_agreement(conn, party_id)
        return jsonify(PartyOut().dump(party_facts.with_facts(conn, party)))


@blp.route("/<party_id>/owners", methods=["POST"])
@blp.arguments(OwnerIn)
@blp.alt_response(201, schema=OwnershipOut)
def add_owner(data: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """Record who owns how much of a party (basis points of votes, value, income)."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> parties.OwnershipView:
        return parties.record_ownership(uow, actor, RecordOwnership(party_id, **data))

    return command(run, OwnershipOut())


@blp.route("/<party_id>/owners-agreement", methods=["POST"])
@blp.arguments(OwnersAgreementIn)
@blp.alt_response(201, schema=OwnersAgreementOut)
def file_owners_agreement(data: dict[str, Any], party_id: str) -> ResponseReturnValue:
    """Record that a partnership filed an owners' agreement with the Director (authority;
    UTH-14, AMB-17). It sets the owners' shares of the partnership's UTH credits; a later
    filing replaces it."""
    actor = current_actor()
    new = parties.NewOwnersAgreement(
        shares=[(s["owner_party_id"], s["share_bps"]) for s in data["shares"]],
        filed_on=data["filed_on"].isoformat(),
        reference=data.get("reference"),
    )

    def run(uow: UnitOfWork) -> parties.FiledAgreementView:
        return parties.file_owners_agreement(uow, actor, party_id, new)

    return command(run, OwnersAgreementOut())


@blp.route("/<party_id>/affiliation/<other_id>", methods=["GET"])
@blp.alt_response(200, schema=AffiliationOut)
def get_affiliation(party_id: str, other_id: str) -> ResponseReturnValue:
    """Are these two parties affiliated under TB-20? With the ownership paths that decide it."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        result = parties.affiliation_between(conn, actor, party_id, other_id, ruleset())
    return jsonify(AffiliationOut().dump(result))
