"""The statutory reports (PRODUCT.md 9.2) over a registry imported with `flask import`:
their figures match the ledger summed independently (SQL over the tables, not the fold
the reports use) to the cent; prices appear only past the price tape's thresholds; an
idle year is an empty report that says so; only the authority and auditors read them;
the pages print, chart and link their CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from market.adapters.tables import Certificate, Party, PartyFacts, Transfer
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import events, headers_for

pytestmark = pytest.mark.storage

SAMPLES = Path(__file__).resolve().parents[2] / "docs" / "samples"
FY = 2025
DM_SALES = (
    "certificate_number,buyer_tax_id,amount,consideration,exchange_date\n"
    'DM_GIT-2025-000001,22-1000004,"100,000.00","88,000.00",2025-03-03\n'
    'DM_GIT-2025-000001,22-1000001,"50,000.00","44,500.00",2025-03-04\n'
    'DM_CBT-2025-000001,22-1000004,"60,000.00","52,200.00",2025-03-05\n'
)
cert_t = Certificate.__table__  # type: ignore[attr-defined]
transfer_t = Transfer.__table__  # type: ignore[attr-defined]


def _import(app: Any, tmp: Path, kind: str, content: str | Path) -> dict[str, Any]:
    path = content if isinstance(content, Path) else tmp / f"{kind}-extra.csv"
    if not isinstance(content, Path):
        path.write_text(content)
    result = app.test_cli_runner().invoke(args=["import", kind, str(path)])
    report = json.loads(result.output)
    assert report["refused"] == [], report
    return report  # type: ignore[no-any-return]


@pytest.fixture
def registry(app: Any, tmp_path: Path, market_today: Any) -> Any:
    market_today("2025-06-01")
    for kind in ("parties", "certificates", "transfers"):
        _import(app, tmp_path, kind, SAMPLES / f"{kind}.csv")
    _import(app, tmp_path, "transfers", DM_SALES)
    return app


def _get(client: Any, headers: dict[str, str], report: str, fy: int = FY) -> dict[str, Any]:
    r = client.get(f"/api/v1/reports/statutory/{report}?fiscal_year={fy}", headers=headers)
    assert r.status_code == 200, r.json
    return r.json  # type: ignore[no-any-return]


def _fy_of_exchange(day: str) -> int:
    year, month = int(day[:4]), int(day[5:7])
    return year + (1 if month >= 7 else 0)


def test_the_reports_match_the_ledger_summed_independently(registry: Any, client: Any) -> None:
    engine = registry.extensions["market.engine"]
    auditor = headers_for(client, engine, "auditor")
    dist = _get(client, auditor, "distribution")
    dm = _get(client, auditor, "digital-media")
    with engine.connect() as conn:
        originals = conn.execute(
            select(cert_t.c.program, cert_t.c.tax_types, cert_t.c.allowed_cents,
                   cert_t.c.face_cents, cert_t.c.original_holder_party_id)
            .where(cert_t.c.is_original.is_(True), cert_t.c.fiscal_year == FY)
        ).all()  # fmt: skip
        approved = [
            r
            for r in conn.execute(
                select(transfer_t.c.program, transfer_t.c.amount_cents,
                       transfer_t.c.consideration_cents, transfer_t.c.exchange_date)
                .where(transfer_t.c.status == "approved")
            ).all()
            if _fy_of_exchange(r.exchange_date) == FY
        ]  # fmt: skip
        naics = dict(
            conn.execute(
                select(Party.__table__.c.id, PartyFacts.__table__.c.naics_code).join(
                    PartyFacts.__table__, PartyFacts.__table__.c.party_id == Party.__table__.c.id
                )
            ).all()
        )
    granted = sum(r.allowed_cents for r in originals)
    assert granted == 1_250_000_00 + 400_000_00 + 250_000_00  # the sample's three faces
    assert dist["totals"]["granted_cents"] == granted
    assert dist["totals"]["sold_cents"] == sum(r.amount_cents for r in approved)
    assert dist["totals"]["sold_cents"] == 500_000_00 + 210_000_00
    by_sector: dict[str, int] = {}
    for r in originals:
        key = naics[r.original_holder_party_id][:2]
        key = {"31": "31-33", "32": "31-33", "33": "31-33"}.get(key, key)
        by_sector[key] = by_sector.get(key, 0) + r.allowed_cents
    assert {g["key"]: g["cents"] for g in dist["by_industry"]["granted"]} == by_sector
    # BRRAG's 120 retained jobs: the mean credit per job, exact.
    assert dist["jobs"] == 120
    assert dist["mean_credit_per_job"] == {"cents": 1_041_667, "exact": "3125000/3"}

    dm_rows = {row["key"]: row for row in dm["by_program_and_tax"]}
    for program in ("DM_GIT", "DM_CBT"):
        mine = [r for r in originals if r.program == program]
        row = dm_rows[f"{program}/{'+'.join(mine[0].tax_types)}"]
        assert row["face_cents"] == sum(r.face_cents for r in mine)
        assert row["allowed_cents"] == sum(r.allowed_cents for r in mine)
    dm_sold = [r for r in approved if r.program in ("DM_GIT", "DM_CBT")]
    assert dm["transfers"] == {
        "count": len(dm_sold),
        "amount_cents": sum(r.amount_cents for r in dm_sold),
        "consideration_cents": sum(r.consideration_cents for r in dm_sold),
    }
    # Three sales by two sellers: the price tape would publish them, so the report does.
    assert dm["prices"]["published"] is True
    # 88,000/100,000, 44,500/50,000 and 52,200/60,000: 8800, 8900 and 8700 bps.
    assert dm["prices"]["figures"] == {
        "count": 3, "median_bps": 8800, "p25_bps": 8750, "p75_bps": 8850,
    }  # fmt: skip
    assert dm["checkpoint"]["tree_size"] == events(engine)
    assert len(dm["checkpoint"]["root_hash"]) == 64


def test_prices_are_withheld_below_the_price_tapes_thresholds(registry: Any, client: Any) -> None:
    auditor = headers_for(client, registry.extensions["market.engine"], "auditor")
    tech = _get(client, auditor, "tech-program")
    assert tech["prices"] == {
        "transfers": 0, "sellers": 0, "min_transfers": 3, "min_sellers": 2,
        "published": False, "figures": None,
    }  # fmt: skip
    assert tech["cap"]["fy_cap_cents"] == 60_000_000_00
    assert tech["empty"] is True and "No tech program activity" in tech["note"]


def test_an_idle_year_is_an_empty_report_that_says_so(registry: Any, client: Any) -> None:
    authority = headers_for(client, registry.extensions["market.engine"], "authority")
    for report in ("tech-program", "digital-media", "distribution"):
        body = _get(client, authority, report, 1999)
        assert body["empty"] is True and body["fiscal_year"] == 1999
        assert "fiscal year 1999" in body["note"]


def test_only_the_authority_and_auditors_read_them(registry: Any, client: Any) -> None:
    engine = registry.extensions["market.engine"]
    with engine.connect() as conn:
        party_id = conn.execute(select(Party.__table__.c.id).limit(1)).scalar_one()
    participant = headers_for(client, engine, "participant", party_id)
    for path in ("tech-program", "digital-media", "distribution.csv"):
        r = client.get(f"/api/v1/reports/statutory/{path}?fiscal_year={FY}", headers=participant)
        assert r.status_code == 403
        assert r.json["error"]["code"] == "forbidden"
    missing = client.get("/api/v1/reports/statutory/tech-program", headers=participant)
    assert missing.status_code in (400, 422)


def test_the_csv_carries_every_figure_and_the_checkpoint(registry: Any, client: Any) -> None:
    auditor = headers_for(client, registry.extensions["market.engine"], "auditor")
    body = _get(client, auditor, "digital-media")
    r = client.get(f"/api/v1/reports/statutory/digital-media.csv?fiscal_year={FY}", headers=auditor)
    assert r.status_code == 200 and r.mimetype == "text/csv"
    lines = dict(csv.reader(io.StringIO(r.data.decode())))
    assert lines["checkpoint.tree_size"] == str(body["checkpoint"]["tree_size"])
    assert lines["transfers.amount_cents"] == str(body["transfers"]["amount_cents"])
    assert lines["prices.figures.median_bps"] == "8800"


def test_the_pages_print_chart_and_link_csv_and_json(registry: Any, client: Any) -> None:
    sign_in(client, registry, "auditor")
    index = client.get(f"/reports/statutory/?fiscal_year={FY}")
    assert index.status_code == 200
    for report in ("tech-program", "digital-media", "distribution"):
        page = client.get(f"/reports/statutory/{report}?fiscal_year={FY}&paper=letter")
        assert page.status_code == 200, report
        html = page.data.decode()
        assert "statutory-print.css" in html and "paper-letter" in html
        assert '<svg xmlns="http://www.w3.org/2000/svg" role="img"' in html
        assert '<title id="chart' in html and '<desc id="chart' in html
        assert "<thead>" in html and "tree size" in html
        assert f"/reports/statutory/{report}.csv?fiscal_year={FY}" in html
    dm = client.get(f"/reports/statutory/digital-media?fiscal_year={FY}").data.decode()
    assert "$400,000.00" in dm  # the DM_GIT face, in the table beside the chart
    as_json = client.get(f"/reports/statutory/distribution.json?fiscal_year={FY}")
    assert as_json.status_code == 200 and as_json.json["report"] == "distribution"
    as_csv = client.get(f"/reports/statutory/distribution.csv?fiscal_year={FY}")
    assert as_csv.status_code == 200 and b"totals.granted_cents" in as_csv.data
    served = client.get("/static/statutory-print.css")
    css = served.data.decode()
    served.close()
    assert "size: A4" in css and "size: letter" in css
    assert "counter(page)" in css and "table-header-group" in css


def test_a_participants_page_is_refused(registry: Any, client: Any) -> None:
    with registry.extensions["market.engine"].connect() as conn:
        party_id = conn.execute(select(func.min(Party.__table__.c.id))).scalar_one()
    sign_in(client, registry, "participant", party_id)
    assert client.get(f"/reports/statutory/distribution?fiscal_year={FY}").status_code == 403
