"""The ledger: events page by page, and verification."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api import trust
from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.schemas import MAX_CURSOR, EventOut, page_of
from market.services.trust import ledger, trust_recent

blp = Blueprint("ledger", __name__, url_prefix="/api/v1", description="The event ledger")


class EventsArgs(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(0, MAX_CURSOR))
    limit = fields.Integer(load_default=100, validate=validate.Range(1, 1000))


class VerifyOut(Schema):
    ok = fields.Boolean()
    events = fields.Integer()
    head_hash = fields.String()
    first_bad_seq = fields.Integer(allow_none=True)
    problems = fields.List(fields.String())
    # What the incremental check covered (services/trust/trust_recent.py).
    mode = fields.String()
    checkpoint = fields.Dict(allow_none=True)
    checked_from_seq = fields.Integer()
    checked_events = fields.Integer()
    checked = fields.List(fields.String())


@blp.route("/events", methods=["GET"])
@blp.arguments(EventsArgs, location="query")
@blp.alt_response(200, schema=page_of(EventOut, "EventPage"))
def list_events(args: dict[str, Any]) -> ResponseReturnValue:
    """Events after `after`, oldest first (authority, auditor)."""
    items, nxt = ledger.events_page(engine(), current_actor(), args["after"], args["limit"])
    return jsonify({"items": items, "next": nxt})


@blp.route("/ledger/verify", methods=["GET"])
@blp.alt_response(200, schema=VerifyOut)
def verify() -> ResponseReturnValue:
    """The incremental check from the last signed checkpoint (its root against the stored
    tree, then every later event's hash and link); the full check is `flask verify`."""
    report = trust_recent.verify_recent_for(engine(), current_actor(), trust.settings())
    return jsonify(VerifyOut().dump(report))
