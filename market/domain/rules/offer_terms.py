"""An offer's terms as this market quotes them, and how long they stand (issue 28 item 3).

Prices are quoted in cents on the dollar of credit (CMN-5 states the floor the same way);
the ledger records a price as integer cents for the amount, so a quote becomes cents by
`price_for`, rounded up to the next whole cent: the total never works out below the rate
quoted, so a quote at the floor stays at the floor.

An offer, or a seller's counter to it, may carry `expires_on`: the last business date
(MARKET_TODAY's clock, New York) on which it may be accepted. Expiry is not an event; it
is read from the date at the moment of acceptance, so no stored row can make an expired
offer acceptable."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from market.domain.errors import InvalidRequestError, OfferExpiredError
from market.domain.values import ceil_int


def price_for(amount_cents: int, cents_per_dollar: Fraction) -> int:
    """The price in cents of `amount_cents` of credit at `cents_per_dollar` (90.5 means
    $0.905 per $1), rounded up to a whole cent."""
    if amount_cents <= 0 or cents_per_dollar < 0:
        raise InvalidRequestError(
            "The amount must be positive and the price per dollar not negative.",
            {"amount_cents": amount_cents, "cents_per_dollar": str(cents_per_dollar)},
        )
    return ceil_int(amount_cents * cents_per_dollar / 100)


def is_expired(expires_on: date | None, today: date) -> bool:
    """True once the business date is past the last day the terms may be accepted."""
    return expires_on is not None and today > expires_on


def check_expiry_ahead(expires_on: date | None, today: date) -> None:
    """A new offer or counter may not already be expired: its last day is today or later."""
    if expires_on is not None and expires_on < today:
        raise InvalidRequestError(
            f"The offer would expire on {expires_on.isoformat()}, before today "
            f"({today.isoformat()}): choose today or a later date.",
            {"expires_on": expires_on.isoformat(), "today": today.isoformat()},
        )


def check_not_expired(what: str, expires_on: date | None, today: date) -> None:
    """Refuse to accept `what` (an offer, a counter-offer) past its last day."""
    if is_expired(expires_on, today):
        assert expires_on is not None
        raise OfferExpiredError(
            f"The {what} expired: it could be accepted through {expires_on.isoformat()}, "
            f"and today is {today.isoformat()}.",
            {"expires_on": expires_on.isoformat(), "today": today.isoformat()},
        )
