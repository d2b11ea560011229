"""The plan's one arithmetic (domain/rules/tech_plan.py): each T_i clipped by the party's
lifetime room as the year's earlier applications used it (TB-5), and leftover cents
with equal remainders to the earlier receipt instant, then the lower id (CMN-2, AMB-31)."""

from __future__ import annotations

from dataclasses import replace

from market.domain.rules.tech_plan import plan_columns, receipt_instant
from market.domain.rulesets import A1178

# Three 100-cent requests for a 200-cent cap, no floor or set-aside: 66 2/3 each.
TIES = replace(
    A1178,
    tech_fy_cap_cents=200,
    tech_zone_setaside_cents=0,
    tech_floor_cents=0,
    tech_lifetime_cap_cents=1_000,
)


def _row(app_id: str, party: str, at: str | None, requested: int = 100) -> tuple[object, ...]:
    return (app_id, party, requested, 100, False, at, "2013-03-01")


def test_a_row_without_its_instant_counts_from_new_york_midnight() -> None:
    assert receipt_instant(None, "2013-03-01") == "2013-03-01T00:00:00-05:00"
    assert receipt_instant("2013-03-01T09:30:00-05:00", "2013-03-01") == (
        "2013-03-01T09:30:00-05:00"
    )


def test_equal_remainders_go_to_the_earlier_instant_then_the_lower_id() -> None:
    rows = [
        _row("c", "p1", "2013-03-01T15:00:00-05:00"),
        _row("b", "p2", "2013-03-01T09:00:00-05:00"),  # stamped later, received earlier
        _row("a", "p3", "2013-03-01T15:00:00-05:00"),
    ]
    got = plan_columns(rows, {}, TIES)
    assert (got.triggered, got.total_cents, got.requests) == (True, 200, [100, 100, 100])
    assert got.cents == [66, 67, 67]  # b by its time; a before c by its id
    midnight = plan_columns([*rows[:2], _row("z", "p3", None)], {}, TIES)
    assert midnight.cents == [66, 67, 67]  # the day alone precedes the day's stamps


def test_a_partys_second_application_gets_what_its_first_left_of_the_room() -> None:
    rows = [_row("a", "p1", None, 700), _row("b", "p1", None, 700), _row("c", "p2", None, 50)]
    got = plan_columns(rows, {"p1": 200, "p2": 990}, TIES)
    assert got.requests == [100, 100, 10]  # max eligible 100; then 1,000 - 300; then 10 left
