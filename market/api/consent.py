"""The buyer's consent to a negotiated transfer (PRODUCT.md 8.2): confirm or decline."""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, ruleset
from market.api.trading import TRANSFER_OUT, TransferOut
from market.services.trading import trading
from market.validation import DeclineIn

blp = Blueprint("consent", __name__, url_prefix="/api/v1", description="The buyer's consent")


@blp.route("/transfers/<transfer_id>/confirm", methods=["POST"])
@blp.alt_response(200, schema=TransferOut)
def confirm_transfer(transfer_id: str) -> ResponseReturnValue:
    """The buyer confirms a negotiated transfer (`awaiting_buyer`); the rules are re-run
    and it goes to the Authority (`pending_approval`)."""
    actor, rules = current_actor(), ruleset()
    return command(
        lambda uow: trading.confirm_transfer(uow, actor, transfer_id, rules),
        TRANSFER_OUT,
        200,
    )


@blp.route("/transfers/<transfer_id>/decline", methods=["POST"])
@blp.arguments(DeclineIn)
@blp.alt_response(200, schema=TransferOut)
def decline_transfer(data: dict[str, Any], transfer_id: str) -> ResponseReturnValue:
    """The buyer declines a negotiated transfer it has not confirmed (`declined`)."""
    actor = current_actor()
    return command(
        lambda uow: trading.decline_transfer(uow, actor, transfer_id, data.get("reason")),
        TRANSFER_OUT,
        200,
    )
