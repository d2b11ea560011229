"""seed-demo builds the demo market through the services, on both databases, dated from
the business date it is seeded on: on the statute's era (the suite's ERA_TODAY) and on the
day this release ships (fiscal year 2027), every desk has a deal waiting and every listed
credit is still usable."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pytest
from sqlalchemy import text

from market.services import demo
from market.services.trust import ledger

SHIP_DAY = "2026-12-01"  # fiscal year 2027: its TECH intake open, FY 2026's allocated


def _seed(app: Any) -> str:
    result = app.test_cli_runner().invoke(args=["seed-demo"])
    assert result.exit_code == 0, result.output
    return str(result.output)


def test_seed_demo_builds_a_market_that_verifies(app: Any) -> None:
    engine = app.extensions["market.engine"]
    output = _seed(app)
    assert "seeding the demo on the business date 2014-09-01" in output
    assert "TECH FY 2014 allocated 60,000,000.00 dollars (triggered: True)" in output
    with engine.connect() as conn:
        statuses = dict(
            conn.execute(text("select status, count(*) from transfers group by status")).all()
        )
        programs = {r[0] for r in conn.execute(text("select distinct program from certificates"))}
        zone = conn.execute(
            text("select used_cents from cap_usage where id = 'TECH_ZONE_SET_ASIDE:2014'")
        ).scalar()
        applied = conn.execute(text("select count(*) from credit_applications")).scalar()
        reviews = conn.execute(
            text("select count(*) from events where type = 'UTH_REVIEW_RECORDED'")
        ).scalar()
        attested = conn.execute(
            text("select count(*) from transfers where use_of_proceeds is not null")
        ).scalar()
        intake = dict(
            conn.execute(
                text("select fiscal_year, count(*) from tech_applications group by fiscal_year")
            ).all()
        )
    assert statuses == {"approved": 6, "rejected": 1, "pending_approval": 1, "awaiting_buyer": 2}
    assert programs == {"BRRAG", "UTH", "DM_CBT", "DM_GIT", "TECH"}
    assert zone == 10_000_000_00
    assert applied == 2
    assert reviews == 3 and "2012-2013 approved, 2021 cut by 20%" in output
    assert attested == 7  # every BRRAG and TECH sale carries the seller's attestation
    assert intake == {2014: 7, 2015: 2}  # last year's allocated, this year's intake open
    assert ledger.verify(engine).ok
    again = app.test_cli_runner().invoke(args=["seed-demo", "--if-empty"])
    assert again.exit_code == 0 and "not seeded" in again.output
    refused = app.test_cli_runner().invoke(args=["seed-demo"])
    assert refused.exit_code != 0


def test_demo_logins_lists_every_role(app: Any) -> None:
    result = app.test_cli_runner().invoke(args=["demo-logins"])
    assert result.exit_code == 0
    assert "eda@demo.nj" in result.output and "auditor@demo.nj" in result.output
    assert "participant" in result.output


def _sign_in(app: Any, email: str) -> Any:
    client = app.test_client()
    token = re.search(rb'name="csrf_token" value="([^"]+)"', client.get("/login").data)
    assert token
    r = client.post(
        "/login",
        data={"email": email, "password": demo.DEMO_PASSWORD, "csrf_token": token[1].decode()},
    )
    assert r.status_code == 302, r.data
    return client


# (login, desk, what waits there)
DESKS = [
    ("eda@demo.nj", "/authority", "1 transfer waiting"),
    ("pixel@demo.nj", "/seller", ">Accept</button>"),
    ("genomics@demo.nj", "/seller", ">Accept</button>"),
    ("photonics@demo.nj", "/seller", "awaiting the FY allocation"),
    ("utility@demo.nj", "/buyer", "Transfers waiting for your confirmation"),
    ("insurer@demo.nj", "/buyer", "Transfers waiting for your confirmation"),
]


@pytest.mark.parametrize("business_date", [SHIP_DAY, "2014-09-01"])
def test_the_demo_is_alive_on_its_business_date(
    app: Any, market_today: Any, business_date: str
) -> None:
    market_today(business_date)
    output = _seed(app)
    today = date.fromisoformat(business_date)
    assert "intake open with 2 applications" in output
    for email, desk, pending in DESKS:
        page = _sign_in(app, email).get(desk)
        assert page.status_code == 200, (email, desk)
        assert pending in page.get_data(as_text=True), (email, desk)
    if business_date == SHIP_DAY:  # the TECH sales' quarter (2026Q3) has closed
        # ADM-6: FY 2026's applications were submitted by June 30, so all are allocated.
        assert "TECH FY 2026 allocated 60,000,000.00 dollars (triggered: True)" in output
        tape = app.test_client().get("/price-tape").get_data(as_text=True)
        assert "Technology business (TECH), FY 2026 credits" in tape
        assert '<td data-label="Quarter">2026Q3</td>' in tape
    eda = _sign_in(app, "eda@demo.nj")
    market = eda.get("/market").get_data(as_text=True)
    assert "<tbody>" in market
    token = eda.post(
        "/api/v1/auth/token", json={"email": "eda@demo.nj", "password": demo.DEMO_PASSWORD}
    ).json["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    with app.extensions["market.engine"].connect() as conn:
        listed = conn.execute(
            text(
                "select c.program, l.certificate_id from listings l"
                " join certificates c on c.id = l.certificate_id where l.status = 'open'"
            )
        ).all()
    assert {r.program for r in listed} == {"BRRAG", "UTH", "DM_CBT", "TECH"}
    assert len(listed) >= 5
    for row in listed:  # no listed credit is past its usable-through date
        cert = eda.get(f"/api/v1/certificates/{row.certificate_id}", headers=bearer).json
        if row.program == "TECH":  # NOL amounts state no window (AMB-45)
            assert cert["usable_until"] is None
            continue
        assert date.fromisoformat(cert["usable_until"]) >= today, cert
        assert cert["usable_through"] >= today.year, cert
