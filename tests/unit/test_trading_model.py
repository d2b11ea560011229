"""The trading aggregates guard their own states (market.domain.model): a step on a
listing or offer not in the state it needs is a 409 naming the state it found."""

from __future__ import annotations

import pytest

from market.domain.errors import ConflictError
from market.domain.model import Listing, ListingStatus, Offer, OfferStatus

LISTING = Listing("lst_1", "crt_1", "p_seller", 400_000, 300_000, ListingStatus.OPEN)
OFFER = Offer("ofr_1", "lst_1", "crt_1", "p_seller", "p_buyer", 400_000, 300_000, OfferStatus.OPEN)


def listing(status: ListingStatus) -> Listing:
    return Listing("lst_1", "crt_1", "p_seller", 400_000, 300_000, status)


def offer(status: OfferStatus) -> Offer:
    return Offer("ofr_1", "lst_1", "crt_1", "p_seller", "p_buyer", 1, 1, status)


def test_only_an_open_listing_takes_offers_and_a_suspended_one_may_be_withdrawn() -> None:
    LISTING.check_open()
    listing(ListingStatus.SUSPENDED).check_withdrawable()
    assert LISTING.stream == "listing-lst_1"
    for status in (ListingStatus.SUSPENDED, ListingStatus.SOLD, ListingStatus.WITHDRAWN):
        with pytest.raises(ConflictError) as refused:
            listing(status).check_open()
        assert refused.value.details == {"listing_id": "lst_1", "status": status.value}
    with pytest.raises(ConflictError, match="is sold, not open"):
        listing(ListingStatus.SOLD).check_withdrawable()


def test_an_offer_is_answered_once_and_a_counter_only_when_countered() -> None:
    OFFER.check_open()
    offer(OfferStatus.COUNTERED).check_countered()
    with pytest.raises(ConflictError, match="is accepted, not open"):
        offer(OfferStatus.ACCEPTED).check_open()
    with pytest.raises(ConflictError, match="not countered by the seller"):
        offer(OfferStatus.DECLINED).check_countered()
