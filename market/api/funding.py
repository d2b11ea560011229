"""The closing record of a transfer (PRODUCT.md 8.3): payment, receipt, refund owed."""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.typing import ResponseReturnValue
from marshmallow import Schema, fields

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, engine
from market.domain.commands.trading import RecordPayment
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.trading import funding
from market.validation import PaymentIn

blp = Blueprint("funding", __name__, url_prefix="/api/v1", description="Closing record")


class ReceiptIn(Schema):
    received_on = fields.Date(load_default=None)


class PaymentOut(Schema):
    reference = fields.String()
    amount_cents = fields.Integer()
    paid_on = fields.String()
    confirmed_on = fields.String(allow_none=True)


class FundingOut(Schema):
    transfer_id = fields.String()
    transfer_status = fields.String()
    consideration_cents = fields.Integer()
    payment = fields.Nested(PaymentOut, allow_none=True)
    status = fields.String(metadata={"description": "unpaid | paid | received"})
    funded = fields.Boolean(metadata={"description": "receipt confirmed of the whole price"})
    outstanding_cents = fields.Integer()
    refund_owed_cents = fields.Integer()


@blp.route("/transfers/<transfer_id>/payment", methods=["POST"])
@blp.arguments(PaymentIn)
@blp.alt_response(201, schema=FundingOut)
def record_payment(data: dict[str, Any], transfer_id: str) -> ResponseReturnValue:
    """The buyer records its payment of the consideration (reference, amount, date)."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> funding.FundingView:
        return funding.record_payment(
            uow,
            actor,
            RecordPayment(transfer_id, data["reference"], data["amount_cents"], data["paid_on"]),
        )

    return command(run, FundingOut())


@blp.route("/transfers/<transfer_id>/payment/confirm", methods=["POST"])
@blp.arguments(ReceiptIn)
@blp.alt_response(200, schema=FundingOut)
def confirm_receipt(data: dict[str, Any], transfer_id: str) -> ResponseReturnValue:
    """The seller confirms it received the payment."""
    actor = current_actor()

    def run(uow: UnitOfWork) -> funding.FundingView:
        return funding.confirm_receipt(uow, actor, transfer_id, data["received_on"])

    return command(run, FundingOut(), status=200)


@blp.route("/transfers/<transfer_id>/funding", methods=["GET"])
@blp.alt_response(200, schema=FundingOut)
def get_funding(transfer_id: str) -> ResponseReturnValue:
    """The closing record (the two parties, authority, auditor)."""
    actor = current_actor()
    with ReadOnly(engine()) as conn:
        view = funding.get_funding(conn, actor, transfer_id)
    return jsonify(FundingOut().dump(view))
