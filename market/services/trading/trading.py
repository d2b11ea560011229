"""Trading use cases in one place for the API, the pages and the demo: listings and offers
(`market.services.trading.listings`), transfers and the Authority's decision
(`market.services.trading.transfers`), the rule checks both run
(`market.services.trading.rule_checks`) and the reads they share
(`market.services.trading.trade_views`).
"""

from market.services.trading.counters import accept_counter, counter_offer, decline_counter
from market.services.trading.listings import (
    create_listing,
    decline_offer,
    list_listings,
    listing_view,
    make_offer,
    withdraw_listing,
)
from market.services.trading.rule_checks import today
from market.services.trading.trade_lists import ListedView, ListingView
from market.services.trading.trade_views import (
    OfferView,
    TransferView,
    load_listing,
    load_offer,
    load_transfer,
    offer_view,
    transfer_view,
)
from market.services.trading.transfer_decisions import approve_transfer, reject_transfer
from market.services.trading.transfers import (
    accept_offer,
    confirm_transfer,
    create_transfer,
    decline_transfer,
    get_transfer,
    list_transfers,
)

__all__ = [
    "ListedView",
    "ListingView",
    "OfferView",
    "TransferView",
    "accept_counter",
    "accept_offer",
    "approve_transfer",
    "confirm_transfer",
    "counter_offer",
    "create_listing",
    "create_transfer",
    "decline_counter",
    "decline_offer",
    "decline_transfer",
    "get_transfer",
    "list_listings",
    "list_transfers",
    "listing_view",
    "load_listing",
    "load_offer",
    "load_transfer",
    "make_offer",
    "offer_view",
    "reject_transfer",
    "today",
    "transfer_view",
    "withdraw_listing",
]
