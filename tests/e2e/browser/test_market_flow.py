"""A seller lists, a buyer offers below the floor and is told why, offers at the floor, the
seller accepts, the Authority approves seeing every check, and the buyer applies the credit
to a return and sees what carries forward, all in Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browser.conftest import PASSWORD, Site

# One module, one browser and one site: the second test reads what the first one made,
# so xdist keeps them together (scripts/test runs with --dist loadgroup).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def pages(browser: Any, site: Site) -> Iterator[dict[str, Any]]:
    """One browser context (its own session cookie) per person."""
    opened: dict[str, Any] = {}
    for who in ("seller", "buyer", "eda"):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.goto(f"{site.url}/login")
        page.fill("input[name=email]", f"{who}@example.com")
        page.fill("input[name=password]", PASSWORD)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        assert "/login" not in page.url, page.content()[:500]
        opened[who] = page
    yield opened
    for page in opened.values():
        page.context.close()


def _flash(page: Any) -> str:
    return str(page.locator(".flash").first.inner_text())


def test_the_whole_market_flow(pages: dict[str, Any], site: Site) -> None:
    seller, buyer, eda = pages["seller"], pages["buyer"], pages["eda"]

    seller.goto(f"{site.url}/seller")
    form = seller.locator("form[action='/seller/listings']")
    form.locator("input[name=amount]").fill("1,000,000")
    form.locator("input[name=ask]").fill("900000")
    form.locator("button").click()
    assert "Listed $1,000,000.00" in _flash(seller)
    site.shot(seller, "seller-listed")

    buyer.goto(f"{site.url}/market")
    row = buyer.locator("tr", has_text=site.cert_number)
    assert "75.00%" in row.inner_text()  # the program's floor
    row.locator("input[name=amount]").fill("1000000")
    row.locator("input[name=price]").fill("700000")
    row.locator("button").click()
    message = _flash(buyer)
    assert "requires at least 75%" in message and "70.0000%" in message
    site.shot(buyer, "market-offer-below-floor")

    row = buyer.locator("tr", has_text=site.cert_number)
    row.locator("input[name=price]").fill("750000.00")
    row.locator("button").click()
    assert "was sent to the seller" in _flash(buyer)
    site.shot(buyer, "market-offer-sent")

    seller.goto(f"{site.url}/seller")
    seller.locator("button", has_text="Accept").click()
    assert "awaits the Authority's approval" in _flash(seller)
    site.shot(seller, "seller-accepted")

    eda.goto(f"{site.url}/authority")
    checks = eda.locator("table.checks").first.inner_text()
    assert "minimum consideration" in checks and "75.0000% of the amount sold" in checks
    assert "failed" not in checks and "not affiliated" in checks
    site.shot(eda, "authority-queue")
    eda.locator("button", has_text="Approve").click()
    assert "approved" in _flash(eda)
    site.shot(eda, "authority-approved")

    buyer.goto(f"{site.url}/buyer")
    assert f"{site.cert_number}-T" in buyer.locator("table").first.inner_text()
    form = buyer.locator("form[action='/buyer/returns']")
    form.locator("input[name=tax_year]").fill("2014")
    form.locator("input[name=liability]").fill("400,000")
    form.locator("input[name=amount]").fill("1000000")
    form.locator("button").click()
    assert "Will be applied" in buyer.locator("main").inner_text()  # the review, then confirm
    buyer.locator("button", has_text="Confirm: apply the credit").click()
    message = _flash(buyer)
    assert "Applied $400,000.00" in message and "$600,000.00 carries forward" in message
    site.shot(buyer, "buyer-applied")


def test_the_reports_and_the_allocation_page_render(pages: dict[str, Any], site: Site) -> None:
    eda = pages["eda"]
    for path, name in (
        ("/reports/transfers", "transfers-report"),
        ("/reports/caps?fiscal_year=2014", "caps-report"),
        ("/authority/allocations", "tech-allocation"),
        ("/ledger", "ledger"),
    ):
        eda.goto(f"{site.url}{path}")
        assert eda.locator("h1").count() == 1
        site.shot(eda, name)
    eda.goto(f"{site.url}/reports/transfers")
    assert eda.locator("svg").count() >= 1 and "Camden Robotics" in eda.content()
    for who, path in (("seller", "/seller"), ("buyer", "/market")):
        pages[who].goto(f"{site.url}{path}")
        site.shot(pages[who], f"{who}-{path.strip('/')}")
