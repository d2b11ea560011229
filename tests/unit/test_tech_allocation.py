"""TB-13, TB-14 and CMN-2 with the worked examples T-1, T-2 and T-4 of RULES.md section 5.1."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from market.domain.errors import InvalidRequestError
from market.domain.rules.tech_allocation import Applicant, allocate, receipt_key
from market.domain.rulesets import A1178

DOLLAR = 100
FLOOR = A1178.tech_floor_cents
CAP = A1178.tech_fy_cap_cents
SETASIDE = A1178.tech_zone_setaside_cents


def applicants(rows: list[tuple[str, int, bool]]) -> list[Applicant]:
    start = datetime(2013, 1, 2, 9, 0, tzinfo=UTC)
    return [
        Applicant(i, dollars * DOLLAR, zone, start + timedelta(minutes=k))
        for k, (i, dollars, zone) in enumerate(rows)
    ]


T1 = [
    ("Z1", 150_000, True),
    ("Z2", 2_000_000, True),
    ("Z3", 3_000_000, True),
    ("N1", 200_000, False),
    ("N2", 100_000, False),
    ("N3", 10_000_000, False),
    ("N4", 20_000_000, False),
    ("N5", 30_000_000, False),
    ("N6", 5_250_000, False),
]

T2 = [
    ("Z1", 200_000, True),
    ("Z2", 4_000_000, True),
    ("Z3", 8_000_000, True),
    ("Z4", 1_800_000, True),
    ("N1", 150_000, False),
    ("N2", 12_000_000, False),
    ("N3", 25_000_000, False),
    ("N4", 20_000_000, False),
    ("N5", 6_000_000, False),
]


def test_t1_zone_requests_within_the_set_aside_are_paid_in_full() -> None:
    result = allocate(applicants(T1), A1178)
    assert result.triggered
    assert result.amounts == {
        "Z1": 15_000_000,
        "Z2": 200_000_000,
        "Z3": 300_000_000,
        "N1": 20_000_000,
        "N2": 10_000_000,
        "N3": 837_626_459,
        "N4": 1_671_089_494,
        "N5": 2_504_552_529,
        "N6": 441_731_518,  # the one leftover cent: largest remainder 0.5097
    }
    assert result.total_cents == CAP == sum(result.amounts.values())


def test_t2_an_oversubscribed_zone_pool_is_split_floor_then_pro_rata() -> None:
    result = allocate(applicants(T2), A1178)
    assert result.amounts == {
        "Z1": 20_000_000,
        "Z2": 370_132_358,
        "Z3": 738_273_540,
        "Z4": 167_654_708,
        "N1": 15_000_000,
        "N2": 894_678_030,
        "N3": 1_856_875_000,
        "N4": 1_486_799_243,
        "N5": 450_587_121,
    }
    assert result.total_cents == CAP
    zone_total = sum(v for k, v in result.amounts.items() if k.startswith("Z"))
    assert zone_total == 1_296_060_606


def test_t4_requests_of_exactly_the_cap_are_all_paid_in_full() -> None:
    rows = [
        ("Z1", 3_000_000, True),
        ("N1", 250_000, False),
        ("N2", 30_000_000, False),
        ("N3", 26_750_000, False),
    ]
    result = allocate(applicants(rows), A1178)
    assert not result.triggered
    assert result.amounts == {
        "Z1": 300_000_000,
        "N1": 25_000_000,
        "N2": 3_000_000_000,
        "N3": 2_675_000_000,
    }
    assert result.total_cents == CAP


def test_a_ruleset_may_read_exceeds_as_reaching_the_cap() -> None:
    rows = [("N1", 30_000_000, False), ("N2", 30_000_000, False)]
    result = allocate(applicants(rows), replace(A1178, trigger_at_cap=True))
    assert result.triggered and result.amounts == {"N1": 3_000_000_000, "N2": 3_000_000_000}


def test_floors_alone_over_the_cap_are_apportioned_keeping_the_set_aside() -> None:
    small = replace(A1178, tech_fy_cap_cents=100_000_000, tech_zone_setaside_cents=30_000_000)
    rows = [("Z1", 1_000_000, True)] + [(f"N{i}", 250_000, False) for i in range(4)]
    result = allocate(applicants(rows), small)
    assert result.amounts["Z1"] == 30_000_000
    assert all(result.amounts[f"N{i}"] == 17_500_000 for i in range(4))
    assert result.total_cents == 100_000_000


def test_a_zone_applicant_below_the_floor_after_zone_apportioning_is_topped_up() -> None:
    tight = replace(A1178, tech_fy_cap_cents=200_000_000, tech_zone_setaside_cents=30_000_000)
    rows = [("Z1", 1_000_000, True), ("Z2", 1_000_000, True), ("N1", 5_000_000, False)]
    result = allocate(applicants(rows), tight)
    # Zone floors (50M) exceed the 30M set-aside, so each zone applicant first gets 15M
    # and then competes for the general floors: 10M top-up each, then the pro rata share.
    assert result.total_cents == 200_000_000
    assert result.amounts["Z1"] == result.amounts["Z2"] >= 25_000_000


def test_the_alternative_apportioning_scales_the_set_aside_too() -> None:
    small = replace(
        A1178,
        tech_fy_cap_cents=100_000_000,
        tech_zone_setaside_cents=30_000_000,
        allocation_apportion_mode="scale_all",
    )
    rows = [("Z1", 1_000_000, True)] + [(f"N{i}", 250_000, False) for i in range(4)]
    result = allocate(applicants(rows), small)
    assert result.amounts["Z1"] == 23_076_923
    assert result.amounts["N0"] == 19_230_770
    assert result.total_cents == 100_000_000


def test_a_set_aside_equal_to_the_cap_leaves_nothing_for_the_floors() -> None:
    whole = replace(A1178, tech_fy_cap_cents=100_000_000, tech_zone_setaside_cents=100_000_000)
    rows = [("Z1", 2_000_000, True), ("N1", 100_000, False)]
    result = allocate(applicants(rows), whole)
    assert result.amounts == {"Z1": 100_000_000, "N1": 0}


def test_a_set_aside_above_the_cap_is_refused() -> None:
    bad = replace(A1178, tech_zone_setaside_cents=CAP + 1)
    with pytest.raises(InvalidRequestError, match="more for the zones"):
        allocate(applicants(T1), bad)


def test_floor_only_rounding_leaves_the_leftover_cents_unallocated() -> None:
    result = allocate(applicants(T1), replace(A1178, rounding_mode="floor_cent"))
    assert result.amounts["N6"] == 441_731_517
    assert result.total_cents == CAP - 1


def test_leftover_cents_on_equal_remainders_go_to_the_earlier_receipt_then_the_id() -> None:
    small = replace(A1178, tech_fy_cap_cents=100, tech_zone_setaside_cents=0, tech_floor_cents=0)
    apps = [
        Applicant("b", 50, False, "2013-01-01T10:00:00"),
        Applicant("a", 50, False, "2013-01-01T10:00:00"),
        Applicant("c", 50, False, "2013-01-01T09:00:00+00:00"),
    ]
    result = allocate(apps, small)
    assert result.amounts == {"c": 34, "a": 33, "b": 33}


def test_nothing_is_given_to_an_applicant_that_requests_nothing() -> None:
    rows = [*T1, ("Z9", 0, True)]
    assert allocate(applicants(rows), A1178).amounts["Z9"] == 0


@pytest.mark.parametrize(
    ("apps", "message"),
    [
        ([Applicant("a", 1, False, "x"), Applicant("a", 1, False, "x")], "twice"),
        ([Applicant("a", -1, False, "2013-01-01")], "negative"),
        ([Applicant("a", 1, False, "yesterday")], "ISO 8601"),
    ],
)
def test_bad_applicants_are_refused(apps: list[Applicant], message: str) -> None:
    with pytest.raises(InvalidRequestError, match=message):
        allocate(apps, A1178)


def test_naive_receipt_times_are_read_as_utc() -> None:
    assert receipt_key("2013-01-01T10:00:00") == datetime(2013, 1, 1, 10, tzinfo=UTC)


def _reference(apps: list[Applicant]) -> dict[str, Fraction]:
    """RULES.md Appendix A, transcribed, for cross-checking the integer method."""
    cap, zcap, floor = Fraction(CAP), Fraction(SETASIDE), Fraction(FLOOR)

    def pool(reqs: dict[str, Fraction], limit: Fraction) -> dict[str, Fraction]:
        fl = {i: min(t, floor) for i, t in reqs.items()}
        sf = sum(fl.values(), Fraction(0))
        if sf >= limit:
            return {i: fl[i] * limit / sf for i in reqs}
        unmet = {i: reqs[i] - fl[i] for i in reqs}
        f = (limit - sf) / sum(unmet.values(), Fraction(0))
        return {i: fl[i] + unmet[i] * f for i in reqs}

    t = {a.id: Fraction(a.request_cents) for a in apps if a.request_cents > 0}
    zone = {a.id for a in apps if a.in_zone and a.request_cents > 0}
    total = sum(t.values(), Fraction(0))
    if total <= cap:
        return t
    zr = {i: t[i] for i in zone}
    z5 = zr if sum(zr.values(), Fraction(0)) <= zcap else pool(zr, zcap)
    a5 = sum(z5.values(), Fraction(0))
    g = {i: max(Fraction(0), min(t[i], floor) - z5.get(i, 0)) for i in t}
    gsum = sum(g.values(), Fraction(0))
    if gsum >= cap - a5:
        k = (cap - a5) / gsum
        return {i: z5.get(i, 0) + g[i] * k for i in t}
    r = {i: t[i] - z5.get(i, 0) - g[i] for i in t}
    f = (cap - gsum - a5) / (total - gsum - a5)
    return {i: z5.get(i, 0) + g[i] + r[i] * f for i in t}


request_cents = st.one_of(
    st.integers(min_value=0, max_value=FLOOR * 2),
    st.integers(min_value=0, max_value=3_000_000_000),
)
applicant_rows = st.lists(
    st.tuples(request_cents, st.booleans(), st.integers(min_value=0, max_value=5)),
    min_size=1,
    max_size=40,
)


def build(rows: list[tuple[int, bool, int]]) -> list[Applicant]:
    return [
        Applicant(f"A{k:03d}", t, z, f"2013-03-0{1 + minute}T00:00:00")
        for k, (t, z, minute) in enumerate(rows)
    ]


@settings(max_examples=150, deadline=None)
@given(applicant_rows)
def test_every_property_of_the_allocation_holds(rows: list[tuple[int, bool, int]]) -> None:
    apps = build(rows)
    result = allocate(apps, A1178)
    requests = {a.id: a.request_cents for a in apps}
    total = sum(requests.values())
    assert all(0 <= result.amounts[i] <= requests[i] for i in requests)
    if not result.triggered:
        assert result.amounts == requests
        return
    assert result.total_cents == CAP == sum(result.amounts.values())
    zone_ids = [a.id for a in apps if a.in_zone]
    zone_requests = sum(requests[i] for i in zone_ids)
    assert sum(result.amounts[i] for i in zone_ids) >= min(zone_requests, SETASIDE)
    exact = _reference(apps)
    for i, cents in result.amounts.items():
        assert abs(cents - exact.get(i, Fraction(0))) < 1
    floors_fit = sum(min(t, FLOOR) for t in requests.values()) < CAP - min(zone_requests, SETASIDE)
    if floors_fit:
        assert all(result.amounts[i] >= min(t, FLOOR) for i, t in requests.items())
    assert total > CAP


@settings(max_examples=100, deadline=None)
@given(applicant_rows, st.randoms(use_true_random=False))
def test_the_result_does_not_depend_on_input_order(
    rows: list[tuple[int, bool, int]], rnd: random.Random
) -> None:
    apps = build(rows)
    shuffled = list(apps)
    rnd.shuffle(shuffled)
    assert allocate(shuffled, A1178).amounts == allocate(apps, A1178).amounts


def test_when_only_zone_applicants_fill_a_set_aside_equal_to_the_cap_they_share_it() -> None:
    whole = replace(A1178, tech_fy_cap_cents=100_000_000, tech_zone_setaside_cents=100_000_000)
    rows = [("Z1", 2_000_000, True), ("Z2", 500_000, True)]
    result = allocate(applicants(rows), whole)
    assert result.total_cents == 100_000_000
    assert result.amounts == {"Z1": 68_750_000, "Z2": 31_250_000}


@pytest.mark.parametrize(
    "field", ["allocation_apportion_mode", "allocation_zone_mode", "rounding_mode"]
)
def test_an_allocation_mode_that_is_not_implemented_is_refused(field: str) -> None:
    with pytest.raises(InvalidRequestError, match=field):
        changes: dict[str, Any] = {field: "guarantee_only"}
        allocate(applicants(T1), replace(A1178, **changes))
