"""TB-1 to TB-7, TB-23, TB-40 and AMB-35 to AMB-40, AMB-47, AMB-48, AMB-50."""

from dataclasses import replace
from datetime import date

import pytest

from market.domain.errors import (
    ApplicationDeadlinePassedError,
    InvalidRequestError,
    LifetimeCapExceededError,
)
from market.domain.rules.tech_caps import (
    application_fiscal_year,
    check_deadline,
    check_lifetime_cap,
    clip_request,
    lifetime_room_cents,
)
from market.domain.rules.tech_eligibility import (
    TechFacts,
    check_eligibility,
    fte_test_date,
    required_nj_ftes,
)
from market.domain.rulesets import A1178

FILED = date(2013, 3, 1)


def facts(**changes: object) -> TechFacts:
    base = TechFacts(
        us_employees=40,
        nj_full_time_employees=12,
        formed_on=date(2005, 1, 1),
        filed_on=FILED,
        operating_income_cents_by_year={2011: -5, 2012: -9},
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def test_a_small_loss_making_nj_business_is_eligible() -> None:
    result = check_eligibility(facts(), A1178, FILED)
    assert result.eligible and result.reasons == [] and result.messages == []


def test_225_us_employees_is_too_many() -> None:
    result = check_eligibility(facts(us_employees=225), A1178, FILED)
    assert result.reasons == ["too_many_us_employees"]
    assert result.messages == [
        "On 2013-06-30 the seller has 225 employees in the United States; fewer than 225 needed"
    ]
    assert check_eligibility(facts(us_employees=224), A1178, FILED).eligible


def test_each_failed_test_has_its_own_reason_code() -> None:
    bad = facts(
        nj_full_time_employees=9,
        operating_income_cents_by_year={2012: 1, 2009: -1},
        parent_positive_noi=True,
        consolidated_group_positive_noi=True,
        hq_in_nj=False,
        has_protected_ip=False,
        is_emerging=False,
    )
    assert check_eligibility(bad, A1178, FILED).reasons == [
        "too_few_nj_employees",
        "positive_operating_income",
        "profitable_parent",
        "profitable_consolidated_group",
        "no_nj_headquarters",
        "no_protected_ip",
        "not_emerging",
    ]


def test_only_the_two_previous_full_years_count_and_missing_years_pass() -> None:
    assert check_eligibility(
        facts(operating_income_cents_by_year={2010: 99}), A1178, FILED
    ).eligible
    assert check_eligibility(facts(operating_income_cents_by_year={}), A1178, FILED).eligible
    assert not check_eligibility(
        facts(operating_income_cents_by_year={2011: 1}), A1178, FILED
    ).eligible


@pytest.mark.parametrize(
    ("formed_on", "upper", "lower"),
    [
        (date(2011, 7, 1), 1, 1),  # under 3 years on 30 June 2013
        (date(2010, 6, 30), 5, 1),  # exactly 3 years
        (date(2009, 1, 1), 5, 5),
        (date(2008, 6, 30), 10, 5),  # exactly 5 years
        (date(2001, 1, 1), 10, 10),
    ],
)
def test_the_nj_employee_minimum_follows_the_age_tiers(
    formed_on: date, upper: int, lower: int
) -> None:
    on = date(2013, 6, 30)
    assert required_nj_ftes(formed_on, on, A1178) == upper
    assert required_nj_ftes(formed_on, on, replace(A1178, tech_nj_fte_boundary="lower")) == lower


def test_the_test_date_is_june_30_of_the_filing_year_or_of_its_fiscal_year() -> None:
    autumn = date(2012, 9, 1)
    assert fte_test_date(autumn, A1178) == date(2012, 6, 30)
    assert fte_test_date(autumn, replace(A1178, tech_fte_test_date="fiscal_year_end")) == date(
        2013, 6, 30
    )


def test_at_the_exchange_headcounts_and_the_certification_are_checked_again() -> None:
    exchange = date(2013, 11, 5)
    later = facts(
        us_employees=230,
        nj_full_time_employees=3,
        certifies_continuing_operation=False,
        parent_positive_noi=True,
    )
    result = check_eligibility(later, A1178, exchange, at_exchange=True)
    assert result.reasons == [
        "too_many_us_employees",
        "too_few_nj_employees",
        "no_continuing_operation_certification",
    ]
    assert result.messages[0].startswith("On 2013-11-05")
    assert check_eligibility(facts(), A1178, exchange, at_exchange=True).eligible


def test_requests_are_clipped_to_the_lifetime_room() -> None:
    assert lifetime_room_cents(1_400_000_000, A1178) == 100_000_000
    assert lifetime_room_cents(1_600_000_000, A1178) == 0
    assert clip_request(300_000_000, 250_000_000, 1_400_000_000, A1178) == 100_000_000
    assert clip_request(50, 40, 0, A1178) == 40
    assert clip_request(-5, 40, 0, A1178) == 0


def test_an_approval_over_the_lifetime_cap_is_refused() -> None:
    check_lifetime_cap(1_400_000_000, 100_000_000, A1178)
    with pytest.raises(LifetimeCapExceededError) as caught:
        check_lifetime_cap(1_400_000_000, 100_000_001, A1178)
    assert caught.value.details["remaining_cents"] == 100_000_000


def test_applications_belong_to_the_fiscal_year_they_are_received_in() -> None:
    assert application_fiscal_year(date(2013, 6, 30)) == 2013
    assert application_fiscal_year(date(2013, 7, 1)) == 2014
    check_deadline(date(2013, 6, 30), 2013, A1178)


def test_an_application_after_june_30_is_too_late_for_that_fiscal_year() -> None:
    with pytest.raises(ApplicationDeadlinePassedError) as caught:
        check_deadline(date(2013, 7, 1), 2013, A1178)
    assert caught.value.details["belongs_to_fiscal_year"] == 2014


def test_an_application_for_a_later_fiscal_year_is_refused() -> None:
    with pytest.raises(InvalidRequestError, match="belongs to FY 2013"):
        check_deadline(date(2013, 1, 1), 2014, A1178)


def test_the_guard_refuses_an_ineligible_seller_with_its_reasons() -> None:
    from market.domain.errors import IneligibleSellerError
    from market.domain.rules.tech_eligibility import check_eligible

    assert check_eligible(facts(), A1178, FILED).eligible
    with pytest.raises(IneligibleSellerError) as caught:
        check_eligible(facts(hq_in_nj=False), A1178, FILED)
    assert caught.value.details == {"reasons": ["no_nj_headquarters"], "at_exchange": False}


def test_tech_approvals_for_one_fiscal_year_stay_within_the_60_million_cap() -> None:
    from market.domain.errors import CapExceededError
    from market.domain.rules.tech_caps import check_fy_cap

    check_fy_cap(5_900_000_000, 100_000_000, A1178)
    with pytest.raises(CapExceededError, match="TECH"):
        check_fy_cap(5_900_000_000, 100_000_001, A1178)
    check_deadline(received_on=date(2013, 6, 30), fiscal_year=2013, ruleset=A1178)
