"""BR-1, BR-2, BR-6 over the API, on SQLite and PostgreSQL: BRRAG issuance takes the award
(retained jobs, years, New Jersey operation, the determination), refuses an award without
its facts, and records it on the certificate. What the award's rules refuse
(`award_exceeded`, `ineligible_seller`, `determination_missing`) is held by
tests/unit/services/certificates/test_issuance.py."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import brrag_award, create_party, events, headers_for

M = 100_000_000


def _post(client: Any, auth: dict[str, str], holder: str, **body: Any) -> Any:
    base = {"program": "BRRAG", "holder_party_id": holder, "fiscal_year": 2014}
    return client.post("/api/v1/certificates", json=base | body, headers=auth)


@pytest.fixture
def setup(client: Any) -> tuple[Any, dict[str, str], str]:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    return engine, auth, create_party(client, auth, name="Meadowlands Logistics")["id"]


def test_the_award_is_recorded_on_the_certificate(client: Any, setup: Any) -> None:
    _, auth, holder = setup
    r = _post(
        client,
        auth,
        holder,
        face_cents=450_000_00,
        retained_jobs=100,
        award_years=3,
        nj_operations_since="2004-09-01",
        cannot_use_before_expiry=True,
    )
    assert r.status_code == 201, r.json
    assert r.json["attributes"]["brrag_award"] == {
        "retained_jobs": 100,
        "award_years": 3,
        "yearly_credit_cents": 150_000_00,
        "award_cents": 450_000_00,
        "nj_operations_since": "2004-09-01",
        "operation_years": 10,
        "cannot_use_before_expiry": True,
    }


@pytest.mark.parametrize(
    ("change", "status", "code", "words"),
    [
        ({"retained_jobs": None}, 400, "validation_failed", "retained_jobs"),
        ({"cannot_use_before_expiry": None}, 400, "validation_failed", "BR-2"),
    ],
)
def test_what_the_award_does_not_support_is_refused_and_writes_nothing(
    client: Any, setup: Any, change: dict[str, Any], status: int, code: str, words: str
) -> None:
    engine, auth, holder = setup
    body = brrag_award(450_000_00, award_years=3, retained_jobs=100) | {
        "nj_operations_since": "2004-09-01"
    }
    body = {k: v for k, v in (body | change).items() if v is not None}
    before = events(engine)
    r = _post(client, auth, holder, face_cents=450_000_00, **body)
    assert r.status_code == status, r.json
    assert r.json["error"]["code"] == code and words in r.json["error"]["message"]
    assert events(engine) == before


def test_award_facts_belong_to_brrag_only(client: Any, setup: Any) -> None:
    _, auth, holder = setup
    r = client.post(
        "/api/v1/certificates",
        json={
            "program": "DM_CBT",
            "holder_party_id": holder,
            "face_cents": M,
            "fiscal_year": 2014,
            "retained_jobs": 10,
        },
        headers=auth,
    )
    assert r.status_code == 400 and r.json["error"]["code"] == "validation_failed"
