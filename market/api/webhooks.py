"""Webhook subscriptions and their delivery log (Standard Webhooks; PRODUCT.md 8.2)."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.schemas import MAX_CURSOR, SeqPageArgs, page_of
from market.services.notify import webhooks
from market.services.notify.delivery import Settings

blp = Blueprint("webhooks", __name__, url_prefix="/api/v1", description="Webhooks")


class WebhookIn(Schema):
    url = fields.String(required=True, validate=validate.Length(1, 2000))
    event_types = fields.List(
        fields.String(validate=validate.Length(1, 64)),
        required=True,
        validate=validate.Length(1, 100),
        metadata={"description": 'event types, or ["*"] for all'},
    )


class WebhookOut(Schema):
    id = fields.String()
    url = fields.String()
    event_types = fields.List(fields.String())
    party_id = fields.String(allow_none=True)
    created_at = fields.String()
    created_seq = fields.Integer()
    status = fields.Function(
        webhooks.status_of,
        metadata={"description": "active, paused, or disabled (the receiver answered 410)"},
    )


class WebhookCreatedOut(WebhookOut):
    secret = fields.String(metadata={"description": "whsec_...: shown this once only"})


class AttemptOut(Schema):
    attempted_at = fields.String()
    status_code = fields.Integer(allow_none=True)
    error = fields.String(allow_none=True)
    duration_ms = fields.Integer()


class DeliveryOut(Schema):
    id = fields.String(metadata={"description": "the webhook-id header, the same on retries"})
    seq = fields.Integer()
    type = fields.String()
    status = fields.String(
        metadata={"description": "pending, delivered, or failed (DELIVERY_MAX_ATTEMPTS used)"}
    )
    attempts = fields.Integer()
    next_attempt_at = fields.String()
    delivered_at = fields.String(allow_none=True)
    attempt_log = fields.List(fields.Nested(AttemptOut))


class ReplayIn(Schema):
    from_seq = fields.Integer(required=True, validate=validate.Range(1, MAX_CURSOR))


class ReplayOut(Schema):
    webhook_id = fields.String()
    from_seq = fields.Integer()
    requeued = fields.Integer()
    new = fields.Integer()


def _settings() -> Settings:
    host = request.host.lower()
    if ":" not in host.rpartition("]")[2]:
        host += ":443" if request.scheme == "https" else ":80"
    listening = f"{request.environ.get('SERVER_NAME', '')}:{request.environ.get('SERVER_PORT')}"
    return Settings.from_config(current_app.config, [host, listening.lower()])


@blp.route("/webhooks", methods=["POST"])
@blp.arguments(WebhookIn)
@blp.alt_response(201, schema=WebhookCreatedOut)
def create_webhook(data: dict[str, Any]) -> ResponseReturnValue:
    """Subscribe a URL to event types (authority: any event; a participant: its party's)."""
    row = webhooks.register(
        engine(), current_actor(), data["url"], data["event_types"], _settings()
    )
    return jsonify(WebhookCreatedOut().dump(row)), 201


class WebhookListOut(Schema):
    items = fields.List(fields.Nested(WebhookOut))
    next = fields.String(
        allow_none=True, required=True, metadata={"description": "always null: one page"}
    )


@blp.route("/webhooks", methods=["GET"])
@blp.alt_response(200, schema=WebhookListOut)
def list_webhooks() -> ResponseReturnValue:
    """Your party's subscriptions (the Authority's: its own), oldest first."""
    rows = webhooks.list_for(engine(), current_actor())
    # Every list answers {items, next} (PRODUCT.md 4); a party's subscriptions are one page.
    return jsonify({"items": WebhookOut(many=True).dump(rows), "next": None})


@blp.route("/webhooks/<webhook_id>", methods=["DELETE"])
@blp.alt_response(204, description="Deleted: no longer listed nor sent to")
def delete_webhook(webhook_id: str) -> ResponseReturnValue:
    """Remove a subscription (its pending messages are given up)."""
    webhooks.delete(engine(), current_actor(), webhook_id)
    return "", 204


@blp.route("/webhooks/<webhook_id>/pause", methods=["POST"])
@blp.alt_response(200, schema=WebhookOut)
def pause_webhook(webhook_id: str) -> ResponseReturnValue:
    """Hold a subscription's messages (they queue until it is resumed)."""
    return jsonify(WebhookOut().dump(webhooks.pause(engine(), current_actor(), webhook_id)))


@blp.route("/webhooks/<webhook_id>/resume", methods=["POST"])
@blp.alt_response(200, schema=WebhookOut)
def resume_webhook(webhook_id: str) -> ResponseReturnValue:
    """Send again after a pause or a 410 Gone; what waited goes out at once."""
    return jsonify(WebhookOut().dump(webhooks.resume(engine(), current_actor(), webhook_id)))


@blp.route("/webhooks/<webhook_id>", methods=["GET"])
@blp.alt_response(200, schema=WebhookOut)
def get_webhook(webhook_id: str) -> ResponseReturnValue:
    """A subscription (its secret is not shown again)."""
    return jsonify(WebhookOut().dump(webhooks.load(engine(), current_actor(), webhook_id)))


@blp.route("/webhooks/<webhook_id>/deliveries", methods=["GET"])
@blp.arguments(SeqPageArgs, location="query")
@blp.alt_response(200, schema=page_of(DeliveryOut, "DeliveryPage"))
def list_deliveries(args: dict[str, Any], webhook_id: str) -> ResponseReturnValue:
    """Every message to the webhook with its attempts, by event seq."""
    items, nxt = webhooks.deliveries(
        engine(), current_actor(), webhook_id, args["after"], args["limit"]
    )
    return jsonify({"items": DeliveryOut(many=True).dump(items), "next": nxt})


@blp.route("/webhooks/<webhook_id>/replay", methods=["POST"])
@blp.arguments(ReplayIn)
@blp.alt_response(200, schema=ReplayOut)
def replay(data: dict[str, Any], webhook_id: str) -> ResponseReturnValue:
    """Send again every matching event from `from_seq` on (the same webhook-id for each)."""
    done = webhooks.replay(engine(), current_actor(), webhook_id, data["from_seq"])
    return jsonify(ReplayOut().dump(done))
