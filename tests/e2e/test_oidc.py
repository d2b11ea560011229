"""Single sign-on against a real OpenID Connect provider (npm oidc-provider, run here on
loopback; scripts/test installs it), on SQLite and PostgreSQL: the code flow with PKCE
signs in the user with the provider's verified e-mail; an unverified or unknown e-mail,
a state, nonce or issuer that is not ours are refused; the provider's amr counts as the
second factor only with OIDC_SATISFIES_MFA."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urljoin, urlsplit

import pyotp
import pytest
import requests

from market.services.identity import identity, mfa
from tests.ops_servers import IN_CI, free_port, stop, wait_until_up

pytestmark = pytest.mark.storage
PROVIDER_DIR = Path(__file__).resolve().parents[1] / "oidc_provider"
CALLBACK = "http://localhost/login/oidc/callback"  # the test client's host
ACCOUNTS = {
    "ana": {"email": "Ana@State.test", "email_verified": True, "amr": ["pwd"]},
    "bob": {"email": "bob@state.test", "email_verified": True, "amr": ["pwd", "otp"]},
    "eve": {"email": "eve@state.test", "email_verified": False, "amr": ["pwd"]},
    "zed": {"email": "zed@state.test", "email_verified": True, "amr": ["pwd"]},
}


@pytest.fixture(scope="module")
def provider(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    node = shutil.which("node")
    if node is None or not (PROVIDER_DIR / "node_modules" / "oidc-provider").is_dir():
        reason = "node and npm's oidc-provider are needed (scripts/test installs them)"
        if IN_CI:
            pytest.fail(reason + "; CI requires them", pytrace=False)
        pytest.skip(reason)
    port = free_port()
    log = tmp_path_factory.mktemp("oidc") / "provider.log"
    args = [node, "provider.mjs", str(port), "market", "s3cret-client", CALLBACK]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [*args, json.dumps(ACCOUNTS)], cwd=PROVIDER_DIR, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        url = f"http://127.0.0.1:{port}"
        wait_until_up(f"{url}/.well-known/openid-configuration", proc, log)
        yield url
    finally:
        stop(proc)


@pytest.fixture
def sso(app: Any, provider: str) -> Any:
    app.config.update(
        OIDC_ISSUER=provider, OIDC_CLIENT_ID="market", OIDC_CLIENT_SECRET="s3cret-client"
    )
    engine = app.extensions["market.engine"]
    users = {}
    for login in ("ana", "bob", "eve"):
        users[login] = identity.create_user(
            engine, str(ACCOUNTS[login]["email"]), "auditor", "a-long-password-here"
        )["id"]
    secret = mfa.begin(engine, users["bob"])
    mfa.confirm(engine, users["bob"], pyotp.TOTP(secret).now())
    return app


def to_provider(client: Any, provider: str, account: str) -> str:
    """Start at /login/oidc, sign in at the provider as `account`: the callback URL."""
    assert requests.post(f"{provider}/test/next-login?account={account}", timeout=10).ok
    start = client.get("/login/oidc")
    assert start.status_code == 302
    url = start.headers["Location"]
    query = parse_qs(urlsplit(url).query)
    assert query["code_challenge_method"] == ["S256"] and query["code_challenge"]
    assert query["state"] and query["nonce"] and query["scope"] == ["openid email"]
    browser = requests.Session()
    for _ in range(6):
        r = browser.get(url, allow_redirects=False, timeout=10)
        assert r.status_code in (302, 303), r.text[:500]
        url = urljoin(url, r.headers["Location"])
        if url.startswith(CALLBACK):
            return url
    raise AssertionError("the provider never sent us back")


def back(client: Any, callback: str, **changes: str) -> Any:
    parts = urlsplit(callback)
    query = {k: v[0] for k, v in parse_qs(parts.query).items()} | changes
    return client.get(f"{parts.path}?{urlencode(query)}")


def signed_in(client: Any) -> bool:
    return bool(client.get("/account").status_code == 200)


def test_a_user_is_signed_in_by_the_providers_verified_email(sso: Any, provider: str) -> None:
    client = sso.test_client()
    assert not signed_in(client)
    r = back(client, to_provider(client, provider, "ana"))
    assert r.status_code == 302 and urlsplit(r.headers["Location"]).path == "/"
    assert signed_in(client)


@pytest.mark.parametrize("account", ["eve", "zed"])
def test_an_unverified_or_unknown_email_is_refused(sso: Any, provider: str, account: str) -> None:
    client = sso.test_client()
    r = back(client, to_provider(client, provider, account))
    assert r.status_code == 303 and r.headers["Location"].endswith("/login")
    assert not signed_in(client)


def test_a_state_that_is_not_ours_is_refused(sso: Any, provider: str) -> None:
    client = sso.test_client()
    r = back(client, to_provider(client, provider, "ana"), state="forged-state")
    assert r.status_code == 303 and not signed_in(client)


def test_another_browsers_answer_is_refused(sso: Any, provider: str) -> None:
    victim, attacker = sso.test_client(), sso.test_client()
    callback = to_provider(attacker, provider, "ana")
    victim.get("/login/oidc")  # the victim's own, different state and nonce
    assert back(victim, callback).status_code == 303 and not signed_in(victim)


def test_a_nonce_that_is_not_ours_is_refused(sso: Any, provider: str) -> None:
    client = sso.test_client()
    callback = to_provider(client, provider, "ana")
    with client.session_transaction() as session:
        (key,) = [k for k in session if k.startswith("_state_")]
        stored = session[key]
        stored["data"]["nonce"] = "another-nonce"
        session[key] = stored
    assert back(client, callback).status_code == 303 and not signed_in(client)


def test_an_answer_naming_another_issuer_is_refused(sso: Any, provider: str) -> None:
    client = sso.test_client()
    r = back(client, to_provider(client, provider, "ana"), iss="http://127.0.0.1:1")
    assert r.status_code == 303 and not signed_in(client)


def test_the_providers_amr_counts_as_second_factor_only_when_configured(
    sso: Any, provider: str
) -> None:
    client = sso.test_client()
    r = back(client, to_provider(client, provider, "bob"))
    assert urlsplit(r.headers["Location"]).path == "/login/code" and not signed_in(client)
    sso.config["OIDC_SATISFIES_MFA"] = True
    client = sso.test_client()
    r = back(client, to_provider(client, provider, "bob"))
    assert urlsplit(r.headers["Location"]).path == "/" and signed_in(client)


def test_the_sign_in_page_offers_the_provider_when_configured(sso: Any, client: Any) -> None:
    assert 'href="/login/oidc"' in sso.test_client().get("/login").get_data(as_text=True)
    sso.config["OIDC_ISSUER"] = None
    assert "/login/oidc" not in sso.test_client().get("/login").get_data(as_text=True)


def test_without_an_issuer_single_sign_on_is_off(client: Any) -> None:
    assert client.get("/login/oidc").status_code == 404
    assert client.get("/login/oidc/callback?code=x&state=y").status_code == 404


def test_people_choose_whom_to_sign_in_as_on_the_providers_page(sso: Any, provider: str) -> None:
    """The demo's path (scripts/run --sso): with no account named ahead, the provider shows
    its own sign-in page; choosing an account there signs that user in here."""
    assert requests.post(f"{provider}/test/next-login", timeout=10).ok  # nobody named
    client = sso.test_client()
    url = client.get("/login/oidc").headers["Location"]
    browser = requests.Session()
    for _ in range(4):
        r = browser.get(url, allow_redirects=False, timeout=10)
        if r.status_code == 200:
            break
        url = urljoin(url, r.headers["Location"])
    assert "Sign in to the market as:" in r.text and "Ana@State.test" in r.text
    action = r.text.split('action="', 1)[1].split('"', 1)[0]
    assert requests.post(urljoin(url, action), timeout=10).status_code == 200  # no cookie
    r = browser.post(urljoin(url, action), data={"account": "ana"}, allow_redirects=False)
    for _ in range(6):
        url = urljoin(url, r.headers["Location"])
        if url.startswith(CALLBACK):
            break
        r = browser.get(url, allow_redirects=False, timeout=10)
    assert url.startswith(CALLBACK)
    done = back(client, url)
    assert done.status_code == 302 and signed_in(client)
