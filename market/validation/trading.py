"""Trading: a listing, an offer, a negotiated transfer, the seller's acceptance, the
Authority's approval or rejection and the buyer's payment of a transfer (the seller's, the
market's, the Authority's and the closing page's forms load these, as the API does)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from market.domain.rules import proceeds
from market.services.trading.funding import MAX_REFERENCE
from market.validation.fields import cents, text


class ListingIn(Schema):
    certificate_id = text(40)
    amount_cents = cents(minimum=1)
    ask_cents = cents()


# Issue 28 item 3: the last business date (New York) the terms may be accepted.
EXPIRES_ON = fields.Date(
    load_default=None,
    metadata={
        "description": "the last business date (New York) on which these terms may be "
        "accepted; absent: they stand until withdrawn or answered"
    },
)


class OfferIn(Schema):
    amount_cents = cents(minimum=1)
    price_cents = cents()
    expires_on = EXPIRES_ON


class CounterIn(Schema):
    """The seller's counter to an offer: its own amount and price."""

    amount_cents = cents(minimum=1)
    price_cents = cents()
    expires_on = EXPIRES_ON


# BR-14 / TB-25: the seller's attested uses of the proceeds, from the statute's list.
USE_OF_PROCEEDS = fields.List(
    fields.String(validate=validate.OneOf(list(proceeds.USES))),
    load_default=None,
    validate=validate.Length(max=len(proceeds.USES)),
    metadata={"description": "BR-14/TB-25: what the proceeds fund (BRRAG, TECH)"},
)


class TransferIn(Schema):
    certificate_id = text(40)
    buyer_party_id = text(40)
    amount_cents = cents(minimum=1)
    consideration_cents = cents()
    agreement_ref = text(200, required=False)
    use_of_proceeds = USE_OF_PROCEEDS


class AcceptIn(Schema):
    use_of_proceeds = USE_OF_PROCEEDS


class PaymentIn(Schema):
    """The buyer's payment of a transfer's consideration (PRODUCT.md 8.3)."""

    reference = text(MAX_REFERENCE)
    amount_cents = cents(minimum=1)
    paid_on = fields.Date(required=True)


class ApproveIn(Schema):
    exchange_date = fields.Date(load_default=None)


class RejectIn(Schema):
    reason = text(500)


class DeclineIn(Schema):
    """The buyer's reason for declining a negotiated transfer (optional; the seller reads it)."""

    reason = text(500, required=False)
