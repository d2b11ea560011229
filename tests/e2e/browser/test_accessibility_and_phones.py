"""Every page of every role, in Chromium: axe-core (vendored, no CDN) finds no serious or
critical WCAG 2.2 A/AA violation, and at a 390 px phone width no page is wider than the
screen. Screenshots of the phone views go to the screenshots folder."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from market.services import demo
from market.services.identity import identity
from tests.e2e.browser.demo_site import LOGINS, DemoSite, serve_demo

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoSite]:
    yield from serve_demo(tmp_path_factory.mktemp("demo"))


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = Path(os.environ.get("ARTIFACTS_DIR") or tmp_path_factory.mktemp("phone-shots"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"\nphone screenshots: {folder}")
    return folder


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
def test_axe_finds_no_serious_or_critical_violation(
    browser: Any, demo_site: DemoSite, email: str
) -> None:
    page = _signed_in(browser, demo_site, email, {"width": 1280, "height": 900})
    problems: dict[str, list[str]] = {}
    try:
        for path in demo_site.pages_for(email, _party_of(demo_site, email)):
            response = page.goto(demo_site.url + path)
            assert response is not None and response.status == 200, (path, response)
            found = _serious(page)
            if found:
                problems[path] = found
    finally:
        page.context.close()
    assert not problems, "\n".join(f"{p}: {v}" for p, v in problems.items())


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
    browser: Any, demo_site: DemoSite, email: str, shots: Path
) -> None:
    page = _signed_in(browser, demo_site, email, PHONE)
    wide: dict[str, int] = {}
    try:
        for path in demo_site.pages_for(email, _party_of(demo_site, email)):
            page.goto(demo_site.url + path)
            width = int(page.evaluate("document.documentElement.scrollWidth"))
            if width > PHONE["width"]:
                wide[path] = width
            name = SHOT.get(path) or ("certificate" if path.startswith("/certificates/") else "")
            if name:
                who = email.split("@")[0]
                page.screenshot(path=str(shots / f"phone-{who}-{name}.png"), full_page=True)
    finally:
        page.context.close()
    assert not wide, f"wider than {PHONE['width']} px: {wide}"


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
