"""Using certificates on returns, pass-through to owners, and recapture assessments.

The §40 liability-share cap (PT-2) is an input: every application of a credit against
GIT sends `cap40_cents` = ratio × its GIT liability before credits, or the `section_40`
figures the ratio is computed from (the domain's `liability_share_ratio`); without them
it is 400 `section_40_figures_required`, unless an individual bought the credit directly
under the Director's exception (ratio 1, AMB-53). The smaller of Cap40 and the program's
own limits binds (AMB-52).
"""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, ruleset
from market.services.certificates import pass_through_allocations, recaptures, returns
from market.services.kernel.uow import UnitOfWork
from market.validation import CreditApplicationIn, PassThroughIn, RecaptureIn

blp = Blueprint("returns", __name__, url_prefix="/api/v1", description="Returns and recapture")

_TAX = validate.OneOf(("CBT", "GIT", "IPT"))


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

    def run(uow: UnitOfWork) -> pass_through_allocations.PassThrough:
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
