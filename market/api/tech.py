"""TECH surrender applications and the fiscal-year allocation (preview and commit)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.adapters.repositories.casefiles import application_on_file
from market.api.blueprint import Blueprint
from market.api.casefile_schemas import CaseFileOut, ChecklistItemOut
from market.api.context import command, current_actor, engine, ruleset
from market.api.schemas import page_of
from market.api.timeline_schema import timeline_fields
from market.services.casefiles import checklists
from market.services.casefiles.checklists import with_case
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.queries import deal_views
from market.services.tech import tech, tech_allocation_views, tech_allocations
from market.validation import TechApplicationIn

blp = Blueprint("tech", __name__, url_prefix="/api/v1/tech", description="TECH program")

_YEAR = validate.Range(1990, 2200)


class TechApplicationOut(Schema):
    """`checklist`, `case_file` and `next_step` (RULES.md section 7) on single answers."""

    id = fields.String()
    party_id = fields.String()
    fiscal_year = fields.Integer()
    received_on = fields.String(metadata={"description": "the New York date of the receipt"})
    received_at = fields.String(
        allow_none=True, metadata={"description": "the receipt instant, New York time (TB-6)"}
    )
    receipt_reason = fields.String(
        allow_none=True, metadata={"description": "why the Authority recorded the receipt"}
    )
    nol_cents = fields.Integer()
    allocation_factor = fields.String()
    seller_tax_regime = fields.String()
    rnd_credit_cents = fields.Integer()
    in_innovation_zone = fields.Boolean()
    benefit_cents = fields.Integer()
    requested_cents = fields.Integer()
    eligible = fields.Boolean()
    reasons = fields.List(fields.String())
    allocated_cents = fields.Integer(allow_none=True)
    certificate_id = fields.String(allow_none=True)
    ruleset = fields.String()
    checklist = fields.List(fields.Nested(ChecklistItemOut))
    case_file = fields.Nested(CaseFileOut, allow_none=True)
    next_step = fields.String()


TechApplicationDetailOut = TechApplicationOut.from_dict(
    timeline_fields(), name="TechApplicationDetailOut"
)


class AllocationLineOut(Schema):
    application_id = fields.String()
    party_id = fields.String()
    request_cents = fields.Integer()
    allocated_cents = fields.Integer(allow_none=True)
    certificate_id = fields.String(allow_none=True)


class AllocationOut(Schema):
    fiscal_year = fields.Integer()
    triggered = fields.Boolean()
    total_cents = fields.Integer()
    committed = fields.Boolean()
    allocations = fields.List(fields.Nested(AllocationLineOut))


class ListArgs(Schema):
    fiscal_year = fields.Integer(load_default=None, validate=_YEAR)
    party_id = fields.String(load_default=None, validate=validate.Length(max=40))


@blp.route("/applications", methods=["POST"])
@blp.arguments(TechApplicationIn)
@blp.alt_response(201, schema=TechApplicationOut)
def create_application(data: dict[str, Any]) -> ResponseReturnValue:
    """Apply to surrender NOL and R&D benefits (authority, or the seller for itself)."""
    actor = current_actor()
    rules = ruleset()
    new = tech.NewTechApplication(**data)
    return command(
        lambda uow: with_case(uow, dict(tech.submit_application(uow, actor, rules, new))),
        TechApplicationOut(),
    )


@blp.route("/applications", methods=["GET"])
@blp.arguments(ListArgs, location="query")
@blp.alt_response(200, schema=page_of(TechApplicationOut, "TechApplicationPage"))
def list_applications(args: dict[str, Any]) -> ResponseReturnValue:
    """Applications (a participant sees only its own party's)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        items = tech.list_applications(conn, actor, args["fiscal_year"], args["party_id"])
    return jsonify({"items": TechApplicationOut(many=True).dump(items), "next": None})


@blp.route("/applications/<application_id>", methods=["GET"])
@blp.alt_response(200, schema=TechApplicationDetailOut)
def get_application(application_id: str) -> ResponseReturnValue:
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        found = tech.get_application(conn, actor, application_id)
        life = deal_views.tech_fields(conn, str(found["id"]), found["fiscal_year"])
        detail = {**found, **life, **checklists.for_application(conn, application_on_file(found))}
        return jsonify(TechApplicationDetailOut().dump(detail))


@blp.route("/allocations/<int(min=1900, max=2200):fiscal_year>/preview", methods=["POST"])
@blp.alt_response(200, schema=AllocationOut)
def preview(fiscal_year: int) -> ResponseReturnValue:
    """The allocation the statute gives for the FY's eligible applications; commits nothing."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        result = tech_allocations.preview_allocation(conn, actor, fiscal_year, ruleset())
    return jsonify(AllocationOut().dump(result))


@blp.route("/allocations/<int(min=1900, max=2200):fiscal_year>", methods=["POST"])
@blp.alt_response(201, schema=AllocationOut)
def commit(fiscal_year: int) -> ResponseReturnValue:
    """Commit the FY allocation once; each seller gets a TECH certificate (authority)."""
    actor = current_actor()
    rules = ruleset()

    def run(uow: UnitOfWork) -> tech_allocation_views.AllocationView:
        return tech_allocations.commit_allocation(uow, actor, fiscal_year, rules)

    return command(run, AllocationOut())


@blp.route("/allocations/<int(min=1900, max=2200):fiscal_year>", methods=["GET"])
@blp.alt_response(200, schema=AllocationOut)
def get_allocation(fiscal_year: int) -> ResponseReturnValue:
    """The committed allocation of a FY (authority, auditor)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        return jsonify(
            AllocationOut().dump(tech_allocation_views.get_allocation(conn, actor, fiscal_year))
        )
