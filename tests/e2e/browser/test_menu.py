"""The Authority's menu grouped by task (issue 28 item 10), in Chromium: every group opens
without a script, its links then show, and on a 390 px phone the menu with every group
open is no wider than the screen; axe finds nothing serious with the groups open."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from market.services import demo
from tests.e2e.browser.demo_site import DemoSite, serve_demo
from tests.e2e.browser.test_accessibility_and_phones import PHONE, _serious

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSite]:
    yield from serve_demo(tmp_path_factory.mktemp("demo-menu"))


def _eda(browser: Any, site: DemoSite, viewport: dict[str, int]) -> Any:
    page = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{site.url}/login")
    page.fill("input[name=email]", "eda@demo.nj")
    page.fill("input[name=password]", demo.DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    return page


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["phone", "wide"])
def test_every_menu_group_opens_and_fits(browser: Any, demo_site: DemoSite, viewport: Any) -> None:
    page = _eda(browser, demo_site, viewport)
    try:
        assert page.url.endswith("/authority/todo")  # the Authority's landing
        nav = page.locator("nav[aria-label=Main]")
        groups = nav.locator("details.menu")
        assert groups.count() == 5
        assert not nav.get_by_role("link", name="Approvals").is_visible()
        widths = {}
        for i in range(groups.count()):
            group = groups.nth(i)
            group.locator("summary").click()
            assert group.locator("a").first.is_visible()
            widths[group.locator("summary").inner_text()] = int(
                page.evaluate("document.documentElement.scrollWidth")
            )
            if i == 0:
                assert _serious(page) == []
        # One group is open at a time (<details name>): the last one opened.
        assert [groups.nth(i).get_attribute("open") is not None for i in range(5)] == [
            False,
            False,
            False,
            False,
            True,
        ]
        assert all(w <= viewport["width"] for w in widths.values()), widths
        nav.locator("summary", has_text="Parties").click()
        nav.get_by_role("link", name="Director's exception").click()
        page.wait_for_load_state()
        assert page.url.endswith("/authority/parties/director-exception")
        assert page.locator("nav summary.active").inner_text() == "Parties"
    finally:
        page.context.close()
