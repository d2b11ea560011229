"""LOG_FORMAT=json (PRODUCT.md 9.4): one object a line with the request id the answer
carries as X-Request-Id, the route template, status, duration and user; never a
password, a bearer token, a reset link or what a document says; the worker's line for
an event names the request that committed it. SQLite and PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from market import create_app
from market.adapters.tables import RequestTrace
from market.services.identity import identity, password_reset
from market.services.notify import fanout
from tests.conftest import ERA_TODAY
from tests.helpers import create_party

pytestmark = pytest.mark.storage
traces_t = RequestTrace.__table__  # type: ignore[attr-defined]
PASSWORD = "Hunter2-correct-horse-9341"
EMAIL = "ops-log@firm.test"


@pytest.fixture
def json_app(database_url: str, tmp_path: Path) -> Iterator[Any]:
    app = create_app(
        {
            "DATABASE_URL": database_url,
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "MARKET_TODAY": ERA_TODAY,
            "LOG_FORMAT": "json",
        }
    )
    app.instance_path = str(tmp_path / "instance")
    yield app
    app.extensions["market.engine"].dispose()


def lines(captured: str) -> list[dict[str, Any]]:
    out = captured.splitlines()
    assert out, "nothing was logged"
    return [json.loads(line) for line in out]  # every line is one JSON object


def sign_in(client: Any) -> str:
    r = client.post("/api/v1/auth/token", json={"email": EMAIL, "password": PASSWORD})
    assert r.status_code == 200, r.json
    return str(r.json["token"])


def test_each_request_is_one_json_line_whose_request_id_the_answer_carries(
    json_app: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = json_app.extensions["market.engine"]
    user = identity.create_user(engine, EMAIL, "authority", PASSWORD)
    client = json_app.test_client()
    token = sign_in(client)
    capsys.readouterr()
    party = create_party(client, {"Authorization": f"Bearer {token}"})
    r = client.get(f"/api/v1/parties/{party['id']}", headers={"Authorization": f"Bearer {token}"})
    (created, read) = lines(capsys.readouterr().err)
    assert read["request_id"] == r.headers["X-Request-Id"] != created["request_id"]
    assert read["route"] == "/api/v1/parties/<party_id>" and read["status"] == 200
    assert read["method"] == "GET" and read["level"] == "info" and read["event"] == "request"
    assert read["user_id"] == created["user_id"] == user["id"]
    assert read["time"].endswith("Z") and isinstance(read["duration_ms"], float)


def test_no_password_token_reset_link_or_document_content_reaches_the_log(
    json_app: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = json_app.extensions["market.engine"]
    identity.create_user(engine, EMAIL, "authority", PASSWORD)
    client = json_app.test_client()
    capsys.readouterr()
    wrong = client.post("/api/v1/auth/token", json={"email": EMAIL, "password": PASSWORD + "x"})
    assert wrong.status_code == 401
    token = sign_in(client)
    secret_name = "Confidential Holdings of Trenton 7781"
    headers = {"Authorization": f"Bearer {token}"}
    create_party(client, headers, name=secret_name)
    client.get("/api/v1/parties?q=Trenton%207781", headers=headers)
    reset = password_reset.request_reset(engine, json_app.extensions["market.token_hasher"], EMAIL)
    assert reset is not None
    assert client.get(f"/password/reset/{reset}").status_code == 200
    page = json_app.test_client()
    page.post("/login", data={"email": EMAIL, "password": PASSWORD})
    logged = capsys.readouterr().err
    assert len(lines(logged)) >= 6
    for secret in (PASSWORD, token, reset, secret_name, "Trenton", EMAIL):
        assert secret not in logged, secret
    assert '"route": "/password/reset/<token>"' in logged


@pytest.mark.parametrize(
    ("proxies", "incoming", "kept"),
    [
        (1, "req-0123456789abcdef", True),
        (0, "req-0123456789abcdef", False),  # no proxy is trusted: a client cannot set it
        (1, "bad id with spaces", False),
        (1, "x" * 65, False),
        (1, "short", False),
    ],
)
def test_an_incoming_request_id_is_kept_only_from_a_trusted_proxy_and_well_formed(
    json_app: Any, proxies: int, incoming: str, kept: bool
) -> None:
    json_app.config["TRUSTED_PROXIES"] = proxies
    r = json_app.test_client().get("/healthz", headers={"X-Request-Id": incoming})
    answered = r.headers["X-Request-Id"]
    assert (answered == incoming) is kept
    assert len(answered) == 32 or kept


def test_the_workers_line_for_an_event_names_the_request_that_committed_it(
    json_app: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = json_app.extensions["market.engine"]
    identity.create_user(engine, EMAIL, "authority", PASSWORD)
    client = json_app.test_client()
    headers = {"Authorization": f"Bearer {sign_in(client)}"}
    r = client.post(
        "/api/v1/parties",
        json={
            "name": "Acme",
            "tax_id": "22-1234567",
            "entity_type": "c_corporation",
            "tax_types": ["CBT"],
        },
        headers=headers,
    )
    assert r.status_code == 201, r.json
    capsys.readouterr()
    assert fanout.run_once(engine) >= 1
    worker = [
        line for line in lines(capsys.readouterr().err) if line["event"] == "event fanned out"
    ]
    caused = [line for line in worker if line["request_id"] == r.headers["X-Request-Id"]]
    assert caused and all(line["type"] for line in caused)
    with engine.connect() as conn:  # said once: what is fanned out is no longer traced
        assert conn.execute(select(func.count()).select_from(traces_t)).scalar() == 0
