"""What a counter-offer tells the other side (issue 28 item 3): the buyer is asked to accept
or decline the seller's terms, the seller hears the answer. notices.py folds this mapping
into NOTICES (it imports this module last, so import that one)."""

from __future__ import annotations

from market.domain.events import DomainEvent
from market.domain.events.trading import CounterOfferAccepted, CounterOfferDeclined, OfferCountered
from market.services.notify.notices import OFFER_LINK, Notice, keys

COUNTER_NOTICES: dict[type[DomainEvent], Notice] = {
    OfferCountered: Notice(
        keys("buyer_party_id"),
        "Counter-offer: {price_dollars} for {amount_dollars} of {certificate_number}",
        "{seller_party} answered your offer on certificate {certificate_number} with "
        "{price_dollars} for {amount_dollars}{until}. Accept or decline it on your Buying "
        "page.",
        OFFER_LINK,
        email=True,
    ),
    CounterOfferAccepted: Notice(
        keys("seller_party_id"),
        "Counter-offer accepted: {counter_amount_dollars} of {certificate_number}",
        "{buyer_party} accepted your counter-offer of {counter_price_dollars} for "
        "{counter_amount_dollars} of certificate {certificate_number}. Next: the Authority "
        "approves or rejects the transfer.",
        OFFER_LINK,
    ),
    CounterOfferDeclined: Notice(
        keys("seller_party_id"),
        "Counter-offer declined: {counter_amount_dollars} of {certificate_number}",
        "{buyer_party} declined your counter-offer of {counter_price_dollars} for "
        "{counter_amount_dollars} of certificate {certificate_number}; the offer is closed.",
        OFFER_LINK,
    ),
}
