"""ADM-5, ADM-6 in the allocation: where the ADM rules are in force for the fiscal year,
only an application submitted by its June 30 deadline is allocated; before them, and for
a ruleset without them, every eligible application is."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

from market.domain.rules.adm_allocation import in_allocation, requires_submission
from market.domain.rulesets import A1178


def test_a_year_whose_deadline_is_in_the_adm_era_needs_the_submission() -> None:
    assert requires_submission(2024, A1178)  # deadline 2024-06-30, rules from 2024-01-01
    assert not requires_submission(2023, A1178)  # deadline 2023-06-30, the bill's era
    assert not in_allocation(2025, None, A1178)
    assert in_allocation(2025, date(2025, 3, 3), A1178)
    assert in_allocation(2025, date(2025, 6, 30), A1178)  # the last day counts


def test_a_submission_after_the_deadline_is_not_in_that_years_allocation() -> None:
    assert not in_allocation(2025, date(2025, 7, 1), A1178)


def test_the_bills_era_and_a_ruleset_without_the_adm_rules_take_every_application() -> None:
    assert in_allocation(2014, None, A1178)
    imported = replace(A1178, adm_in_force_from=None)
    assert not requires_submission(2025, imported)
    assert in_allocation(2025, None, imported)
