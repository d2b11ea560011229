"""Every page of every role, in Chromium: axe-core (vendored, no CDN) finds no serious or
critical WCAG 2.2 A/AA violation, and no page is wider than the window, at 1280 px and at a
390 px phone width. "Every page": what the role reaches by following links from its start
pages (crawl.py), every deal and certificate page it is linked to included. Screenshots of
the phone views go to the screenshots folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from market.services import demo
from market.services.identity import identity
from tests.e2e.browser.crawl import crawl, is_deal_or_certificate
from tests.e2e.browser.demo_site import LOGINS, DemoSite, serve_demo

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
WIDTH = "document.documentElement.scrollWidth"


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSite]:
    yield from serve_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("ARTIFACTS_DIR") or tmp_path_factory.mktemp("phone-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nphone screenshots: {folder}")
    return folder


@pytest.fixture(scope="module")
def reachable() -> dict[str, dict[str, str]]:
    """Each login's crawl (page -> the page that linked it), made once for both tests."""
    return {}


def _pages(
    page: Any, site: DemoSite, email: str, found: dict[str, dict[str, str]]
) -> dict[str, str]:
    if email not in found:
        start = site.pages_for(email, _party_of(site, email))
        found[email] = crawl(page.context.request, site.url, start)
    return found[email]


def _visit(page: Any, site: DemoSite, path: str, linked_from: str) -> str | None:
    """Open a page; what is wrong with its answer, or None."""
    response = page.goto(site.url + path)
    if response is None or response.status != 200:
        status = response.status if response is not None else "none"
        return f"answered {status} (linked from {linked_from or 'the start pages'})"
    return None


def _signed_in(browser: Any, site: DemoSite, email: str, viewport: dict[str, int]) -> Any:
    # bypass_csp: axe is evaluated into the page, which a strict policy would otherwise stop.
    context = browser.new_context(viewport=viewport, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{site.url}/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", demo.DEMO_PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/login" not in page.url, f"{email} could not sign in"
    return page


def _party_of(site: DemoSite, email: str) -> str | None:
    actor = identity.check_password(site.engine, email, demo.DEMO_PASSWORD)
    return actor.party_id


def _serious(page: Any) -> list[str]:
    page.evaluate(AXE)
    result = page.evaluate(
        "async (tags) => await axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(n["target"][0] for n in v["nodes"][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("email", sorted(LOGINS))
def test_axe_finds_nothing_serious_and_no_page_is_wider_than_1280_px(
    browser: Any, demo_site: DemoSite, email: str, reachable: dict[str, dict[str, str]]
) -> None:
    page = _signed_in(browser, demo_site, email, DESK)
    problems: dict[str, Any] = {}
    try:
        pages = _pages(page, demo_site, email, reachable)
        for path, linked_from in pages.items():
            wrong = _visit(page, demo_site, path, linked_from)
            if wrong:
                problems[path] = wrong
                continue
            found = _serious(page)
            width = int(page.evaluate(WIDTH))
            if width > DESK["width"]:
                found.append(f"{width} px wide at {DESK['width']}")
            if found:
                problems[path] = found
    finally:
        page.context.close()
    assert not problems, f"{len(problems)} of {len(pages)} pages:\n" + "\n".join(
        f"{p}: {v}" for p, v in problems.items()
    )


def test_the_sign_in_page_has_no_serious_violation(browser: Any, demo_site: DemoSite) -> None:
    context = browser.new_context(bypass_csp=True)
    page = context.new_page()
    page.goto(f"{demo_site.url}/login")
    try:
        assert _serious(page) == []
    finally:
        context.close()


def test_the_public_check_signed_out_passes_axe_and_fits_a_phone(
    browser: Any, demo_site: DemoSite
) -> None:
    """What a printed QR code opens on a phone that never signed in."""
    context = browser.new_context(bypass_csp=True, viewport=PHONE)
    page = context.new_page()
    try:
        response = page.goto(demo_site.url + demo_site.public_check())
        assert response is not None and response.status == 200
        page.wait_for_selector("#browser-check[data-result=pass]")
        assert _serious(page) == []
        assert int(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    finally:
        context.close()


SHOT = {"/market": "market", "/seller": "seller", "/buyer": "buyer", "/authority": "authority"}


@pytest.mark.parametrize("email", sorted(LOGINS))
def test_no_page_is_wider_than_a_390_px_phone(
    browser: Any, demo_site: DemoSite, email: str, shots: Path, reachable: dict[str, dict[str, str]]
) -> None:
    page = _signed_in(browser, demo_site, email, PHONE)
    wide: dict[str, Any] = {}
    try:
        pages = _pages(page, demo_site, email, reachable)
        for path, linked_from in pages.items():
            wrong = _visit(page, demo_site, path, linked_from)
            if wrong:
                wide[path] = wrong
                continue
            width = int(page.evaluate(WIDTH))
            if width > PHONE["width"]:
                wide[path] = width
            name = SHOT.get(path) or ("certificate" if path.startswith("/certificates/") else "")
            if name:
                who = email.split("@")[0]
                page.screenshot(path=str(shots / f"phone-{who}-{name}.png"), full_page=True)
    finally:
        page.context.close()
    assert not wide, f"wider than {PHONE['width']} px, of {len(pages)} pages: {wide}"


# What each role's crawl must reach at least: its desks, and a deal or certificate page,
# so a crawl that stops early (a broken link, a login redirect) cannot pass as "every page".
MUST_REACH = {
    "authority": {"/authority", "/closing", "/monitor/covenants", "/ledger", "/audit"},
    "auditor": {"/ledger", "/reports/statutory/", "/closing"},
    "participant": {"/seller", "/buyer", "/closing", "/notifications", "/deals/buying"},
}


@pytest.mark.parametrize("email", sorted(LOGINS))
def test_the_crawl_reaches_each_role_s_desks_and_deals(
    browser: Any, demo_site: DemoSite, email: str, reachable: dict[str, dict[str, str]]
) -> None:
    page = _signed_in(browser, demo_site, email, DESK)
    try:
        pages = _pages(page, demo_site, email, reachable)
    finally:
        page.context.close()
    assert MUST_REACH[LOGINS[email]] <= set(pages), MUST_REACH[LOGINS[email]] - set(pages)
    assert any(is_deal_or_certificate(p) for p in pages)
    assert not any(p.startswith(("/logout", "/api/", "/documents/")) for p in pages)


def test_the_checker_itself_catches_a_violation(browser: Any) -> None:
    """Guards the guard: a page with an unlabelled field and a nameless button fails."""
    context = browser.new_context()
    page = context.new_page()
    try:
        page.set_content('<html lang="en"><title>t</title><main><input><button></button></main>')
        found = " ".join(_serious(page))
        assert "label (critical)" in found and "button-name (critical)" in found
    finally:
        context.close()
