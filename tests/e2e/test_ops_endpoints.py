"""GET /healthz, /readyz and /metrics (PRODUCT.md 9.4), on SQLite and PostgreSQL: open
without sign-in, readiness a list of named checks that answers 503 naming the failing
ones, metrics by route template and only to METRICS_ALLOW_FROM."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from market import create_app
from market.services.notify import fanout
from tests.conftest import ERA_TODAY
from tests.helpers import create_party, headers_for

pytestmark = pytest.mark.storage


def sample(scrape: str, name: str, **labels: str) -> float:
    """The value of one series in a text exposition (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    for line in scrape.splitlines():
        series, _, value = line.rpartition(" ")
        if not series.startswith(name):
            continue
        found = re.fullmatch(rf"{re.escape(name)}(?:\{{(.*)\}})?", series)
        if found is not None and ",".join(sorted((found.group(1) or "").split(","))) == ",".join(
            sorted(want.split(","))
        ):
            return float(value)
    return 0.0


def test_healthz_answers_without_sign_in(client: Any) -> None:
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json == {"status": "ok"}


def test_readyz_names_each_check_and_is_ready_on_a_migrated_database(client: Any) -> None:
    r = client.get("/readyz")
    assert r.status_code == 200, r.json
    assert r.json["checks"] == {
        "database": "ok",
        "migrations": "ok",
        "signing_key": "ok",
        "worker_lag": "ok",
        "witness_quorum": "ok",
        "documents_dir_writable": "ok",
    }
    assert r.json["failing"] == []


def test_readyz_is_503_when_the_migrations_are_not_current(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    with engine.begin() as conn:
        current = conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        conn.execute(text("UPDATE alembic_version SET version_num = '0013'"))
    try:
        r = client.get("/readyz")
    finally:
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": current})
    assert r.status_code == 503
    assert r.json["failing"] == ["migrations"]
    assert "0013" in r.json["checks"]["migrations"]


def test_readyz_is_503_on_a_database_never_migrated(tmp_path: Path) -> None:
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{tmp_path}/empty.db", "SECRET_KEY": "x", "TESTING": True}
    )
    app.instance_path = str(tmp_path / "instance")
    r = app.test_client().get("/readyz")
    app.extensions["market.engine"].dispose()
    assert r.status_code == 503
    assert "migrations" in r.json["failing"]
    assert "not migrated" in r.json["checks"]["migrations"]
    assert r.json["checks"]["database"] == "ok"


@pytest.mark.parametrize("kind", ["missing", "a directory", "not a key"])
def test_readyz_is_503_when_the_signing_key_cannot_be_read(
    app: Any, client: Any, tmp_path: Path, kind: str
) -> None:
    key = tmp_path / "signing.pem"
    if kind == "a directory":
        key.mkdir()
    elif kind == "not a key":
        key.write_text("-----BEGIN NOTHING-----\n")
    app.config["SIGNING_KEY_FILE"] = str(key)
    r = client.get("/readyz")
    assert r.status_code == 503
    assert r.json["failing"] == ["signing_key"]
    assert str(key) in r.json["checks"]["signing_key"]
    assert not (kind == "missing" and key.exists())  # a configured key is never made


def test_readyz_is_503_while_the_worker_lags_and_ready_once_it_caught_up(
    app: Any, client: Any
) -> None:
    create_party(client, headers_for(client, app.extensions["market.engine"], "authority"))
    app.config["READY_MAX_WORKER_LAG_S"] = 0
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json["failing"] == ["worker_lag"]
    assert "wait for the worker" in r.json["checks"]["worker_lag"]
    fanout.catch_up(app.extensions["market.engine"])
    assert client.get("/readyz").status_code == 200


def test_readyz_is_503_naming_the_database_when_it_does_not_answer(tmp_path: Path) -> None:
    url = "postgresql+psycopg://nobody@127.0.0.1:9/none?connect_timeout=2"
    app = create_app({"DATABASE_URL": url, "SECRET_KEY": "x", "MARKET_TODAY": ERA_TODAY})
    app.instance_path = str(tmp_path / "instance")
    r = app.test_client().get("/readyz")
    assert r.status_code == 503
    assert {"database", "migrations", "worker_lag"} <= set(r.json["failing"])
    assert r.json["checks"]["database"] == "failed: OperationalError"  # no host or port said


def test_metrics_count_requests_by_route_template_and_read_the_ledger(
    app: Any, client: Any
) -> None:
    engine = app.extensions["market.engine"]
    headers = headers_for(client, engine, "authority")
    party = create_party(client, headers)
    before = client.get("/metrics").get_data(as_text=True)
    for _ in range(3):
        assert client.get(f"/api/v1/parties/{party['id']}", headers=headers).status_code == 200
    bad = client.post("/api/v1/auth/token", json={"email": "x@y.test", "password": "wrong!"})
    assert bad.status_code == 401
    r = client.get("/metrics")
    assert r.status_code == 200 and r.content_type.startswith("text/plain")
    after = r.get_data(as_text=True)
    route = {"route": "/api/v1/parties/<party_id>", "method": "GET", "status": "200"}
    name = "market_http_request_duration_seconds_count"
    assert sample(after, name, **route) - sample(before, name, **route) == 3
    assert party["id"] not in after  # the template, never the path
    bucket = "market_http_request_duration_seconds_bucket"
    assert sample(after, bucket, **route, le="+Inf") >= 3
    failures = "market_login_failures_total"
    assert sample(after, failures) - sample(before, failures) == 1
    assert sample(after, "market_outbox_lag_events") >= 1  # the party's events wait
    assert sample(after, "market_ledger_events") >= 1
    fanout.catch_up(engine)
    caught_up = client.get("/metrics").get_data(as_text=True)
    assert sample(caught_up, "market_outbox_lag_events") == 0


def test_metrics_answer_only_the_allowed_addresses(app: Any, client: Any) -> None:
    elsewhere = {"REMOTE_ADDR": "10.1.2.3"}
    assert client.get("/metrics", environ_base=elsewhere).status_code == 404
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "127.0.0.2"}).status_code == 404
    app.config["METRICS_ALLOW_FROM"] = "127.0.0.1, 10.0.0.0/8"
    assert client.get("/metrics", environ_base=elsewhere).status_code == 200
    assert client.get("/metrics", environ_base={"REMOTE_ADDR": "11.0.0.1"}).status_code == 404


def test_a_forwarded_address_cannot_reach_metrics_without_trusted_proxies(client: Any) -> None:
    # TRUSTED_PROXIES=0: a client naming 127.0.0.1 in X-Forwarded-For is still 10.1.2.3.
    r = client.get(
        "/metrics",
        headers={"X-Forwarded-For": "127.0.0.1"},
        environ_base={"REMOTE_ADDR": "10.1.2.3"},
    )
    assert r.status_code == 404


def test_the_ops_endpoints_answer_alike_signed_in_or_not(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    signed_in = app.test_client()
    headers = headers_for(signed_in, engine, "auditor")
    for path in ("/healthz", "/readyz", "/metrics"):
        anonymous, bearer = client.get(path), signed_in.get(path, headers=headers)
        assert anonymous.status_code == bearer.status_code == 200, path
        assert "Set-Cookie" not in anonymous.headers  # no session is started
