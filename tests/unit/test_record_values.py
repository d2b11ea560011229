"""Money, dates, NAICS codes and employees as the import and the party facts read them
(market/domain/rules/records.py): exact, and refused with a code naming the problem."""

from __future__ import annotations

import pytest

from market.domain.rules.records import (
    RecordValueError,
    check_naics,
    employees_in,
    parse_cents,
    parse_date,
    parse_employees,
    sector_of,
    size_class,
)


@pytest.mark.parametrize(
    ("text", "cents"),
    [
        ("1,234.56", 123_456),
        ("1234.56", 123_456),
        ("$1,234.56", 123_456),
        ("1234", 123_400),
        ("0.1", 10),
        ("  $12,345,678.90 ", 1_234_567_890),
        ("0.29", 29),  # 0.29 * 100 is 28.999999999999996 in floats
        ("1.1", 110),
    ],
)
def test_dollars_as_typed_are_exact_cents(text: str, cents: int) -> None:
    assert parse_cents(text, "face") == cents


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("-5.00", "negative_amount"),
        ("$-5.00", "negative_amount"),
        ("(5.00)", "negative_amount"),
        ("1.234", "too_many_decimals"),
        ("12,34.00", "invalid_amount"),
        ("1.2.3", "invalid_amount"),
        ("ten", "invalid_amount"),
        ("", "invalid_amount"),
        ("1e3", "invalid_amount"),
    ],
)
def test_amounts_that_are_not_dollars_and_cents_are_refused(text: str, code: str) -> None:
    with pytest.raises(RecordValueError) as e:
        parse_cents(text, "face")
    assert e.value.code == code


def test_a_date_must_exist() -> None:
    assert parse_date("2024-02-29", "d").isoformat() == "2024-02-29"
    for bad in ("2025-02-29", "2025-13-01", "2025-1-5", "01/05/2025"):
        with pytest.raises(RecordValueError) as e:
            parse_date(bad, "d")
        assert e.value.code == "invalid_date"


def test_a_naics_code_is_two_to_six_digits_of_a_sector() -> None:
    for good in ("11", "31", "33", "4451", "541715", "92"):
        assert check_naics(good) == good
    for bad in ("10", "34", "43", "99", "1", "5417150", "54-17", ""):
        with pytest.raises(RecordValueError):
            check_naics(bad)
    assert (sector_of("336111"), sector_of("4451"), sector_of("541715"), sector_of(None)) == (
        "31-33",
        "44-45",
        "54",
        "unknown",
    )


def test_employees_by_year_and_the_size_class_of_a_year() -> None:
    by_year = parse_employees("2023:9; 2025:120")
    assert by_year == {"2023": 9, "2025": 120}
    assert employees_in(by_year, 2024) == 9 and employees_in(by_year, 2026) == 120
    assert employees_in(by_year, 2022) is None
    assert [size_class(n) for n in (0, 9, 10, 499, 500, None)] == [
        "0-9", "0-9", "10-49", "100-499", "500+", "unknown",
    ]  # fmt: skip
    for bad in ("2025", "2025:-3", "25:10", "2025:ten"):
        with pytest.raises(RecordValueError):
            parse_employees(bad)
