"""The covenant monitor (PRODUCT.md 8.3): TECH sellers' headquarters windows and
use-of-proceeds certifications."""

from __future__ import annotations

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, ruleset
from market.services.kernel.uow import ReadOnly
from market.services.tech import covenants

blp = Blueprint("monitor", __name__, url_prefix="/api/v1/monitor", description="Risk monitor")


class ReminderOut(Schema):
    kind = fields.String(metadata={"description": "use_of_proceeds_certification | hq_window_end"})
    remind_on = fields.String()
    due_on = fields.String()


class CovenantLineOut(Schema):
    transfer_id = fields.String()
    certificate_id = fields.String()
    buyer_party_id = fields.String()
    amount_cents = fields.Integer()
    consideration_cents = fields.Integer()
    pfa_received_on = fields.String()
    hq_window_end = fields.String()
    window_open = fields.Boolean()
    days_left = fields.Integer()
    exposure_if_moved_today_cents = fields.Integer()
    use_of_proceeds = fields.List(fields.String())
    certifications_due = fields.List(fields.String())
    next_certification_due = fields.String(allow_none=True)
    reminders = fields.List(fields.Nested(ReminderOut))


class SellerCovenantsOut(Schema):
    party_id = fields.String()
    name = fields.String()
    open_windows = fields.Integer()
    exposure_if_moved_today_cents = fields.Integer()
    last_window_end = fields.String(allow_none=True)
    next_certification_due = fields.String(allow_none=True)
    transfers = fields.List(fields.Nested(CovenantLineOut))


class CovenantMonitorOut(Schema):
    as_of = fields.Date(required=True)
    scale = fields.String(metadata={"description": "the ruleset's HQ recapture scale"})
    items = fields.List(fields.Nested(SellerCovenantsOut), required=True)
    next = fields.String(allow_none=True, required=True, metadata={"description": "always null"})


@blp.route("/covenants", methods=["GET"])
@blp.alt_response(200, schema=CovenantMonitorOut)
def covenants_view() -> ResponseReturnValue:
    """Each TECH seller's 5-year headquarters window per transfer, the exposure if it moved
    today, and the next use-of-proceeds certification due (authority, auditor):
    `{as_of, scale, items: [seller], next}`."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        report = covenants.covenant_monitor(conn, actor, ruleset())
    return jsonify(report | {"items": SellerCovenantsOut(many=True).dump(report["items"])})
