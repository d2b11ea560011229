"""DMQ-3 / AMB-24 over the API, on SQLite and PostgreSQL: a deferred amount is usable from
the first day of the fiscal year that allows it, not before. An application for a fiscal
year not begun does not roll the queue into that year: it waits behind the queue, and the
certificates show the first day their queued amount can be usable."""

from __future__ import annotations

from typing import Any

from market.services.kernel import clock
from tests.e2e.test_pages_support import browser
from tests.e2e.test_trading_api import Market

M = 100_000_000


def test_the_next_years_queue_waits_for_july_first(
    app: Any, client: Any, market_today: Any
) -> None:
    m = Market(client)
    # RULES 5.5 in FY2014, then on July 1, 2014 (FY2015) a $6M FY2015 application:
    # $4M is allowed (the queue's $1M took the rest) and $2M waits for FY2016.
    market_today("2014-06-30")
    for face in (200 * 10**6, 250 * 10**6, 120 * 10**6, 30 * 10**6):
        m.issue(program="DM_CBT", face_cents=face, fiscal_year=2014)
    market_today("2014-07-01")
    late = m.issue(program="DM_CBT", face_cents=6 * M, fiscal_year=2015)
    assert (late["status"], late["balance_cents"], late["queued_cents"]) == (
        "partially_queued",
        4 * M,
        2 * M,
    )

    # Issue 26: a FY2016 application on the same day rolled the queue into FY2016 at once.
    fy16 = m.issue(program="DM_CBT", face_cents=M, fiscal_year=2016)
    assert (fy16["status"], fy16["balance_cents"], fy16["queued_cents"]) == ("queued", 0, M)
    now = m.cert(late["id"])
    assert (now["balance_cents"], now["queued_cents"]) == (4 * M, 2 * M)
    assert late["queued_usable_from"] == fy16["queued_usable_from"] == "2015-07-01"
    assert not [
        e for e in now["history"] if e["type"] == "QUEUE_ALLOWED" and e["payload"]["from_queue"]
    ]
    early = app.test_cli_runner().invoke(args=["roll-fiscal-year", "--fiscal-year", "2016"])
    assert early.exit_code != 0 and "FY 2016 begins on 2015-07-01" in early.output
    caps = m.get("/api/v1/reports/caps?fiscal_year=2016").json["programs"]
    assert next(c for c in caps if c["program"] == "DM_CBT")["used_cents"] == 0

    # July 1, 2015: the queue is allowed into FY2016 in order of receipt, then usable.
    market_today("2015-07-01")
    rolled = app.test_cli_runner().invoke(args=["roll-fiscal-year", "--fiscal-year", "2016"])
    assert rolled.exit_code == 0, rolled.output
    now, fy16 = m.cert(late["id"]), m.cert(fy16["id"])
    assert (now["status"], now["balance_cents"], now["queued_usable_from"]) == (
        "issued",
        6 * M,
        None,
    )
    assert (fy16["status"], fy16["balance_cents"]) == ("issued", M)
    [allowed] = [
        e for e in now["history"] if e["type"] == "QUEUE_ALLOWED" and e["payload"]["from_queue"]
    ]
    assert allowed["payload"]["fiscal_year"] == 2016
    assert allowed["payload"]["effective_date"] == "2015-07-01"
    listing = m.list_(late["id"], 4 * M + 1, 4 * M)
    assert listing["amount_cents"] == 4 * M + 1
    assert clock.today().isoformat() == "2015-07-01"


def test_the_certificate_page_shows_when_a_queued_amount_can_be_usable(
    app: Any, client: Any
) -> None:
    m = Market(client)
    queued = m.issue(program="DM_CBT", face_cents=6 * M, fiscal_year=2015)  # on 2014-09-01
    assert queued["queued_cents"] == M and queued["queued_usable_from"] == "2015-07-01"
    html = browser(app, "authority").get(f"/certificates/{queued['id']}").get_data(as_text=True)
    assert "usable from 2015-07-01 at the earliest (DMQ-3)" in html
