"""The buyer calculator page and the pre-trade check on the market page (PRODUCT.md 8.3)."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_calculator_api import Buyer, business_day  # noqa: F401  (fixture)
from tests.e2e.test_pages_foundation import sign_in
from tests.helpers import headers_for, tech_certificate


def test_the_market_page_shows_each_listing_s_check_before_the_buyer_offers(
    client: Any,
    app: Any,
    business_day: Any,  # noqa: F811
) -> None:
    business_day("2014-09-01")
    b = Buyer(client, tax_types=("IPT",))
    cert_id = tech_certificate(b.engine, b.seller["id"], 50_000_000)
    seller_h = headers_for(client, b.engine, "participant", b.seller["id"])
    listed = client.post(
        "/api/v1/listings",
        json={"certificate_id": cert_id, "amount_cents": 10_000_000, "ask_cents": 8_500_000},
        headers=seller_h,
    )
    assert listed.status_code == 201, listed.json
    sign_in(client, app, "participant", b.buyer["id"])
    page = client.get("/market").data.decode()
    cell = page.split('class="pretrade"', 1)[1].split("</td>", 1)[0]
    assert "✗ tax type" in cell and "✓ not affiliated" in cell
    assert "✓ usable through 2019" in cell and "✓ not halted" in cell
    assert f"listing_id={listed.json['id']}" in cell  # the calculator, for a TECH listing


def test_the_calculator_page_computes_and_refuses_in_words(client: Any, app: Any) -> None:
    b = Buyer(client)
    sign_in(client, app, "participant", b.buyer["id"])
    assert b"Credit bought" in client.get("/calculator/tech").data
    page = client.get(
        "/calculator/tech?amount=1000000&price=850000&liability=1200000"
        "&first_tax_year=2013&usable_through=2019"
    ).data.decode()
    result = page.split('id="calculator-result"', 1)[1]
    assert "$1,000,000.00" in result and "85¢ per $1" in result
    assert "rnd liability ceiling" in result
    bad = client.get("/calculator/tech?amount=1000000&price=850000")
    assert bad.status_code == 422 and b"Give liability_cents" in bad.data
    typo = client.get("/calculator/tech?amount=lots&price=1")
    assert typo.status_code == 400
