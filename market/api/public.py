"""What anyone may read without signing in: a filing's status by its reference."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import engine, ruleset
from market.services.queries import public_status

blp = Blueprint("public", __name__, url_prefix="/api/v1/public", description="Public reads")


class StepOut(Schema):
    status = fields.String()
    at = fields.String()


class PublicStatusOut(Schema):
    reference = fields.String()
    kind = fields.String(metadata={"description": "transfer or tech_application"})
    filing = fields.String()
    status = fields.String()
    updated_at = fields.String(allow_none=True)
    filed_at = fields.String(allow_none=True)
    next_step = fields.String()
    deadline = fields.String(allow_none=True, metadata={"description": "ISO date, if one applies"})
    steps = fields.List(fields.Nested(StepOut))


@blp.route("/status/<reference>", methods=["GET"])
@blp.alt_response(200, schema=PublicStatusOut)
@blp.doc(security=[])
def get_status(reference: str) -> ResponseReturnValue:
    """A filing's status, next step and deadline (anyone, with its reference)."""
    found = public_status.status(engine(), reference[:64], ruleset())
    return jsonify(PublicStatusOut().dump(found))
