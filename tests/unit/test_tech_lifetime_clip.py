"""TB-5: each TECH request of a fiscal year is clipped to its seller's lifetime room as it
stands when the request is reached in receipt order, counting the seller's earlier
requests of the same year."""

from __future__ import annotations

from market.domain.rules.tech_caps import clip_in_receipt_order
from market.domain.rulesets import A1178

MILLION = 100_000_000  # cents


def test_a_second_request_of_one_seller_gets_only_what_its_first_left_of_the_cap() -> None:
    rows = [("seller", 10 * MILLION, 10 * MILLION), ("seller", 10 * MILLION, 10 * MILLION)]
    assert clip_in_receipt_order(rows, {}, A1178) == [10 * MILLION, 5 * MILLION]


def test_earlier_years_count_and_other_sellers_are_not_touched() -> None:
    rows = [
        ("old", 4 * MILLION, 4 * MILLION),
        ("new", 4 * MILLION, 3 * MILLION),
        ("old", 1 * MILLION, 1 * MILLION),
    ]
    assert clip_in_receipt_order(rows, {"old": 12 * MILLION}, A1178) == [
        3 * MILLION,
        3 * MILLION,
        0,
    ]


def test_a_seller_already_at_the_cap_gets_nothing() -> None:
    assert clip_in_receipt_order([("full", MILLION, MILLION)], {"full": 16 * MILLION}, A1178) == [0]
