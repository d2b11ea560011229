"""A real browser against the app served on a local port.

The app runs in a background thread (werkzeug's threaded server) over a migrated SQLite
file set up through the services; Playwright's sync API drives Debian's Chromium at
/usr/bin/chromium (never `playwright install`). Screenshots of every page visited go to
$ARTIFACTS_DIR, or a temporary folder, whose path is printed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from market.adapters.db import make_engine
from market.adapters.migrate import upgrade
from market.domain.rulesets import get_ruleset
from market.services.certificates import certificates
from market.services.identity import identity
from market.services.kernel import runner
from market.services.kernel.actor import SYSTEM
from market.services.parties import parties
from tests.helpers import brrag_award_kwargs

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PASSWORD = "browser-password"


@dataclass
class Site:
    url: str
    shots: Path
    cert_number: str
    count: int = 0

    def shot(self, page: Any, name: str) -> Path:
        self.count += 1
        path = self.shots / f"{self.count:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path


def _register(engine: Any, name: str, tax_id: str) -> str:
    new = parties.NewParty(name=name, tax_id=tax_id, entity_type="c_corporation", tax_types=["CBT"])
    party = runner.run(engine, lambda uow: parties.register_party(uow, SYSTEM, new))
    return str(party["id"])


def _seed(url: str) -> str:
    engine = make_engine(url)
    upgrade(engine)
    seller = _register(engine, "Camden Robotics", "22-1000001")
    buyer = _register(engine, "Newark Insurance Holdings", "22-1000002")
    identity.create_user(engine, "seller@example.com", "participant", PASSWORD, seller)
    identity.create_user(engine, "buyer@example.com", "participant", PASSWORD, buyer)
    identity.create_user(engine, "eda@example.com", "authority", PASSWORD)
    new = certificates.NewCertificate(
        "BRRAG", seller, 200_000_000, 2014, **brrag_award_kwargs(200_000_000)
    )
    rules = get_ruleset("A1178")
    cert = runner.run(engine, lambda uow: certificates.issue_certificate(uow, SYSTEM, new, rules))
    engine.dispose()
    return str(cert["number"])


@pytest.fixture(scope="module")
def chromium_path() -> Path:
    if not CHROMIUM.exists():
        reason = f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason + "; CI requires it", pytrace=False)
        pytest.skip(reason)
    return CHROMIUM


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    from market import create_app

    folder = tmp_path_factory.mktemp("browser")
    url = f"sqlite:///{folder / 'market.db'}"
    number = _seed(url)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "browser-secret"})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    shots = Path(os.environ.get("ARTIFACTS_DIR") or folder / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    print(f"\nscreenshots: {shots}")
    try:
        yield Site(f"http://127.0.0.1:{server.server_port}", shots, number)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        app.extensions["market.engine"].dispose()


@pytest.fixture(scope="module")
def browser(chromium_path: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(chromium_path), headless=True, args=ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def signed_in_pages(
    browser: Any, site: Site, people: tuple[str, ...], **context: Any
) -> Iterator[dict[str, Any]]:
    """One browser context (its own session cookie) per person, signed in at 1280 px;
    closed when the module is done."""
    opened: dict[str, Any] = {}
    for who in people:
        page = browser.new_context(viewport={"width": 1280, "height": 900}, **context).new_page()
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
