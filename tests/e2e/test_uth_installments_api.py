"""UTH-7 / CMN-2 over the API, on SQLite and PostgreSQL: one tenth per tax period, the
leftover cents spread one each from the earliest period, so an award just under the
$1.5B cumulative cap is not refused by a $150M fiscal-year cap."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market

CAP_FY = 150_000_000 * 100


def test_an_award_a_cent_under_the_cumulative_cap_issues(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="UTH", face_cents=10 * CAP_FY - 1, fiscal_year=2014, tax_periods=[2013])
    assert cert["status"] == "issued", cert
    cents = [t["cents"] for t in cert["tax_periods"]]
    assert cents == [CAP_FY] * 9 + [CAP_FY - 1]
    caps = m.get("/api/v1/reports/caps?fiscal_year=2014").json["programs"]
    uth = {row["program"]: row for row in caps}
    assert uth["UTH"]["used_cents"] == CAP_FY  # the 2013 period's installment, in FY 2014
    assert uth["UTH_CUMULATIVE"]["remaining_cents"] == 1


def test_odd_cents_go_to_the_earliest_installments(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="UTH", face_cents=100_000_007, fiscal_year=2014, tax_periods=[2013])
    assert [(t["period"], t["cents"]) for t in cert["tax_periods"]] == [
        (2013 + i, 10_000_001 if i < 7 else 10_000_000) for i in range(10)
    ]
