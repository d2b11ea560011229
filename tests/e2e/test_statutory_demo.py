"""The statutory reports for the demo market's fiscal years (PRODUCT.md 9.2): each renders,
prints and exports, and the TECH program report's figures equal the ledger's tables summed
independently (SQL, not the event fold the reports use), to the cent."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.tables import Certificate, TechAllocation, TechApplication, Transfer
from market.domain.rulesets import get_ruleset
from market.domain.values import fiscal_year
from market.services import demo
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import headers_for

pytestmark = pytest.mark.storage

apps_t = TechApplication.__table__  # type: ignore[attr-defined]
alloc_t = TechAllocation.__table__  # type: ignore[attr-defined]
cert_t = Certificate.__table__  # type: ignore[attr-defined]
transfer_t = Transfer.__table__  # type: ignore[attr-defined]


def test_the_demo_years_reports_match_the_tables_and_render(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    seeded = demo.seed(engine, get_ruleset("A1178"))
    years = sorted({seeded["fiscal_year"], seeded["tech_allocated_year"]})
    auditor = headers_for(client, engine, "auditor")
    with engine.connect() as conn:
        applications = conn.execute(select(apps_t)).mappings().all()
        allocations = {r.fiscal_year: r.total_cents for r in conn.execute(select(alloc_t))}
        tech_originals = conn.execute(
            select(cert_t.c.fiscal_year, cert_t.c.face_cents).where(
                cert_t.c.program == "TECH", cert_t.c.is_original.is_(True)
            )
        ).all()
        tech_sales = conn.execute(
            select(transfer_t.c.amount_cents, transfer_t.c.exchange_date).where(
                transfer_t.c.program == "TECH", transfer_t.c.status == "approved"
            )
        ).all()
    assert allocations, "the demo commits a TECH allocation"
    for fy in years:
        r = client.get(f"/api/v1/reports/statutory/tech-program?fiscal_year={fy}", headers=auditor)
        assert r.status_code == 200
        tech = r.json
        mine = [a for a in applications if a["fiscal_year"] == fy]
        assert tech["demand"]["applications"] == len(mine)
        assert tech["demand"]["eligible"] == sum(1 for a in mine if a["eligible"])
        assert tech["demand"]["requested_cents"] == sum(
            a["requested_cents"] for a in mine if a["eligible"]
        )
        assert tech["demand"]["allocated_cents"] == allocations.get(fy, 0)
        assert tech["demand"]["allocated_cents"] == sum(a["allocated_cents"] or 0 for a in mine)
        assert tech["total_approved_cents"] == sum(
            c.face_cents for c in tech_originals if c.fiscal_year == fy
        )
        sold = [s for s in tech_sales if fiscal_year(date.fromisoformat(s.exchange_date)) == fy]
        assert tech["transfers"]["amount_cents"] == sum(s.amount_cents for s in sold)
        zone, other = tech["demand"]["zone"], tech["demand"]["other"]
        assert zone["allocated_cents"] + other["allocated_cents"] == allocations.get(fy, 0)
        ineligible = sum(x["count"] for x in tech["demand"]["ineligible_reasons"])
        assert ineligible >= tech["demand"]["ineligible"]
    allocated_year = seeded["tech_allocated_year"]
    assert (
        client.get(
            f"/api/v1/reports/statutory/tech-program?fiscal_year={allocated_year}", headers=auditor
        ).json["empty"]
        is False
    )

    sign_in(client, app, "authority")
    for fy in years:
        for report in ("tech-program", "digital-media", "distribution"):
            page = client.get(f"/reports/statutory/{report}?fiscal_year={fy}")
            assert page.status_code == 200, (report, fy)
            assert b'<desc id="chart' in page.data
            csv_page = client.get(f"/reports/statutory/{report}.csv?fiscal_year={fy}")
            assert csv_page.status_code == 200 and csv_page.data.startswith(b"path,value")
