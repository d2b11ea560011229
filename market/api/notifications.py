"""The signed-in user's inbox (PRODUCT.md 8.2)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.schemas import MAX_CURSOR, page_of
from market.services.notify import inbox

blp = Blueprint(
    "notifications", __name__, url_prefix="/api/v1", description="The signed-in user's inbox"
)


class NotificationOut(Schema):
    id = fields.String()
    type = fields.String(metadata={"description": "the event type that caused it"})
    subject = fields.String()
    body = fields.String()
    link = fields.String(allow_none=True)
    created_at = fields.String()
    read_at = fields.String(allow_none=True)
    seq = fields.Integer(metadata={"description": "the ledger event's seq"})


class InboxArgs(Schema):
    before = fields.Integer(load_default=None, validate=validate.Range(0, MAX_CURSOR))
    limit = fields.Integer(load_default=50, validate=validate.Range(1, 500))
    unread = fields.Boolean(load_default=False)


@blp.route("/notifications", methods=["GET"])
@blp.arguments(InboxArgs, location="query")
@blp.alt_response(200, schema=page_of(NotificationOut, "NotificationPage"))
def list_notifications(args: dict[str, Any]) -> ResponseReturnValue:
    """The signed-in user's notifications, newest first."""
    items, nxt = inbox.list_notifications(
        engine(), current_actor(), args["before"], args["limit"], args["unread"]
    )
    return jsonify({"items": NotificationOut(many=True).dump(items), "next": nxt})


@blp.route("/notifications/<notification_id>/read", methods=["POST"])
@blp.alt_response(200, schema=NotificationOut)
def mark_read(notification_id: str) -> ResponseReturnValue:
    """Mark one of your notifications read."""
    return jsonify(
        NotificationOut().dump(inbox.mark_read(engine(), current_actor(), notification_id))
    )
