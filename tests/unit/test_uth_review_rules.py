"""The UTH annual review rules (UTH-11, UTH-26, AMB-14) in the domain."""

from dataclasses import replace

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.rules import uth_held_tranches, uth_review
from market.domain.rulesets import A1178

TRANCHE = 240_000_000  # RULES M-1: a $2,400,000 tranche


@pytest.mark.parametrize(
    ("finding", "outcome"),
    [
        ("approved", "approved"),
        ("restored", "restored"),
        ("new_positions_below_200", "reduced"),
        ("facility_sold", "forfeited"),
        ("late_documentation", "forfeited"),
    ],
)
def test_each_finding_gives_the_tranche_a_review_status(finding: str, outcome: str) -> None:
    assert uth_review.review_outcome(finding) == outcome


def test_none_and_unknown_findings_are_refused() -> None:
    for finding in ("none", "bad_weather"):
        with pytest.raises(InvalidRequestError, match="unknown UTH review finding"):
            uth_review.review_outcome(finding)


def test_the_m1_tranche_reduced_by_20_percent_loses_480_000_dollars() -> None:
    assert uth_review.review_cut(TRANCHE, 0, "new_positions_below_200", A1178) == 48_000_000
    assert uth_review.review_cut(TRANCHE, 0, "approved", A1178) == 0
    assert uth_review.review_cut(TRANCHE, 0, "restored", A1178) == 0
    assert uth_review.review_cut(TRANCHE, 0, "facility_sold", A1178) == TRANCHE


def test_a_period_is_never_cut_twice_and_a_forfeiture_takes_what_is_left() -> None:
    after = TRANCHE - 48_000_000
    assert uth_review.review_cut(after, 48_000_000, "new_positions_below_200", A1178) == 0
    assert uth_review.review_cut(after, 48_000_000, "statewide_workforce_drop", A1178) == after
    # sold down after the reduction: the reduction is not applied again
    assert uth_review.review_cut(10, 48_000_000, "new_positions_below_200", A1178) == 0
    assert uth_review.review_cut(0, 0, "facility_sold", A1178) == 0


def test_the_reduction_follows_the_ruleset_percentage() -> None:
    half = replace(A1178, uth_reduction_pct=50)
    assert uth_review.review_cut(1_001, 0, "new_positions_below_200", half) == 501


def test_a_facility_sale_reaches_every_later_period_other_findings_one() -> None:
    periods = list(range(2013, 2023))
    assert uth_review.reviewed_periods("facility_sold", 2020, periods) == [2020, 2021, 2022]
    assert uth_review.reviewed_periods("facility_fte_below_250", 2020, periods) == [2020]


def test_the_amb14_choice_is_a_ruleset_field() -> None:
    assert A1178.uth_transferred_tranche_effect == "freeze"
    assert uth_review.freezes_transferred_tranches(A1178) is True
    protected = replace(A1178, uth_transferred_tranche_effect="buyer_protected")
    assert uth_review.freezes_transferred_tranches(protected) is False
    with pytest.raises(InvalidRequestError, match="uth_transferred_tranche_effect"):
        uth_review.freezes_transferred_tranches(
            replace(A1178, uth_transferred_tranche_effect="pro")
        )


def test_frozen_tranches_hold_back_only_their_unapplied_cents() -> None:
    tranches = [
        {"period": 2013, "cents": 100, "applied_cents": 30, "frozen": True},
        {"period": 2014, "cents": 50, "frozen": False, "at_risk": True},
        {"period": 2015, "cents": 40, "applied_cents": 40, "frozen": True},
        {"period": 2016, "cents": 20},
    ]
    assert uth_held_tranches.tranche_unapplied(tranches[0]) == 70
    assert uth_held_tranches.withheld(tranches, 2016) == {"frozen": (70, [2013])}
    assert (
        uth_held_tranches.withheld(tranches[1:], 2016) == {}
        and uth_held_tranches.withheld([], 2016) == {}
    )


def test_an_application_uses_the_earliest_unfrozen_tranches() -> None:
    tranches = [
        {"period": 2012, "cents": 5, "applied_cents": 5},
        {"period": 2013, "cents": 100, "frozen": True},
        {"period": 2014, "cents": 50, "applied_cents": 10},
        {"period": 2015, "cents": 40},
        {"period": 2016, "cents": 20},
    ]
    used = uth_held_tranches.consume_tranches(tranches, 60, 2016)
    assert [t.get("applied_cents") for t in used] == [5, None, 50, 20, None]
    assert tranches[2]["applied_cents"] == 10  # the input is not changed
    # more than the tranches hold: what fits is recorded
    assert [
        t.get("applied_cents") for t in uth_held_tranches.consume_tranches(tranches, 500, 2016)
    ] == [
        5,
        None,
        50,
        40,
        20,
    ]
    assert uth_held_tranches.consume_tranches(tranches, 0, 2016) == tranches
