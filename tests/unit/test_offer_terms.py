"""Prices quoted in cents on the dollar, and offers that expire (issue 28 item 3)."""

from __future__ import annotations

import json
from datetime import date
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from market.adapters.eventstore import canonical_json
from market.domain.errors import InvalidRequestError, OfferExpiredError
from market.domain.events import upcast
from market.domain.events.trading import OfferMade
from market.domain.rules import offer_terms
from tests import ledger_v1

DAY = date(2014, 9, 15)


def test_a_quote_of_90_5_cents_on_a_million_is_905_thousand() -> None:
    assert offer_terms.price_for(100_000_000, Fraction("90.5")) == 90_500_000


def test_a_quote_that_does_not_come_to_whole_cents_rounds_up() -> None:
    # $0.01 of credit at 75 cents on the dollar is 0.75 of a cent: one cent.
    assert offer_terms.price_for(1, Fraction(75)) == 1
    assert offer_terms.price_for(333, Fraction("75.1")) == 251  # 250.083 cents


@given(st.integers(1, 10**12), st.fractions(min_value=0, max_value=100))
def test_the_total_never_works_out_below_the_rate_quoted(amount: int, per_dollar: Fraction) -> None:
    price = offer_terms.price_for(amount, per_dollar)
    assert Fraction(price * 100, amount) >= per_dollar
    assert Fraction((price - 1) * 100, amount) < per_dollar


@pytest.mark.parametrize(("amount", "rate"), [(0, Fraction(90)), (100, Fraction(-1))])
def test_a_quote_needs_a_positive_amount_and_a_price_not_negative(
    amount: int, rate: Fraction
) -> None:
    with pytest.raises(InvalidRequestError):
        offer_terms.price_for(amount, rate)


def test_an_offer_stands_through_its_last_day_and_expires_the_day_after() -> None:
    assert not offer_terms.is_expired(DAY, DAY)
    assert offer_terms.is_expired(DAY, date(2014, 9, 16))
    assert not offer_terms.is_expired(None, date(2099, 1, 1))


def test_accepting_after_the_last_day_is_refused_naming_both_dates() -> None:
    offer_terms.check_not_expired("offer", DAY, DAY)
    with pytest.raises(OfferExpiredError) as refused:
        offer_terms.check_not_expired("offer", DAY, date(2014, 9, 16))
    assert refused.value.code == "offer_expired"
    assert "through 2014-09-15, and today is 2014-09-16" in refused.value.message


def test_new_terms_may_not_already_be_expired() -> None:
    offer_terms.check_expiry_ahead(None, DAY)
    offer_terms.check_expiry_ahead(DAY, DAY)
    with pytest.raises(InvalidRequestError, match="before today"):
        offer_terms.check_expiry_ahead(date(2014, 9, 14), DAY)


def test_an_offer_with_an_expiry_round_trips_and_an_old_one_keeps_its_bytes() -> None:
    old = ledger_v1.of_type("OFFER_MADE")[0]["payload"]
    typed = upcast("OFFER_MADE", old)
    assert isinstance(typed, OfferMade) and typed.expires_on is None
    assert typed.to_payload() == old  # no expires_on key written for an offer without one
    dated = OfferMade(**(dict(old) | {"expires_on": "2014-09-15"}))
    stored = json.loads(canonical_json(dated.to_payload()))
    assert stored["expires_on"] == "2014-09-15" and upcast("OFFER_MADE", stored) == dated
