"""Reports: cap and pool use per fiscal year."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, ruleset
from market.services.certificates import certificate_caps
from market.services.kernel.uow import ReadOnly

blp = Blueprint("reports", __name__, url_prefix="/api/v1/reports", description="Reports")


class CapsArgs(Schema):
    fiscal_year = fields.Integer(strict=False, required=True, validate=validate.Range(1900, 2200))


class CapRowOut(Schema):
    program = fields.String()
    cap_cents = fields.Integer()
    used_cents = fields.Integer()
    queued_cents = fields.Integer()
    remaining_cents = fields.Integer()


class CapsOut(Schema):
    fiscal_year = fields.Integer()
    programs = fields.List(fields.Nested(CapRowOut))


@blp.route("/caps", methods=["GET"])
@blp.arguments(CapsArgs, location="query")
@blp.alt_response(200, schema=CapsOut)
def caps(args: dict[str, Any]) -> ResponseReturnValue:
    """Cap, used, queued and remaining per program and pool for one fiscal year."""
    current_actor()
    with ReadOnly(engine()) as conn:
        report = certificate_caps.caps_report(conn, args["fiscal_year"], ruleset())
    return jsonify(CapsOut().dump(report))
