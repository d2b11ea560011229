"""The product bugs the proof suites found (fuzzing, role matrix), one reproduction each.
Each was a strict XFAIL until its fix landed; they now guard against the bug coming back."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import reset_postgres
from tests.helpers import headers_for
from tests.proof.world import World

BIG = 2**63  # one more than PostgreSQL's bigint and SQLite's INTEGER can hold


@pytest.fixture
def pg_client(pg_database_url: str, tmp_path: Path) -> Iterator[Any]:
    """PostgreSQL only: NUL characters are fine in SQLite text, refused by PostgreSQL."""
    from market import create_app

    reset_postgres(pg_database_url)
    app = create_app(
        {"DATABASE_URL": pg_database_url, "TESTING": True, "SECRET_KEY": "test-secret"}
    )
    app.instance_path = str(tmp_path / "instance")
    yield app.test_client()
    app.extensions["market.engine"].dispose()


@pytest.mark.parametrize("path", ["/api/v1/events", "/api/v1/transfers"])
def test_a_cursor_beyond_int64_is_refused_as_malformed(client: Any, path: str) -> None:
    engine = client.application.extensions["market.engine"]
    r = client.get(f"{path}?after={BIG}", headers=headers_for(client, engine, "authority"))
    assert r.status_code == 400, (r.status_code, r.json)


@pytest.mark.parametrize(
    "path", ["/api/v1/tech/allocations/0", f"/api/v1/tech/allocations/{BIG}/preview"]
)
def test_a_fiscal_year_outside_the_calendar_is_refused(client: Any, path: str) -> None:
    engine = client.application.extensions["market.engine"]
    r = client.post(path, json={}, headers=headers_for(client, engine, "authority"))
    assert 400 <= r.status_code < 500, (r.status_code, r.json)


@pytest.mark.parametrize("where", ["path", "body"])
def test_a_nul_character_is_refused_not_a_500_on_postgresql(pg_client: Any, where: str) -> None:
    w = World(pg_client, sellers=1, buyers=0)
    if where == "path":
        r = pg_client.get("/api/v1/certificates/crt_%00", headers=w.auth)
    else:
        r = pg_client.post(
            "/api/v1/parties",
            json={"name": "A\x00B", "tax_id": "nul-1", "entity_type": "llc", "tax_types": []},
            headers=w.auth,
        )
    assert 400 <= r.status_code < 500, (r.status_code, r.json)


def test_a_refusal_does_not_tell_a_stranger_who_holds_a_certificate(client: Any) -> None:
    """Found by the role matrix: another participant who sends a transfer of a certificate
    it does not hold learns the holder's party id from the 403's details."""
    w = World(client, sellers=1, buyers=1)
    holder = w.sellers[0]["id"]
    cert = w.issue(holder, 10**8)
    stranger = w.buyers[0]["id"]
    r = w.client.post(
        "/api/v1/transfers",
        json={
            "certificate_id": cert["id"],
            "buyer_party_id": stranger,
            "amount_cents": 100,
            "consideration_cents": 100,
        },
        headers=w.h[stranger],
    )
    assert r.status_code == 404  # as if the certificate did not exist (was 403)
    assert holder not in r.get_data(as_text=True), r.json
