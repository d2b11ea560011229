from datetime import date
from fractions import Fraction

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.programs import Program
from market.domain.rulesets import (
    A1178,
    ENACTED_SCHEDULE,
    RULESETS,
    ScheduleEntry,
    get_ruleset,
    ruleset_for,
)


def test_the_default_ruleset_is_the_bill_as_introduced() -> None:
    r = get_ruleset()
    assert r is A1178 and r.name == "A1178"
    assert r.tech_fy_cap_cents == 6_000_000_000
    assert r.tech_zone_setaside_cents == 1_000_000_000
    assert r.tech_floor_cents == 25_000_000
    assert r.tech_lifetime_cap_cents == 1_500_000_000
    assert r.min_consideration(Program.TECH) == 80
    assert r.min_consideration(Program.UTH) == 75
    assert r.uth_installment_fraction == Fraction(1, 10)
    assert r.dm_queue_mode == "partial_strict"
    assert r.resale_allowed is False


def test_njac_2022_changes_only_the_tech_caps() -> None:
    r = get_ruleset("NJAC-2022")
    assert (r.tech_fy_cap_cents, r.tech_zone_setaside_cents, r.tech_lifetime_cap_cents) == (
        7_500_000_000,
        1_500_000_000,
        2_000_000_000,
    )
    assert r.uth_fy_cap_cents == A1178.uth_fy_cap_cents
    assert set(RULESETS) == {"A1178", "NJAC-2022"}


def test_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="unknown ruleset"):
        get_ruleset("NJ-1999")


def test_rulesets_are_effective_dated_per_program() -> None:
    assert ruleset_for(Program.TECH, date(2030, 1, 1)).name == "A1178"
    assert ruleset_for(Program.TECH, date(2022, 7, 1), ENACTED_SCHEDULE).name == "NJAC-2022"
    assert ruleset_for(Program.TECH, date(2022, 6, 30), ENACTED_SCHEDULE).name == "A1178"
    assert ruleset_for(Program.UTH, date(2023, 1, 1), ENACTED_SCHEDULE).name == "A1178"


def test_a_date_no_ruleset_covers_is_refused() -> None:
    schedule = (ScheduleEntry("A1178", date(2012, 1, 10), date(2013, 1, 1)),)
    assert ruleset_for(Program.UTH, date(2012, 6, 1), schedule).name == "A1178"
    with pytest.raises(InvalidRequestError, match="no ruleset is in force"):
        ruleset_for(Program.UTH, date(2013, 1, 1), schedule)


def test_the_git_top_rate_is_the_latest_loaded_year() -> None:
    assert A1178.max_rate_git(2012) == Fraction(897, 10_000)
    assert A1178.max_rate_git(2015) == Fraction(897, 10_000)
    with pytest.raises(InvalidRequestError, match="no maximum GIT rate"):
        A1178.max_rate_git(2011)


def test_rulesets_can_be_used_as_keys() -> None:
    assert {A1178: 1}[get_ruleset("A1178")] == 1
    assert hash(get_ruleset("NJAC-2022")) != hash(A1178)
