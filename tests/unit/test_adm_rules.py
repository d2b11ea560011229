"""RULES.md section 7 (ADM-1..ADM-12): fees, tax clearance and checklists, pure."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from market.domain.casefile_errors import ApplicationLockedError, ExhibitMissingError
from market.domain.errors import InvalidRequestError
from market.domain.rules import adm_checklist, adm_clearance, adm_fees
from market.domain.rulesets import A1178

DOLLAR = 100


def test_adm1_application_fee_is_1000_dollars() -> None:
    fee = adm_fees.tech_application_fee(A1178)
    assert (fee.kind, fee.amount_cents, fee.credited_cents) == ("tech_application", 100_000, 0)


@pytest.mark.parametrize(
    ("award", "gross", "credited", "due"),
    [
        (100_000 * DOLLAR, None, None, None),  # not over $100,000: no approval fee
        (150_000 * DOLLAR, 1_500 * DOLLAR, 1_000 * DOLLAR, 500 * DOLLAR),
        (5_000_000 * DOLLAR, 20_000 * DOLLAR, 1_000 * DOLLAR, 19_000 * DOLLAR),  # the cap
        (2_000_000 * DOLLAR, 20_000 * DOLLAR, 1_000 * DOLLAR, 19_000 * DOLLAR),
    ],
)
def test_adm2_approval_fee_credits_the_application_fee_within_the_cap(
    award: int, gross: int | None, credited: int | None, due: int | None
) -> None:
    fee = adm_fees.tech_approval_fee(award, 100_000, A1178)
    if gross is None:
        assert fee is None
        return
    assert fee is not None
    assert (fee.amount_cents, fee.credited_cents) == (gross, credited)
    assert adm_fees.due_cents(fee.amount_cents, fee.credited_cents, 0) == due
    # the two fees together never exceed $20,000
    assert 100_000 + adm_fees.due_cents(fee.amount_cents, fee.credited_cents, 0) <= 2_000_000


def test_adm2_credit_is_what_was_paid_of_the_application_fee() -> None:
    fee = adm_fees.tech_approval_fee(150_000 * DOLLAR, 0, A1178)
    assert fee is not None and fee.credited_cents == 0


def test_adm3_uth_fees_and_their_cap() -> None:
    assert adm_fees.uth_flat_fee(adm_fees.UTH_APPLICATION, A1178).amount_cents == 500_000
    assert adm_fees.uth_flat_fee(adm_fees.UTH_TRANSFER, A1178).amount_cents == 250_000
    small = adm_fees.uth_percentage_fee(adm_fees.UTH_APPROVAL, 10_000_000 * DOLLAR, A1178)
    assert small.amount_cents == 50_000 * DOLLAR
    big = adm_fees.uth_percentage_fee(adm_fees.UTH_CERTIFICATE, 100_000_000 * DOLLAR, A1178)
    assert big.amount_cents == 300_000 * DOLLAR


def test_adm4_fee_status() -> None:
    assert adm_fees.status(1000, 0, 0) == "unpaid"
    assert adm_fees.status(1000, 100, 400) == "partly_paid"
    assert adm_fees.status(1000, 100, 900) == "paid"


def test_adm11_valid_for_90_days_from_issue() -> None:
    issued = date(2025, 1, 1)
    assert adm_clearance.valid_until(issued, A1178) == date(2025, 3, 31)
    assert adm_clearance.state_on(issued, date(2025, 3, 31), A1178) == "valid"
    assert adm_clearance.state_on(issued, date(2025, 4, 1), A1178) == "expired"
    assert adm_clearance.state_on(None, date(2025, 4, 1), A1178) == "missing"


def test_adm11_future_issue_and_fourth_renewal_refused() -> None:
    today = date(2025, 6, 1)
    with pytest.raises(InvalidRequestError):
        adm_clearance.check_new(adm_clearance.Clearance(date(2025, 6, 2), []), today, A1178)
    chain = [date(2025, 1, 2), date(2025, 3, 1), date(2025, 4, 1)]
    third = adm_clearance.Clearance(date(2025, 5, 1), chain)
    assert adm_clearance.check_new(third, today, A1178) == 0
    with pytest.raises(InvalidRequestError, match="at most 3"):
        adm_clearance.check_new(
            adm_clearance.Clearance(date(2025, 6, 1), [*chain, date(2025, 5, 1)]), today, A1178
        )


def test_adm11_renewals_counted_in_a_rolling_365_days() -> None:
    chain = [date(2023, 1, 2), date(2023, 3, 1), date(2023, 5, 1), date(2023, 7, 1)]
    renewal = adm_clearance.Clearance(date(2024, 6, 1), chain)
    left = adm_clearance.check_new(renewal, date(2024, 6, 5), A1178)
    assert left == 1  # only the July 2023 renewal and this one fall within the year


def test_checklist_names_missing_kinds_and_refuses() -> None:
    kinds = adm_checklist.tech_kinds(A1178, sold_prior_year=True)
    assert ("spending_certification", "submission") in kinds
    items = adm_checklist.checklist(kinds, {"business_plan": ["doc_1", "doc_2"], "extra": ["d"]})
    plan = next(i for i in items if i.kind == "business_plan")
    assert plan.satisfied and plan.document_ids == ("doc_1", "doc_2")
    assert next(i for i in items if i.kind == "extra").required is False
    with pytest.raises(ExhibitMissingError) as e:
        adm_checklist.require(items, ("submission",), "Submission")
    assert "business_plan" not in e.value.details["kinds"]  # type: ignore[operator]
    assert "spending_certification" in e.value.details["kinds"]  # type: ignore[operator]
    assert e.value.code == "exhibit_missing"


def test_adm6_lock_after_june_30() -> None:
    adm_checklist.check_not_locked(2025, date(2025, 6, 30), A1178)
    with pytest.raises(ApplicationLockedError):
        adm_checklist.check_not_locked(2025, date(2025, 7, 1), A1178)


def test_adm_rules_in_force_from_a_configurable_date() -> None:
    assert not A1178.adm_in_force(date(2014, 9, 1))
    assert A1178.adm_in_force(date(2024, 1, 1))
    never = replace(A1178, adm_in_force_from=None)
    assert not never.adm_in_force(date(2030, 1, 1))
