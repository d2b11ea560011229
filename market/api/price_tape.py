"""The public price tape (PRODUCT.md 8.3): no sign-in, no party names, k-anonymous buckets."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import engine
from market.services.kernel.uow import ReadOnly
from market.services.trading import price_tape

blp = Blueprint("price_tape", __name__, url_prefix="/api/v1/public", description="Price tape")

PROGRAMS = ["BRRAG", "UTH", "DM_GIT", "DM_CBT", "TECH"]


class TapeArgs(Schema):
    program = fields.String(load_default=None, validate=validate.OneOf(PROGRAMS))
    fiscal_year = fields.Integer(
        strict=False, load_default=None, validate=validate.Range(1900, 2200)
    )


class BucketOut(Schema):
    program = fields.String()
    vintage = fields.Integer(metadata={"description": "FY of the lineage's original certificate"})
    quarter = fields.String(metadata={"description": "calendar quarter of the exchange date"})
    count = fields.Integer()
    median_bps = fields.Integer()
    p25_bps = fields.Integer()
    p75_bps = fields.Integer()


class TapeOut(Schema):
    items = fields.List(fields.Nested(BucketOut), required=True)
    next = fields.String(allow_none=True, required=True, metadata={"description": "always null"})
    as_of = fields.Date(required=True)
    min_transfers = fields.Integer(required=True)
    min_sellers = fields.Integer(required=True)


@blp.route("/price-tape", methods=["GET"])
@blp.arguments(TapeArgs, location="query")
@blp.alt_response(200, schema=TapeOut)
@blp.doc(security=[])
def tape(args: dict[str, Any]) -> ResponseReturnValue:
    """Price per dollar by program, vintage and closed quarter (anyone): `{items: [bucket],
    next, as_of, min_transfers, min_sellers}`; a bucket only with at least 3 transfers from
    at least 2 sellers; quantiles in whole bps, half up."""
    with ReadOnly(engine()) as conn:
        result = price_tape.price_tape_rows(conn, args["program"], args["fiscal_year"])
    return jsonify(result | {"items": BucketOut(many=True).dump(result["items"])})
