"""The live TECH cap meter and allocation simulator (PRODUCT.md 8.3)."""

from __future__ import annotations

import json

from flask import Response
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine, ruleset
from market.services.kernel.uow import ReadOnly
from market.services.tech import simulator

blp = Blueprint(
    "tech_simulation", __name__, url_prefix="/api/v1/tech", description="TECH allocation simulator"
)


class SimulatedLineOut(Schema):
    application_id = fields.String()
    party_id = fields.String()
    received_on = fields.String()
    in_innovation_zone = fields.Boolean()
    requested_cents = fields.Integer()
    request_cents = fields.Integer(metadata={"description": "T_i: clipped to lifetime room"})
    allocated_cents = fields.Integer()
    certificate_id = fields.String(allow_none=True)
    lifetime_approved_cents = fields.Integer()
    lifetime_headroom_cents = fields.Integer()
    headroom_after_cents = fields.Integer()


class MeterOut(Schema):
    applications = fields.Integer()
    requested_cents = fields.Integer()
    zone_requested_cents = fields.Integer()
    zone_allocated_cents = fields.Integer()
    oversubscribed_by_cents = fields.Integer()
    cap_remaining_cents = fields.Integer()


class SimulationOut(Schema):
    fiscal_year = fields.Integer()
    committed = fields.Boolean()
    as_of = fields.String()
    deadline = fields.String()
    intake_open = fields.Boolean()
    triggered = fields.Boolean()
    cap_cents = fields.Integer()
    zone_setaside_cents = fields.Integer()
    floor_cents = fields.Integer()
    lifetime_cap_cents = fields.Integer()
    total_cents = fields.Integer(metadata={"description": "authority and auditor only"})
    meter = fields.Nested(MeterOut, metadata={"description": "authority and auditor only"})
    party_id = fields.String(metadata={"description": "a participant's own view only"})
    lifetime_approved_cents = fields.Integer()
    lifetime_headroom_cents = fields.Integer()
    allocations = fields.List(fields.Nested(SimulatedLineOut))


@blp.route("/allocations/<int(min=1900, max=2200):fiscal_year>/simulation", methods=["GET"])
@blp.alt_response(200, schema=SimulationOut)
def simulation(fiscal_year: int) -> ResponseReturnValue:
    """What the applications received so far would get if intake closed now (authority,
    auditor: every row and the cap meter; a participant: its own rows and lifetime
    headroom). Once committed, the committed allocation."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        result = simulator.simulate(conn, actor, fiscal_year, ruleset())
    # The service answers in the schema's shape with plain JSON values (the test compares
    # it with SimulationOut's dump): encoded directly, unsorted, as 10,000 rows add up.
    return Response(json.dumps(result, separators=(",", ":")), mimetype="application/json")
