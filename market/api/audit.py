"""The audit trail per user (authority, auditor)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.schemas import EventOut, SeqPageArgs, page_of
from market.services.queries import audit

blp = Blueprint("audit", __name__, url_prefix="/api/v1/audit", description="Audit trail")


class AuditUserOut(Schema):
    id = fields.String()
    email = fields.String()
    role = fields.String()
    party_id = fields.String(allow_none=True)
    party_name = fields.String(allow_none=True)


class AuditEventOut(EventOut):
    user_id = fields.String()
    acted_for = fields.String(
        allow_none=True, metadata={"description": "the party id the user acted for, or its role"}
    )


@blp.route("/users", methods=["GET"])
@blp.alt_response(
    200, schema=page_of(AuditUserOut, "AuditUserList", fields.String(allow_none=True))
)
def list_users() -> ResponseReturnValue:
    """Every user, with the party it belongs to."""
    return jsonify(
        {
            "items": AuditUserOut(many=True).dump(audit.users(engine(), current_actor())),
            "next": None,
        }
    )


@blp.route("/users/<user_id>/events", methods=["GET"])
@blp.arguments(SeqPageArgs, location="query")
@blp.alt_response(
    200,
    schema=page_of(AuditEventOut, "AuditEventPage", extra={"user": fields.Nested(AuditUserOut)}),
)
def user_events(args: dict[str, Any], user_id: str) -> ResponseReturnValue:
    """What one user did: the events its actions appended, with the party it acted for."""
    who, items, nxt = audit.user_events(
        engine(), current_actor(), user_id, args["after"], args["limit"]
    )
    return jsonify(
        {
            "user": AuditUserOut().dump(who),
            "items": AuditEventOut(many=True).dump(items),
            "next": nxt,
        }
    )
