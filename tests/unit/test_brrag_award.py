"""BR-1, BR-2, BR-4, BR-6: a BRRAG award is $1,500 a year for each retained full-time job;
issuance refuses a face the award does not support, a business with fewer than 10 years
of New Jersey operation, or no determination that it cannot use the credits in time."""

from __future__ import annotations

from datetime import date

import pytest

from market.domain.errors import IneligibleSellerError, InvalidRequestError
from market.domain.rules import brrag
from market.domain.rulesets import A1178

ON = date(2014, 9, 1)


def award(jobs: int = 100, years: int = 1, **kw: object) -> brrag.BrragAward:
    facts = {"nj_operations_since": date(2004, 9, 1), "cannot_use_before_expiry": True} | kw
    return brrag.BrragAward(jobs, years, **facts)  # type: ignore[arg-type]


def test_the_award_is_1500_dollars_a_year_per_retained_job() -> None:
    assert brrag.yearly_credit_cents(100, A1178) == 150_000_00
    assert brrag.award_cents(award(100, 3), A1178) == 450_000_00


def test_a_face_the_award_supports_is_recorded_with_the_facts() -> None:
    recorded = brrag.check_award(450_000_00, award(100, 3), ON, A1178)
    assert recorded == {
        "retained_jobs": 100,
        "award_years": 3,
        "yearly_credit_cents": 150_000_00,
        "award_cents": 450_000_00,
        "nj_operations_since": "2004-09-01",
        "operation_years": 10,
        "cannot_use_before_expiry": True,
    }


def test_a_face_above_the_award_is_refused() -> None:
    with pytest.raises(brrag.AwardExceededError) as refused:
        brrag.check_award(450_000_01, award(100, 3), ON, A1178)
    assert refused.value.code == "award_exceeded"
    assert refused.value.details == {"face_cents": 450_000_01, "award_cents": 450_000_00}
    assert "100 retained full-time jobs x $1,500.00 x 3 year(s)" in refused.value.message


def test_ten_years_of_new_jersey_operation_are_needed_to_the_day() -> None:
    with pytest.raises(IneligibleSellerError) as refused:
        brrag.check_award(1, award(nj_operations_since=date(2004, 9, 2)), ON, A1178)
    assert refused.value.details == {
        "reasons": ["nj_operation_under_10_years"],
        "operation_years": 9,
    }
    assert brrag.operation_years(date(2004, 9, 1), ON) == 10


def test_the_determination_that_the_credit_cannot_be_used_in_time_is_required() -> None:
    with pytest.raises(brrag.DeterminationMissingError, match="BR-2"):
        brrag.check_award(1, award(cannot_use_before_expiry=False), ON, A1178)


def test_an_award_covers_one_year_or_more() -> None:
    with pytest.raises(InvalidRequestError, match="one or more years"):
        brrag.award_cents(award(years=0), A1178)
    with pytest.raises(InvalidRequestError):
        brrag.yearly_credit_cents(-1, A1178)
