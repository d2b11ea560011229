"""UTH tranches in the domain: conditional (unreviewed) installments on sale and on a
return (UTH-27, AMB-18), and a pass-through's share of each tranche (UTH-14, UTH-24)."""

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from market.domain.errors import InvalidRequestError, TrancheNotReviewedError
from market.domain.rules import uth_held_tranches, uth_sales
from market.domain.rulesets import A1178

TRANCHE = 240_000_000  # RULES M-1: a $2,400,000 tranche
REVIEWED_ONLY = replace(A1178, uth_unreviewed_tranches="reviewed_only")


def award(reviewed: int) -> list[dict[str, Any]]:
    """An original award's tranches for 2013-2015, the first `reviewed` approved."""
    return [
        {"period": 2013 + i, "cents": TRANCHE, "unsold_cents": TRANCHE, "fiscal_year": 2014 + i}
        | ({"review": "approved"} if i < reviewed else {})
        for i in range(3)
    ]


def test_a_sale_takes_the_earliest_unsold_cents_and_marks_unreviewed_ones_conditional() -> None:
    seller, buyer = uth_sales.split_tranches(award(reviewed=1), TRANCHE + 5)
    assert [t["unsold_cents"] for t in seller] == [0, TRANCHE - 5, TRANCHE]
    assert [(t["period"], t["cents"], t["conditional"]) for t in buyer] == [
        (2013, TRANCHE, False),
        (2014, 5, True),
    ]
    assert all(t["unsold_cents"] == 0 for t in buyer)
    assert uth_sales.unreviewed_in_sale(award(reviewed=1), TRANCHE + 5) == [(2014, 5)]
    assert uth_sales.unreviewed_in_sale(award(reviewed=1), TRANCHE) == []


def test_the_default_reading_sells_unreviewed_tranches_and_reviewed_only_refuses() -> None:
    assert A1178.uth_unreviewed_tranches == "conditional"
    assert uth_sales.check_unreviewed_sale(award(0), 10, A1178) == [(2013, 10)]
    assert uth_sales.check_unreviewed_sale(award(1), TRANCHE, REVIEWED_ONLY) == []
    with pytest.raises(TrancheNotReviewedError, match="tax period 2014, 2015") as refused:
        uth_sales.check_unreviewed_sale(award(1), 2 * TRANCHE + 1, REVIEWED_ONLY)
    assert refused.value.code == "tranche_not_reviewed"
    assert refused.value.details["reviewed_cents"] == TRANCHE
    assert refused.value.details["unreviewed"] == [
        {"period": 2014, "cents": TRANCHE},
        {"period": 2015, "cents": 1},
    ]
    with pytest.raises(InvalidRequestError, match="uth_unreviewed_tranches"):
        uth_sales.sells_unreviewed_tranches(replace(A1178, uth_unreviewed_tranches="maybe"))


def test_conditional_and_frozen_tranches_are_withheld_from_a_return() -> None:
    held = [
        {"period": 2013, "cents": 100, "applied_cents": 30, "conditional": False},
        {"period": 2014, "cents": 100, "conditional": True},
        {"period": 2015, "cents": 100, "conditional": True, "frozen": True},
        {"period": 2016, "cents": 100, "passed_cents": 100, "conditional": True},
    ]
    # A frozen conditional tranche counts as frozen only; a fully passed one not at all.
    assert uth_held_tranches.withheld(held, 2016) == {
        "conditional": (100, [2014]),
        "frozen": (100, [2015]),
    }
    used = uth_held_tranches.consume_tranches(held, 500, 2016)
    assert [t.get("applied_cents", 0) for t in used] == [100, 0, 0, 0]


def test_a_tranche_is_usable_from_its_period_through_its_20_carryforward_periods() -> None:
    """AMB-15 and UTH-10: the M-1 2013 tranche is usable in tax years 2013 to 2033."""
    tranche = {"period": 2013, "cents": TRANCHE, "carryforward_last_period": 2033}
    assert uth_held_tranches.tranche_state(tranche, 2012) == "not_yet_usable"
    assert (
        uth_held_tranches.tranche_state(tranche, 2013)
        == uth_held_tranches.tranche_state(tranche, 2033)
        == "usable"
    )
    assert uth_held_tranches.tranche_state(tranche, 2034) == "expired"
    assert (
        uth_held_tranches.tranche_state({"period": 2013, "cents": 1}, 2099) == "usable"
    )  # no window kept
    held = [tranche, {"period": 2014, "cents": 10, "carryforward_last_period": 2034}]
    assert uth_held_tranches.withheld(held, 2013) == {"not_yet_usable": (10, [2014])}
    assert uth_held_tranches.withheld(held, 2034) == {"expired": (TRANCHE, [2013])}
    used = uth_held_tranches.consume_tranches(held, TRANCHE, 2034)
    assert [t.get("applied_cents", 0) for t in used] == [0, 10]


def test_what_is_left_of_a_closed_window_expires_and_nothing_else() -> None:
    held = [
        {"period": 2013, "cents": 100, "applied_cents": 30, "carryforward_last_period": 2033},
        {"period": 2014, "cents": 100, "frozen": True, "carryforward_last_period": 2034},
        {"period": 2015, "cents": 100, "carryforward_last_period": 2035},
        {"period": 2016, "cents": 100},
    ]
    assert uth_held_tranches.expire_tranches(held, 2034) == (
        70,
        [held[0] | {"expired_cents": 70}, *held[1:]],
    )
    cents, after = uth_held_tranches.expire_tranches(held, 2099)
    assert cents == 270 and [t.get("expired_cents") for t in after] == [70, 100, 100, None]
    assert [uth_held_tranches.tranche_unapplied(t) for t in after] == [0, 0, 0, 100]
    assert uth_held_tranches.expire_tranches(after, 2099)[0] == 0  # never twice


def test_a_pass_through_shares_the_earliest_tranches_exactly() -> None:
    held = [
        {"period": 2013, "cents": 100, "applied_cents": 40, "review": "approved"},
        {"period": 2014, "cents": 100, "conditional": True, "at_risk_cents": 7},
    ]
    entity, owners = uth_held_tranches.pass_through_tranches(held, {"A": 75, "B": 25, "C": 0})
    assert [t.get("passed_cents", 0) for t in entity] == [60, 40]
    assert set(owners) == {"A", "B"}
    assert owners["A"] == [
        {"period": 2013, "cents": 45, "review": "approved"},
        {"period": 2014, "cents": 30, "conditional": True},
    ]
    assert owners["B"] == [
        {"period": 2013, "cents": 15, "review": "approved"},
        {"period": 2014, "cents": 10, "conditional": True},
    ]
    with pytest.raises(InvalidRequestError, match="less than the credit"):
        uth_held_tranches.pass_through_tranches(held, {"A": 161})


def test_a_one_cent_tranche_goes_to_one_owner_and_the_next_tranche_evens_them_out() -> None:
    held = [{"period": 2013, "cents": 1}, {"period": 2014, "cents": 100}]
    entity, owners = uth_held_tranches.pass_through_tranches(held, {"A": 1, "B": 1})
    assert [t["passed_cents"] for t in entity] == [1, 1]
    assert sum(t["cents"] for t in owners["A"]) == sum(t["cents"] for t in owners["B"]) == 1
    assert len(owners["A"]) + len(owners["B"]) == 2  # no owner gets a zero-cent tranche


@given(
    tranches=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=10),
    weights=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=6),
    data=st.data(),
)
def test_every_owner_gets_exactly_its_cents_and_every_tranche_gives_what_it_had(
    tranches: list[int], weights: list[int], data: st.DataObject
) -> None:
    held = [{"period": 2013 + i, "cents": c} for i, c in enumerate(tranches)]
    amount = data.draw(st.integers(min_value=0, max_value=sum(tranches)))
    total = sum(weights) or 1
    shares = {f"o{i}": amount * w // total for i, w in enumerate(weights)}
    entity, owners = uth_held_tranches.pass_through_tranches(held, shares)
    for owner, cents in shares.items():
        assert sum(t["cents"] for t in owners.get(owner, [])) == cents
        assert all(t["cents"] > 0 for t in owners.get(owner, []))
    for i, t in enumerate(entity):
        given_out = sum(x["cents"] for ts in owners.values() for x in ts if x["period"] == 2013 + i)
        assert t.get("passed_cents", 0) == given_out <= t["cents"]
