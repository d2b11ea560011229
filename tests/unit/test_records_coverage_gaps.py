"""Size classes (market/domain/rules/records.py) below the first band: a count that no
band holds is of unknown size, as a missing one is."""

from __future__ import annotations

import pytest

from market.domain.rules.records import UNKNOWN_SIZE, size_class


@pytest.mark.parametrize("employees", [-1, -500])
def test_a_negative_employee_count_has_no_size_class(employees: int) -> None:
    assert size_class(employees) == UNKNOWN_SIZE == "unknown"


@pytest.mark.parametrize(
    ("employees", "label"),
    [(49, "10-49"), (50, "50-99"), (99, "50-99"), (100, "100-499")],
)
def test_the_band_edges_in_the_middle(employees: int, label: str) -> None:
    assert size_class(employees) == label
