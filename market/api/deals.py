"""A deal's life over the API: single offers and credit applications with their
timelines, and a participant's deals (its offers and purchases, its sales)."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields, validate

from market.api.blueprint import Blueprint
from market.api.context import current_actor, engine
from market.api.returns import CreditApplicationOut
from market.api.schemas import SeqPageArgs, page_of
from market.api.timeline_schema import TimelineEntryOut, timeline_fields
from market.api.trading import OfferDetailOut, TransferDetailOut
from market.services.kernel.uow import ReadOnly
from market.services.queries import deals

blp = Blueprint("deals", __name__, url_prefix="/api/v1", description="Deals and their timelines")

CreditApplicationDetailOut = CreditApplicationOut.from_dict(
    timeline_fields(), name="CreditApplicationDetailOut"
)


class DealOut(Schema):
    kind = fields.String(metadata={"description": "offer, or a negotiated transfer"})
    id = fields.String()
    certificate_id = fields.String()
    seller_party_id = fields.String()
    buyer_party_id = fields.String()
    amount_cents = fields.Integer()
    price_cents = fields.Integer()
    status = fields.String(metadata={"description": "the transfer's status once there is one"})
    reason = fields.String(allow_none=True)
    next_step = fields.String()
    timeline = fields.List(fields.Nested(TimelineEntryOut))
    offer = fields.Nested(OfferDetailOut, allow_none=True)
    transfer = fields.Nested(TransferDetailOut, allow_none=True)


class DealArgs(SeqPageArgs):
    side = fields.String(load_default="buyer", validate=validate.OneOf(["buyer", "seller"]))


@blp.route("/deals", methods=["GET"])
@blp.arguments(DealArgs, location="query")
@blp.alt_response(200, schema=page_of(DealOut, "DealPage"))
def my_deals(args: dict[str, Any]) -> ResponseReturnValue:
    """Your party's deals on one side (buyer: offers and purchases; seller: sales)."""
    with ReadOnly(engine()) as conn:
        items, nxt = deals.my_deals(
            conn, current_actor(), args["side"], args["after"], args["limit"]
        )
    return jsonify({"items": DealOut(many=True).dump(items), "next": nxt})


@blp.route("/offers/<offer_id>", methods=["GET"])
@blp.alt_response(200, schema=OfferDetailOut)
def get_offer(offer_id: str) -> ResponseReturnValue:
    """An offer with its timeline, which runs on into its transfer's."""
    with ReadOnly(engine()) as conn:
        return jsonify(OfferDetailOut().dump(deals.get_offer(conn, current_actor(), offer_id)))


@blp.route("/credit-applications/<application_id>", methods=["GET"])
@blp.alt_response(200, schema=CreditApplicationDetailOut)
def get_credit_application(application_id: str) -> ResponseReturnValue:
    """A credit applied to a return, with its timeline."""
    with ReadOnly(engine()) as conn:
        found = deals.get_credit_application(conn, current_actor(), application_id)
    return jsonify(CreditApplicationDetailOut().dump(found))
