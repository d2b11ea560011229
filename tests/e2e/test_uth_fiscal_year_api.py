"""UTH-13 / AMB-13 over the API, on SQLite and PostgreSQL: an installment is charged to the
fiscal year in which its tax period commences: a calendar-year filer's period 2013 to FY
2013 (the default), a July filer's (`tax_period_start_month: 7`) to FY 2014."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market

M = 100_000_000


def test_the_fiscal_year_follows_when_the_holders_tax_period_begins(client: Any) -> None:
    m = Market(client)
    calendar = m.issue(program="UTH", face_cents=10 * M, fiscal_year=2014, tax_periods=[2013])
    july = m.issue(
        program="UTH",
        face_cents=20 * M,
        fiscal_year=2014,
        tax_periods=[2013],
        tax_period_start_month=7,
    )
    assert calendar["tax_periods"][0]["fiscal_year"] == 2013
    assert july["tax_periods"][0]["fiscal_year"] == 2014
    used = {
        fy: {
            row["program"]: row["used_cents"]
            for row in m.get(f"/api/v1/reports/caps?fiscal_year={fy}").json["programs"]
        }["UTH"]
        for fy in (2013, 2014)
    }
    assert used == {2013: M, 2014: M + 2 * M}  # FY 2014: calendar 2014 and July 2013
    r = m.post(
        "/api/v1/certificates",
        m.auth,
        {
            "program": "DM_CBT",
            "holder_party_id": m.seller["id"],
            "face_cents": M,
            "fiscal_year": 2014,
            "tax_period_start_month": 7,
        },
    )
    assert r.status_code == 400 and "UTH-13" in r.json["error"]["message"]
