"""A seller lists, a buyer offers below the floor and is told why, offers at the floor, the
seller accepts, the Authority approves seeing every check, and the buyer applies the credit
to a return and sees what carries forward, all in Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.browser.conftest import Site, signed_in_pages

# One module, one browser and one site: the second test reads what the first one made,
# so xdist keeps them together (scripts/test runs with --dist loadgroup).
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def pages(browser: Any, site: Site) -> Iterator[dict[str, Any]]:
    """One browser context (its own session cookie) per person."""
    yield from signed_in_pages(browser, site, ("seller", "buyer", "eda"))


def _flash(page: Any) -> str:
    return str(page.locator(".flash").first.inner_text())


def test_the_whole_market_flow(pages: dict[str, Any], site: Site) -> None:
    seller, buyer, eda = pages["seller"], pages["buyer"], pages["eda"]

    seller.goto(f"{site.url}/seller")
    form = seller.locator("form[action='/seller/listings']")
    form.locator("input[name=amount]").fill("1,000,000")
    form.locator("input[name=per_dollar]").fill("90")
    form.locator("button").click()
    assert "Listed $1,000,000.00" in _flash(seller)
    site.shot(seller, "seller-listed")

    buyer.goto(f"{site.url}/market")
    row = buyer.locator("tr", has_text=site.cert_number)
    assert "75¢ per $1" in row.inner_text()  # the program's floor
    row.locator("input[name=amount]").fill("1000000")
    row.locator("input[name=per_dollar]").fill("70")
    row.locator("button").click()
    message = _flash(buyer)
    assert "requires at least 75%" in message and "70.0000%" in message
    site.shot(buyer, "market-offer-below-floor")

    row = buyer.locator("tr", has_text=site.cert_number)
    row.locator("input[name=per_dollar]").fill("75")
    row.locator("button").click()
    assert "75¢ per $1" in buyer.locator("main").inner_text()  # the review, rehearsed
    site.shot(buyer, "market-offer-review")
    buyer.click("button:has-text('Confirm: send the offer')")
    assert "was sent to the seller" in _flash(buyer)
    site.shot(buyer, "market-offer-sent")

    seller.goto(f"{site.url}/seller")
    seller.locator("button", has_text="Accept").click()
    assert "75¢ per $1" in seller.locator("main").inner_text()  # the review, in cents
    seller.locator("button", has_text="Confirm: accept the offer").click()
    assert "awaits the Authority's approval" in _flash(seller)
    site.shot(seller, "seller-accepted")

    eda.goto(f"{site.url}/authority")
    checks = eda.locator("table.checks").first.inner_text()
    assert "minimum consideration" in checks and "75.0000% of the amount sold" in checks
    assert "failed" not in checks and "not affiliated" in checks
    site.shot(eda, "authority-queue")
    eda.locator("button", has_text="Review and approve").first.click()
    assert "as they would now on approval" in eda.locator("main").inner_text()
    site.shot(eda, "authority-approval-review")
    eda.locator("button", has_text="Confirm: approve the transfer").click()
    assert "approved" in _flash(eda)
    site.shot(eda, "authority-approved")

    # The approval answers in the deal room, where both parties follow it to receipt.
    assert "/deals/transfers/" in eda.url
    room = eda.url
    assert "records its payment" in eda.locator("#next-step").inner_text()
    buyer.goto(room)
    assert "sells credit to" in buyer.locator("h1").inner_text()
    buyer.fill("#pay-reference", "WIRE-0001")
    assert buyer.locator("#pay-paid_on").input_value() == "2014-09-01"  # the business date
    buyer.locator("#payment-form button").click()
    assert "Payment of $750,000.00 recorded" in _flash(buyer)
    seller.goto(room)
    assert "confirms receipt" in seller.locator("#next-step").inner_text()
    seller.locator("button", has_text="Confirm we received").click()
    assert "Receipt of $750,000.00 confirmed" in _flash(seller)
    assert seller.locator("#next-step").inner_text() == "None: the deal is complete."
    site.shot(seller, "deal-room-complete")

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
