"""Trading in the pages, in Chromium (issue 28 item 3): a seller proposes a transfer to a
named buyer (form, review of the rules, confirm, the deal's page), counters an offer, and
the buyer accepts the counter from its desk; each new page passes axe-core (no serious or
critical violation) and fits a 390 px phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser.conftest import Site, signed_in_pages
from tests.e2e.browser.test_accessibility_and_phones import PHONE, _serious

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser-trading")]


@pytest.fixture(scope="module")
def pages(browser: Any, site: Site) -> Iterator[dict[str, Any]]:
    yield from signed_in_pages(browser, site, ("seller", "buyer"), bypass_csp=True)


def _checked(page: Any) -> None:
    """axe finds nothing serious here, and at 390 px nothing scrolls sideways."""
    assert _serious(page) == [], page.url
    page.set_viewport_size(PHONE)
    width = int(page.evaluate("document.documentElement.scrollWidth"))
    page.set_viewport_size({"width": 1280, "height": 900})
    assert width <= PHONE["width"], (page.url, width)


def test_a_seller_proposes_counters_and_the_buyer_accepts(
    pages: dict[str, Any], site: Site
) -> None:
    seller, buyer = pages["seller"], pages["buyer"]
    seller.goto(f"{site.url}/seller")
    seller.click("text=Propose a transfer to a buyer")
    expect(seller.locator("h1")).to_have_text("Propose a transfer to a buyer")
    _checked(seller)
    seller.select_option("select[name=certificate_id]", index=1)
    seller.fill("input[name=buyer]", "Newark Insurance Holdings")
    seller.fill("input[name=amount]", "500,000")
    seller.fill("input[name=per_dollar]", "80")
    seller.click("button:has-text('Review the transfer')")
    # The review is a new page: wait for it rather than read a page mid-navigation.
    expect(seller.locator("body")).to_contain_text("80¢ per $1: $400,000.00")
    _checked(seller)
    site.shot(seller, "propose-review")
    seller.click("button:has-text('Confirm: propose the transfer')")
    seller.wait_for_load_state()
    assert "/deals/transfers/" in seller.url

    seller.goto(f"{site.url}/seller")
    form = seller.locator("form[action='/seller/listings']")
    form.locator("input[name=amount]").fill("1,000,000")
    form.locator("input[name=per_dollar]").fill("90")
    form.locator("button").click()
    buyer.goto(f"{site.url}/market")
    row = buyer.locator("tr", has_text=site.cert_number)
    row.locator("input[name=amount]").fill("1,000,000")
    row.locator("input[name=per_dollar]").fill("78")
    row.locator("button").click()
    buyer.click("button:has-text('Confirm: send the offer')")
    assert "was sent to the seller" in buyer.locator(".flash").first.inner_text()

    seller.goto(f"{site.url}/seller")
    _checked(seller)
    seller.click("button:has-text('Counter…')")
    # Each click opens a new page: wait for it, as above, before axe reads it.
    expect(seller.locator("button:has-text('Review the counter-offer')")).to_be_visible()
    _checked(seller)
    seller.fill("input[name=per_dollar]", "85")
    seller.click("button:has-text('Review the counter-offer')")
    expect(seller.locator("button:has-text('Confirm: send the counter-offer')")).to_be_visible()
    _checked(seller)
    seller.click("button:has-text('Confirm: send the counter-offer')")
    assert "Counter-offer sent: 85¢ per $1" in seller.locator(".flash").first.inner_text()

    buyer.goto(f"{site.url}/buyer")
    assert "Counter-offers from sellers" in buyer.content()
    _checked(buyer)
    site.shot(buyer, "buyer-counter")
    buyer.click("button:has-text('Accept…')")
    buyer.click("button:has-text('Confirm: accept the counter-offer')")
    buyer.wait_for_load_state()
    assert "/deals/transfers/" in buyer.url
    assert "Counter-offer accepted" in buyer.locator(".flash").first.inner_text()
