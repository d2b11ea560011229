"""Using certificates on returns, pass-through to owners, and recapture assessments.

The §40 liability-share cap (PT-2) is an input: an owner applying a pass-through credit
against GIT sends `cap40_cents` = ratio × its GIT liability before credits (the domain's
`liability_share_ratio` and `cap40_cents`), and the smaller of that and the program's
own limits binds (AMB-52).
"""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, ruleset
from market.api.schemas import cents, text
from market.services import pass_through_allocations, recaptures, returns
from market.services.uow import UnitOfWork

blp = Blueprint("returns", __name__, url_prefix="/api/v1", description="Returns and recapture")

_TAX = validate.OneOf(("CBT", "GIT", "IPT"))


class Section40In(Schema):
    """PT-2: the figures the §40 liability-share ratio needs (cents)."""

    entity_income_cents = fields.Integer(strict=True, required=True)
    category_amounts_cents = fields.List(
        fields.Integer(strict=True), required=True, validate=validate.Length(min=1, max=100)
    )
    other_categories_net_cents = fields.List(
        fields.Integer(strict=True), load_default=list, validate=validate.Length(max=100)
    )


class CreditApplicationIn(Schema):
    certificate_id = text(40)
    tax_type = fields.String(required=True, validate=_TAX)
    tax_year = fields.Integer(strict=True, required=True, validate=validate.Range(1990, 2200))
    liability_cents = cents()
    other_credits_cents = cents(required=False)
    statutory_minimum_cents = cents(required=False)
    amount_cents = cents(minimum=1)
    cap40_cents = cents(required=False)
    section_40 = fields.Nested(Section40In, load_default=None)


class CreditApplicationOut(Schema):
    id = fields.String()
    certificate_id = fields.String()
    party_id = fields.String()
    tax_type = fields.String()
    tax_year = fields.Integer()
    liability_cents = fields.Integer()
    other_credits_cents = fields.Integer()
    statutory_minimum_cents = fields.Integer()
    requested_cents = fields.Integer()
    applied_cents = fields.Integer()
    carried_forward_cents = fields.Integer()
    limited_by = fields.String()
    limits = fields.Dict()


class PassThroughIn(Schema):
    amount_cents = cents(required=False, minimum=1)


class OwnerShareOut(Schema):
    party_id = fields.String()
    amount_cents = fields.Integer()
    certificate_id = fields.String()


class PassThroughOut(Schema):
    certificate_id = fields.String()
    amount_cents = fields.Integer()
    basis = fields.String()
    owners_agreement = fields.Dict(allow_none=True)
    director_review = fields.Boolean()
    allocations = fields.List(fields.Nested(OwnerShareOut))


class RecaptureIn(Schema):
    party_id = text(40)
    certificate_id = text(40, required=False)
    amount_cents = cents(minimum=1)
    reason = text(500)
    tax_type = fields.String(validate=_TAX)
    program = fields.String(validate=validate.OneOf(("BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH")))
    transfer_id = text(40, required=False)
    basis = fields.String(
        load_default="other",
        validate=validate.OneOf(("hq_not_maintained", "proceeds_misused", "other")),
    )
    occurred_on = fields.Date(load_default=None)
    liquidation = fields.Boolean(load_default=False)


class RecaptureOut(Schema):
    id = fields.String()
    party_id = fields.String()
    certificate_id = fields.String(allow_none=True)
    amount_cents = fields.Integer()
    fund = fields.String()
    reason = fields.String()
    program = fields.String()
    transfer_id = fields.String(allow_none=True)
    basis = fields.String()
    hq_window_end = fields.String(allow_none=True)
    tax_type = fields.String()
    recaptured_from_balance_cents = fields.Integer()


@blp.route("/credit-applications", methods=["POST"])
@blp.arguments(CreditApplicationIn)
@blp.alt_response(201, schema=CreditApplicationOut)
def apply_credit(data: dict[str, Any]) -> ResponseReturnValue:
    """Apply a held certificate to a return (the holder, or authority)."""
    actor = current_actor()
    rules = ruleset()
    new = returns.NewCreditApplication(**data)
    return command(
        lambda uow: returns.apply_to_return(uow, actor, rules, new), CreditApplicationOut()
    )


@blp.route("/certificates/<certificate_id>/pass-through", methods=["POST"])
@blp.arguments(PassThroughIn)
@blp.alt_response(201, schema=PassThroughOut)
def pass_through(data: dict[str, Any], certificate_id: str) -> ResponseReturnValue:
    """Allocate an entity's credit to its owners by income share (PT-5, PT-6), or a UTH
    partnership's by its filed owners' agreement (UTH-14, AMB-17)."""
    actor = current_actor()
    rules = ruleset()

    def run(uow: UnitOfWork) -> dict[str, Any]:
        return pass_through_allocations.pass_through_allocate(
            uow, actor, certificate_id, data.get("amount_cents"), rules
        )

    return command(run, PassThroughOut())


@blp.route("/recaptures", methods=["POST"])
@blp.arguments(RecaptureIn)
@blp.alt_response(201, schema=RecaptureOut)
def recapture(data: dict[str, Any]) -> ResponseReturnValue:
    """Assess a recapture and route it to its fund (authority)."""
    actor = current_actor()
    new = recaptures.NewRecapture(**data)
    return command(lambda uow: recaptures.assess_recapture(uow, actor, new), RecaptureOut())
