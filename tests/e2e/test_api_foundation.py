"""The API shell: tokens, roles, the error shape, bad input and idempotency."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import create_party, events, headers_for, party_body


@pytest.fixture
def eda(client: Any, app: Any) -> dict[str, str]:
    return headers_for(client, app.extensions["market.engine"], "authority")


def test_a_token_is_issued_for_the_right_password_only(client: Any, app: Any) -> None:
    headers_for(client, app.extensions["market.engine"], "auditor")
    r = client.post("/api/v1/auth/token", json={"email": "nobody@x.org", "password": "whatever!"})
    assert r.status_code == 401
    assert r.json["error"]["code"] == "unauthorized"


def test_a_revoked_token_no_longer_works(client: Any, eda: dict[str, str]) -> None:
    assert client.get("/api/v1/parties", headers=eda).status_code == 200
    assert client.post("/api/v1/auth/revoke", headers=eda).status_code == 200
    r = client.get("/api/v1/parties", headers=eda)
    assert r.status_code == 401
    assert "revoked" in r.json["error"]["message"]


@pytest.mark.parametrize("header", [None, "Bearer", "Bearer nope", "Basic abc"])
def test_missing_or_bad_tokens_are_401(client: Any, header: str | None) -> None:
    headers = {"Authorization": header} if header else {}
    r = client.get("/api/v1/parties", headers=headers)
    assert r.status_code == 401
    assert set(r.json["error"]) == {"code", "message", "details"}


def test_only_the_authority_registers_parties(client: Any, app: Any, eda: dict[str, str]) -> None:
    engine = app.extensions["market.engine"]
    party = create_party(client, eda)
    seller = headers_for(client, engine, "participant", party["id"])
    auditor = headers_for(client, engine, "auditor")
    for who in (seller, auditor):
        r = client.post("/api/v1/parties", json=party_body(), headers=who)
        assert r.status_code == 403
        assert r.json["error"]["code"] == "forbidden"
    assert events(engine) == 1


def test_a_participant_reads_only_its_own_party(client: Any, app: Any, eda: dict[str, str]) -> None:
    engine = app.extensions["market.engine"]
    mine, other = create_party(client, eda), create_party(client, eda)
    me = headers_for(client, engine, "participant", mine["id"])
    assert client.get(f"/api/v1/parties/{mine['id']}", headers=me).status_code == 200
    # Another party answers as a missing one would (no existence oracle; was 403).
    assert client.get(f"/api/v1/parties/{other['id']}", headers=me).status_code == 404
    listed = client.get("/api/v1/parties", headers=me).json["items"]
    assert [p["id"] for p in listed] == [mine["id"]]


def test_parties_are_paged_with_a_cursor(client: Any, eda: dict[str, str]) -> None:
    ids = sorted(create_party(client, eda)["id"] for _ in range(5))
    seen, cursor = [], None
    while True:
        url = "/api/v1/parties?limit=2" + (f"&after={cursor}" if cursor else "")
        page = client.get(url, headers=eda).json
        seen += [p["id"] for p in page["items"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == ids


BAD_PARTIES = [
    ("not json", "{name:", "malformed_json"),
    ("missing field", {"name": "X", "entity_type": "llc", "tax_types": []}, "validation_failed"),
    ("unknown field", party_body(colour="blue"), "validation_failed"),
    ("wrong type", party_body(tax_types="CBT"), "validation_failed"),
    ("unknown enum", party_body(entity_type="trust"), "validation_failed"),
    ("unknown tax type", party_body(tax_types=["VAT"]), "validation_failed"),
    ("float for integer", party_body(us_employees=12.5), "validation_failed"),
    ("integer as string", party_body(us_employees="12"), "validation_failed"),
    ("negative number", party_body(nj_full_time_employees=-1), "validation_failed"),
    ("absurd number", party_body(us_employees=10**30), "validation_failed"),
    ("over-long string", party_body(name="x" * 201), "validation_failed"),
    ("empty string", party_body(name=""), "validation_failed"),
    ("bad date", party_body(formed_on="2012-02-30"), "validation_failed"),
]


@pytest.mark.parametrize(("case", "body", "code"), BAD_PARTIES, ids=[c[0] for c in BAD_PARTIES])
def test_bad_input_is_refused_clearly_and_writes_nothing(
    client: Any, app: Any, eda: dict[str, str], case: str, body: Any, code: str
) -> None:
    engine = app.extensions["market.engine"]
    before = events(engine)
    if isinstance(body, str):
        r = client.post("/api/v1/parties", data=body, content_type="application/json", headers=eda)
    else:
        r = client.post("/api/v1/parties", json=body, headers=eda)
    assert r.status_code == 400, case
    assert r.json["error"]["code"] == code
    assert r.json["error"]["message"].endswith(".")
    assert events(engine) == before


def test_ownership_rules_are_enforced(client: Any, app: Any, eda: dict[str, str]) -> None:
    engine = app.extensions["market.engine"]
    a, b, c = (create_party(client, eda)["id"] for _ in range(3))
    url = f"/api/v1/parties/{b}/owners"
    ok = client.post(
        url, json={"owner_party_id": a, "voting_bps": 6000, "value_bps": 6000}, headers=eda
    )
    assert ok.status_code == 201
    before = events(engine)
    over = client.post(
        url, json={"owner_party_id": c, "voting_bps": 4001, "value_bps": 0}, headers=eda
    )
    assert over.status_code == 422 and over.json["error"]["code"] == "invalid_request"
    assert "10000" in over.json["error"]["message"]
    itself = client.post(
        url, json={"owner_party_id": b, "voting_bps": 1, "value_bps": 1}, headers=eda
    )
    assert itself.status_code == 422
    too_big = client.post(
        url, json={"owner_party_id": c, "voting_bps": 10001, "value_bps": 0}, headers=eda
    )
    assert too_big.status_code == 400
    unknown = client.post(
        url, json={"owner_party_id": "pty_nope", "voting_bps": 1, "value_bps": 1}, headers=eda
    )
    assert unknown.status_code == 404
    assert events(engine) == before


def test_affiliation_answers_with_the_deciding_paths(client: Any, eda: dict[str, str]) -> None:
    parent, seller, buyer = (create_party(client, eda)["id"] for _ in range(3))
    for owned, bps in ((seller, 5000), (buyer, 500)):
        client.post(
            f"/api/v1/parties/{owned}/owners",
            json={"owner_party_id": parent, "voting_bps": bps, "value_bps": 0},
            headers=eda,
        )
    r = client.get(f"/api/v1/parties/{seller}/affiliation/{buyer}", headers=eda)
    assert r.status_code == 200
    assert r.json["affiliated"] is True
    assert any(parent in str(p) for p in r.json["paths"])
    assert r.json["reasons"]


def test_the_same_idempotency_key_returns_the_first_response(
    client: Any, app: Any, eda: dict[str, str]
) -> None:
    engine = app.extensions["market.engine"]
    body = party_body()
    first = client.post("/api/v1/parties", json=body, headers=eda | {"Idempotency-Key": "k-1"})
    again = [
        client.post("/api/v1/parties", json=body, headers=eda | {"Idempotency-Key": "k-1"})
        for _ in range(3)
    ]
    assert first.status_code == 201
    assert all(r.status_code == 201 and r.json == first.json for r in again)
    assert events(engine) == 1
    other = client.post(
        "/api/v1/parties", json=party_body(), headers=eda | {"Idempotency-Key": "k-1"}
    )
    assert other.status_code == 409
    assert other.json["error"]["code"] == "idempotency_key_reused"
    assert events(engine) == 1


def test_a_refused_request_retried_with_its_key_is_refused_the_same_way(
    client: Any, app: Any, eda: dict[str, str]
) -> None:
    engine = app.extensions["market.engine"]
    body = party_body()
    create_party(client, eda, tax_id=body["tax_id"])
    answers = [
        client.post("/api/v1/parties", json=body, headers=eda | {"Idempotency-Key": "r"})
        for _ in range(2)
    ]
    assert [a.status_code for a in answers] == [409, 409]
    assert answers[0].json == answers[1].json
    assert events(engine) == 1


@pytest.mark.parametrize(
    ("method", "path", "status", "code"),
    [
        ("get", "/api/v1/nowhere", 404, "not_found"),
        ("delete", "/api/v1/parties", 405, "method_not_allowed"),
        ("get", "/api/v1/parties/pty_missing", 404, "not_found"),
    ],
)
def test_every_api_error_has_the_same_shape(
    client: Any, eda: dict[str, str], method: str, path: str, status: int, code: str
) -> None:
    r = getattr(client, method)(path, headers=eda)
    assert r.status_code == status
    assert r.json["error"]["code"] == code
    assert isinstance(r.json["error"]["details"], dict)


def test_an_unexpected_failure_is_a_500_with_the_error_shape(
    client: Any, app: Any, eda: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from market.services.parties import parties

    def boom(*_: Any, **__: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(parties, "list_parties", boom)
    app.config["PROPAGATE_EXCEPTIONS"] = False
    r = client.get("/api/v1/parties", headers=eda)
    assert r.status_code == 500
    assert r.json["error"]["code"] == "internal_error"
    assert "disk" not in r.json["error"]["message"]


def test_events_are_paged_for_authority_and_auditor_only(
    client: Any, app: Any, eda: dict[str, str]
) -> None:
    engine = app.extensions["market.engine"]
    party = create_party(client, eda)
    create_party(client, eda)
    page = client.get("/api/v1/events?after=0&limit=1", headers=eda).json
    assert [e["seq"] for e in page["items"]] == [1] and page["next"] == 1
    rest = client.get("/api/v1/events?after=1", headers=eda).json
    assert [e["seq"] for e in rest["items"]] == [2] and rest["next"] is None
    assert set(rest["items"][0]) >= {
        "seq",
        "type",
        "stream",
        "payload",
        "actor",
        "recorded_at",
        "prev_hash",
        "hash",
    }
    seller = headers_for(client, engine, "participant", party["id"])
    assert client.get("/api/v1/events", headers=seller).status_code == 403
    auditor = headers_for(client, engine, "auditor")
    v = client.get("/api/v1/ledger/verify", headers=auditor).json
    assert v["ok"] is True and v["events"] == 2 and v["first_bad_seq"] is None
    assert len(v["head_hash"]) == 64


def test_the_openapi_document_and_vendored_swagger_ui_are_served(client: Any) -> None:
    spec = client.get("/api/v1/openapi.json")
    assert spec.status_code == 200
    assert "/api/v1/parties/{party_id}/owners" in spec.json["paths"]
    docs = client.get("/api/v1/docs")
    assert docs.status_code == 200
    assert b"/static/swagger-ui/swagger-ui-bundle.js" in docs.data
    assert b"cdn" not in docs.data.lower()
    bundle = client.get("/static/swagger-ui/swagger-ui-bundle.js")
    assert bundle.status_code == 200 and len(bundle.data) > 100_000
    bundle.close()
