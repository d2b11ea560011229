"""TB-6 / CMN-1: the receipt instant of a TECH application, its New York date and the
end of June 30 in New York as the close of a fiscal year's intake."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from market.domain.errors import InvalidRequestError
from market.domain.rules import tech_receipt
from market.domain.rules.tech_caps import application_fiscal_year
from market.domain.rulesets import A1178

NY = tech_receipt.NEW_YORK


def test_a_date_alone_is_the_start_of_that_new_york_day() -> None:
    at = tech_receipt.parse_receipt("2013-06-30")
    assert at == datetime(2013, 6, 30, tzinfo=NY)
    assert at.isoformat() == "2013-06-30T00:00:00-04:00"


def test_a_date_time_without_an_offset_is_new_york_time() -> None:
    at = tech_receipt.parse_receipt(" 2013-06-30T23:59:59 ")
    assert at.utcoffset() is not None and at.isoformat() == "2013-06-30T23:59:59-04:00"


def test_an_offset_is_converted_to_new_york_and_decides_the_fiscal_year() -> None:
    # 03:30 UTC on July 1 is 23:30 on June 30 in New York: still FY 2013's intake.
    late_evening = tech_receipt.parse_receipt("2013-07-01T03:30:00Z")
    assert tech_receipt.receipt_day(late_evening) == date(2013, 6, 30)
    assert application_fiscal_year(tech_receipt.receipt_day(late_evening)) == 2013
    # Midnight in New York starts FY 2014.
    midnight = tech_receipt.parse_receipt("2013-07-01T00:00:00-04:00")
    assert application_fiscal_year(tech_receipt.receipt_day(midnight)) == 2014


def test_the_intake_closes_at_the_end_of_june_30_new_york_time() -> None:
    closes = tech_receipt.intake_closes(2013, A1178)
    assert closes == datetime(2013, 7, 1, tzinfo=NY)
    assert closes.astimezone(UTC) == datetime(2013, 7, 1, 4, tzinfo=UTC)
    assert tech_receipt.parse_receipt("2013-06-30T23:59:59.999999") < closes


@pytest.mark.parametrize("text", ["30 June 2013", "2013-02-30", "2013-06-30T25:00"])
def test_malformed_receipts_are_refused(text: str) -> None:
    with pytest.raises(InvalidRequestError) as refused:
        tech_receipt.parse_receipt(text)
    assert refused.value.details == {"received_on": text}


def test_utc_keys_sort_in_time_order_across_offsets() -> None:
    winter = datetime(2013, 3, 9, 23, 0, tzinfo=NY)  # EST, -05:00
    summer = datetime(2013, 3, 10, 4, 0, tzinfo=NY)  # EDT from 03:00 that day, -04:00
    assert winter < summer
    assert tech_receipt.utc_key(winter) < tech_receipt.utc_key(summer)
    assert tech_receipt.in_new_york(datetime(2013, 1, 1, 12, tzinfo=UTC)).hour == 7


def test_a_recorded_receipt_needs_a_reason_and_cannot_be_in_the_future() -> None:
    now = datetime(2013, 5, 1, 12, tzinfo=NY)
    past = datetime(2013, 4, 30, tzinfo=NY)
    assert tech_receipt.check_recorded_receipt(past, now, "  Mailed on time  ") == "Mailed on time"
    for reason in (None, "   "):
        with pytest.raises(InvalidRequestError, match="needs a receipt_reason"):
            tech_receipt.check_recorded_receipt(past, now, reason)
    with pytest.raises(InvalidRequestError, match="after now"):
        tech_receipt.check_recorded_receipt(datetime(2013, 5, 2, tzinfo=NY), now, "early")
