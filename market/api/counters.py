"""Counter-offers over the API (issue 28 item 3): the seller answers an open offer with
its own terms; the buyer accepts them (a transfer awaiting the Authority follows) or
declines them."""

from __future__ import annotations

from typing import Any

from flask.typing import ResponseReturnValue

from market.api.blueprint import Blueprint
from market.api.context import command, current_actor, ruleset
from market.api.trading import OFFER_OUT, OfferOut
from market.domain.commands.trading import CounterOffer
from market.services.kernel.uow import UnitOfWork
from market.services.trading import trading
from market.validation import CounterIn

blp = Blueprint("counters", __name__, url_prefix="/api/v1", description="Counter-offers")


@blp.route("/offers/<offer_id>/counter", methods=["POST"])
@blp.arguments(CounterIn)
@blp.alt_response(200, schema=OfferOut)
def counter_offer(data: dict[str, Any], offer_id: str) -> ResponseReturnValue:
    """The seller answers an open offer with its own amount and price (held to the rules
    an offer is); the buyer accepts or declines it."""
    actor, rules = current_actor(), ruleset()

    def run(uow: UnitOfWork) -> trading.OfferView:
        return trading.counter_offer(
            uow,
            actor,
            CounterOffer(offer_id, data["amount_cents"], data["price_cents"], data["expires_on"]),
            rules,
        )

    return command(run, OFFER_OUT, 200)


@blp.route("/offers/<offer_id>/counter/accept", methods=["POST"])
@blp.alt_response(201, schema=OfferOut)
def accept_counter(offer_id: str) -> ResponseReturnValue:
    """The buyer accepts the seller's counter: a transfer on its terms awaits the
    Authority's approval."""
    actor, rules = current_actor(), ruleset()
    return command(lambda uow: trading.accept_counter(uow, actor, offer_id, rules), OFFER_OUT)


@blp.route("/offers/<offer_id>/counter/decline", methods=["POST"])
@blp.alt_response(200, schema=OfferOut)
def decline_counter(offer_id: str) -> ResponseReturnValue:
    """The buyer declines the seller's counter; the offer is closed."""
    actor = current_actor()
    return command(lambda uow: trading.decline_counter(uow, actor, offer_id), OFFER_OUT, 200)
