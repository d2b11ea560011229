"""The buyer calculator (PRODUCT.md 8.3): what a TECH purchase is worth to a buyer."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, ruleset
from market.api.schemas import cents, text
from market.services.kernel.uow import ReadOnly
from market.services.trading import calculator

blp = Blueprint("calculator", __name__, url_prefix="/api/v1/calculator", description="Calculators")

YEAR = validate.Range(1900, 2200)


class TechPurchaseIn(Schema):
    amount_cents = cents(minimum=1)
    price_cents = cents()
    tax_type = fields.String(load_default="CBT", validate=validate.OneOf(["CBT", "GIT"]))
    liability_cents = cents(required=False)
    entire_net_income_cents = cents(required=False)
    allocation_factor = fields.String(
        load_default=None, validate=validate.Regexp(r"^\s*(\d+(\.\d+)?|\.\d+|\d+/\d+)\s*$")
    )
    other_credits_cents = cents(required=False)
    statutory_minimum_cents = cents(required=False)
    first_tax_year = fields.Integer(strict=True, load_default=None, validate=YEAR)
    usable_through = fields.Integer(strict=True, load_default=None, validate=YEAR)
    rnd_cents = cents(required=False)
    certificate_id = text(40, required=False)
    listing_id = text(40, required=False)
    buyer_party_id = text(40, required=False)


class YearOut(Schema):
    tax_year = fields.Integer()
    rnd_applied_cents = fields.Integer()
    nol_applied_cents = fields.Integer()
    applied_cents = fields.Integer()
    limited_by = fields.String()


class TechValueOut(Schema):
    amount_cents = fields.Integer()
    price_cents = fields.Integer()
    tax_type = fields.String()
    liability_cents = fields.Integer()
    liability_from = fields.String(metadata={"description": "given | allocation_factor"})
    rnd_cents = fields.Integer()
    nol_derived_cents = fields.Integer()
    first_tax_year = fields.Integer()
    usable_through = fields.Integer()
    years = fields.List(fields.Nested(YearOut))
    usable_cents = fields.Integer()
    expires_unused_cents = fields.Integer()
    price_per_dollar_bps = fields.Integer()
    price_per_dollar_of_benefit_bps = fields.Integer(allow_none=True)
    net_benefit_cents = fields.Integer()
    certificate_id = fields.String(allow_none=True)
    buyer_party_id = fields.String(allow_none=True)
    checks = fields.List(fields.Dict(), allow_none=True)


@blp.route("/tech", methods=["POST"])
@blp.arguments(TechPurchaseIn)
@blp.alt_response(200, schema=TechValueOut)
def tech(data: dict[str, Any]) -> ResponseReturnValue:
    """What a TECH purchase is worth to a buyer (anyone signed in): the benefit it can use
    year by year under its liability and limits, and the price per dollar of that benefit.
    Computes only; writes nothing."""
    actor = current_actor()
    purchase = calculator.TechPurchase(**data)
    with ReadOnly(engine()) as conn:
        result = calculator.tech_value(conn, actor, purchase, ruleset())
    return jsonify(TechValueOut().dump(result))
