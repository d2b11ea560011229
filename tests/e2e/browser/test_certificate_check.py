"""The public certificate check in Chromium, signed out: the page's script recomputes the
Merkle root from the issuing event's hash and the proof path with WebCrypto SHA-256,
checks the checkpoint's Ed25519 signature, and says so in words; given a tampered proof,
it says the check fails."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from html import escape, unescape
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from market.adapters.db import make_engine
from market.services.trust import certificate_check, signer
from market.services.trust.checkpoints import TrustSettings
from tests.e2e.browser.conftest import _seed

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


@dataclass
class Checked:
    url: str
    number: str
    code: str


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Checked]:
    from market import create_app

    folder = tmp_path_factory.mktemp("verify")
    url = f"sqlite:///{folder / 'market.db'}"
    number = _seed(url)
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "browser-secret"})
    app.instance_path = str(folder / "instance")
    engine = make_engine(url)
    signer.make_checkpoint(engine, TrustSettings.from_config(app.config, app.instance_path))
    with engine.connect() as conn:
        code = certificate_check.code_of(conn, number)
    engine.dispose()
    assert code is not None
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Checked(f"http://127.0.0.1:{server.server_port}", number, code)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
        app.extensions["market.engine"].dispose()


def _page(browser: Any) -> Any:
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))  # an uncaught script error
    page.errors = errors
    return page


def _result(page: Any) -> str:
    page.wait_for_selector("#browser-check:not([data-result=pending])")
    return str(page.locator("#browser-check").get_attribute("data-result"))


def test_the_browser_checks_the_proof_and_the_signature(
    browser: Any, checked: Checked, tmp_path: Path
) -> None:
    page = _page(browser)
    page.goto(f"{checked.url}/verify?number={checked.number}&code={checked.code}")
    assert _result(page) == "pass", page.locator("#browser-check").inner_text()
    words = page.locator("#browser-check").inner_text()
    assert "Checked in your browser" in words
    assert "lead from that leaf to root" in words
    # Chromium here has Ed25519 in WebCrypto: the signature is checked, not skipped.
    assert "Ed25519 signature verifies under key" in words, words
    assert "Fails" not in words and not page.errors, (words, page.errors)
    page.screenshot(path=str(tmp_path / "verify-pass.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("part", ["path", "event", "signature"])
def test_a_tampered_proof_is_said_to_fail(browser: Any, checked: Checked, part: str) -> None:
    page = _page(browser)

    def tamper(route: Any) -> None:
        html = route.fetch().text()
        head, rest = html.split('data-proof="', 1)
        blob, tail = rest.split('"', 1)
        data = json.loads(unescape(blob))
        if part == "path":
            first = data["proof"]["path"][0]
            data["proof"]["path"][0] = ("0" if first[0] != "0" else "1") + first[1:]
        elif part == "event":
            digest = data["event"]["hash"]
            data["event"]["hash"] = digest[:-1] + ("0" if digest[-1] != "0" else "1")
        else:
            sig = data["proof"]["checkpoint"]["signature"]
            data["proof"]["checkpoint"]["signature"] = ("A" if sig[0] != "A" else "B") + sig[1:]
        route.fulfill(
            body=head + 'data-proof="' + escape(json.dumps(data), quote=True) + '"' + tail,
            content_type="text/html; charset=utf-8",
        )

    page.route("**/verify?*", tamper)
    page.goto(f"{checked.url}/verify?number={checked.number}&code={checked.code}")
    assert _result(page) == "fail"
    words = page.locator("#browser-check").inner_text()
    assert "The check FAILED in your browser" in words and "Fails:" in words, words
    page.context.close()
