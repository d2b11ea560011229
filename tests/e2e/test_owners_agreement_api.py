"""UTH-14 / AMB-17: a partnership's owners' agreement filed with the Director sets its
owners' shares of a UTH credit; income share otherwise, and for every other program."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import Engine, select

from market.adapters.tables import EventRow
from market.domain.rulesets import A1178
from market.services.certificates import pass_through_allocations
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.trust import ledger
from tests.e2e.test_returns_api import cert_row, held_certificate, partnership
from tests.helpers import create_party, events, headers_for, replay_equals_live_and_verifies

DOLLAR = 100
events_t = EventRow.__table__  # type: ignore[attr-defined]


@pytest.fixture
def authority(client: Any, engine: Engine) -> dict[str, str]:
    return headers_for(client, engine, "authority")


def file_agreement(
    client: Any,
    h: dict[str, str],
    party_id: str,
    shares: dict[str, int],
    filed_on: str = "2014-01-15",
    **kw: Any,
) -> Any:
    body = {
        "shares": [{"owner_party_id": o, "share_bps": bps} for o, bps in shares.items()],
        "filed_on": filed_on,
    } | kw
    return client.post(f"/api/v1/parties/{party_id}/owners-agreement", json=body, headers=h)


def payloads(engine: Engine, event_type: str) -> list[dict[str, Any]]:
    with engine.connect() as conn:
        rows = conn.execute(
            select(events_t.c.payload).where(events_t.c.type == event_type).order_by(events_t.c.seq)
        )
        return [dict(r.payload) for r in rows]


def allocate(client: Any, h: dict[str, str], cert: str, **body: Any) -> Any:
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json=body, headers=h)
    assert r.status_code == 201, r.json
    return r.json


def split(result: dict[str, Any]) -> dict[str, int]:
    return {a["party_id"]: a["amount_cents"] for a in result["allocations"]}


def test_a_uth_partnership_credit_goes_by_the_filed_agreement(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Urban Tenant", tax_types=["CBT"])
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    r = file_agreement(
        client, authority, entity["id"], {owners["A"]: 7000, owners["B"]: 3000}, reference="D-17"
    )
    assert r.status_code == 201, r.json
    agreement = r.json
    assert agreement["filed_on"] == "2014-01-15" and agreement["reference"] == "D-17"
    assert agreement["replaces_agreement_id"] is None
    assert agreement["shares"] == sorted(
        [
            {"owner_party_id": owners["A"], "share_bps": 7000},
            {"owner_party_id": owners["B"], "share_bps": 3000},
        ],
        key=lambda s: str(s["owner_party_id"]),
    )
    got = client.get(f"/api/v1/parties/{entity['id']}", headers=authority).json
    assert got["owners_agreement"]["agreement_id"] == agreement["agreement_id"]
    assert got["owners_agreement"]["shares"] == agreement["shares"]
    # $200,000.01: 70% is 14,000,000.7 cents and 30% is 6,000,000.3; the leftover cent
    # goes to the largest remainder (A), as by income share.
    cert = held_certificate(
        engine,
        entity["id"],
        seller["id"],
        20_000_001,
        program="UTH",
        credit_year=None,
        carryover_last_year=None,
        tax_types=("CBT", "GIT", "IPT"),
    )
    ph = headers_for(client, engine, "participant", entity["id"])
    result = allocate(client, ph, cert)
    assert split(result) == {owners["A"]: 14_000_001, owners["B"]: 6_000_000}
    assert sum(split(result).values()) == 20_000_001
    assert result["basis"] == "owners_agreement" and result["director_review"] is False
    assert result["owners_agreement"]["filed_on"] == "2014-01-15"
    assert result["owners_agreement"]["reference"] == "D-17"
    (payload,) = payloads(engine, "PASS_THROUGH_ALLOCATED")
    assert payload["basis"] == "owners_agreement"
    assert payload["owners_agreement"]["agreement_id"] == agreement["agreement_id"]
    assert payload["owners_agreement"]["reference"] == "D-17"
    assert payload["uth_partnership_basis"] == "owners_agreement_if_filed"
    a_cert = {a["party_id"]: a["certificate_id"] for a in result["allocations"]}[owners["A"]]
    attrs = cert_row(engine, a_cert).attributes
    if isinstance(attrs, str):  # a text() select returns SQLite's JSON as text
        attrs = json.loads(attrs)
    assert attrs["pass_through_basis"] == "owners_agreement"
    assert attrs["agreement_share_bps"] == 7000 and attrs["income_share_bps"] == 5000
    assert cert_row(engine, cert).balance_cents == 0
    replay_equals_live_and_verifies(engine)


def test_without_an_agreement_a_uth_credit_goes_by_income_share(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Urban Tenant")
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    got = client.get(f"/api/v1/parties/{entity['id']}", headers=authority).json
    assert got["owners_agreement"] is None
    cert = held_certificate(engine, entity["id"], seller["id"], 200_000 * DOLLAR, program="UTH")
    result = allocate(client, authority, cert)
    assert split(result) == {
        owners["A"]: 10_000_000,
        owners["B"]: 6_000_000,
        owners["C"]: 4_000_000,
    }
    assert result["basis"] == "income_share" and result["owners_agreement"] is None
    assert payloads(engine, "PASS_THROUGH_ALLOCATED")[0]["basis"] == "income_share"
    replay_equals_live_and_verifies(engine)


def test_a_non_uth_credit_ignores_the_agreement(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Relocating Co")
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    r = file_agreement(client, authority, entity["id"], {owners["A"]: 7000, owners["B"]: 3000})
    assert r.status_code == 201, r.json
    for program in ("BRRAG", "DM_GIT"):
        cert = held_certificate(engine, entity["id"], seller["id"], 1_000_000, program=program)
        result = allocate(client, authority, cert)
        assert split(result) == {owners["A"]: 500_000, owners["B"]: 300_000, owners["C"]: 200_000}
        assert result["basis"] == "income_share" and result["owners_agreement"] is None
    replay_equals_live_and_verifies(engine)


def test_a_later_agreement_replaces_the_earlier(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Urban Tenant")
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    first = file_agreement(client, authority, entity["id"], {owners["A"]: 7000, owners["B"]: 3000})
    assert first.status_code == 201, first.json
    second = file_agreement(
        client,
        authority,
        entity["id"],
        {owners["B"]: 2500, owners["C"]: 7500},
        filed_on="2014-06-30",
        reference="D-18",
    )
    assert second.status_code == 201, second.json
    assert second.json["replaces_agreement_id"] == first.json["agreement_id"]
    # An agreement dated before the one in force is not the latest filed: refused.
    before = events(engine)
    late = file_agreement(client, authority, entity["id"], {owners["A"]: 10_000}, "2014-03-01")
    assert late.status_code == 409 and late.json["error"]["code"] == "agreement_out_of_order"
    assert events(engine) == before
    got = client.get(f"/api/v1/parties/{entity['id']}", headers=authority).json
    assert got["owners_agreement"]["agreement_id"] == second.json["agreement_id"]
    assert got["owners_agreement"]["reference"] == "D-18"
    filed = payloads(engine, "OWNERS_AGREEMENT_FILED")
    assert [p["agreement_id"] for p in filed] == [
        first.json["agreement_id"],
        second.json["agreement_id"],
    ]  # both filings stay in the ledger
    cert = held_certificate(engine, entity["id"], seller["id"], 1_000_000, program="UTH")
    result = allocate(client, authority, cert)
    assert split(result) == {owners["B"]: 250_000, owners["C"]: 750_000}
    assert result["owners_agreement"]["agreement_id"] == second.json["agreement_id"]
    assert result["owners_agreement"]["filed_on"] == "2014-06-30"
    replay_equals_live_and_verifies(engine)


def test_the_income_share_reading_ignores_the_agreement(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Urban Tenant")
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    r = file_agreement(client, authority, entity["id"], {owners["A"]: 7000, owners["B"]: 3000})
    assert r.status_code == 201, r.json
    cert = held_certificate(engine, entity["id"], seller["id"], 1_000_000, program="UTH")
    rules = replace(A1178, name="A1178-AMB17-income", uth_partnership_basis="income_share")
    result = run(
        engine,
        lambda uow: pass_through_allocations.pass_through_allocate(uow, SYSTEM, cert, None, rules),
    )
    assert split(result) == {owners["A"]: 500_000, owners["B"]: 300_000, owners["C"]: 200_000}
    assert result["basis"] == "income_share" and result["owners_agreement"] is None
    (payload,) = payloads(engine, "PASS_THROUGH_ALLOCATED")
    assert payload["uth_partnership_basis"] == "income_share"
    assert payload["ruleset"] == "A1178-AMB17-income"
    replay_equals_live_and_verifies(engine)


def test_an_llc_files_an_agreement_like_a_partnership(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Urban Tenant")
    entity = create_party(client, authority, name="LLC", entity_type="llc", tax_types=["GIT"])
    owners = {}
    for name in ("A", "B"):
        owner = create_party(client, authority, name=name, entity_type="individual")
        r = client.post(
            f"/api/v1/parties/{entity['id']}/owners",
            json={
                "owner_party_id": owner["id"],
                "voting_bps": 5000,
                "value_bps": 5000,
                "income_share_bps": 5000,
            },
            headers=authority,
        )
        assert r.status_code == 201, r.json
        owners[name] = owner["id"]
    r = file_agreement(client, authority, entity["id"], {owners["A"]: 9000, owners["B"]: 1000})
    assert r.status_code == 201, r.json
    cert = held_certificate(engine, entity["id"], seller["id"], 1_000, program="UTH")
    assert split(allocate(client, authority, cert)) == {owners["A"]: 900, owners["B"]: 100}


def test_bad_agreements_write_nothing(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    a, b = owners["A"], owners["B"]
    # A stranger named as an owner, an S corporation filing one (not_a_recorded_owner,
    # not_a_partnership): tests/unit/services/parties/test_owners_agreement.py.
    ph = headers_for(client, engine, "participant", entity["id"])
    auditor = headers_for(client, engine, "auditor")
    pid = entity["id"]
    before = events(engine)
    cases: list[tuple[Any, int, str]] = [
        (file_agreement(client, authority, pid, {a: 7000, b: 2000}), 422, "invalid_request"),
        (file_agreement(client, authority, pid, {a: 7000, b: 3001}), 422, "invalid_request"),
        (file_agreement(client, authority, pid, {a: 10_000, b: 0}), 422, "invalid_request"),
        (file_agreement(client, authority, pid, {a: 11_000, b: -1000}), 422, "invalid_request"),
        (file_agreement(client, authority, pid, {"pty_nobody": 10_000}), 404, "not_found"),
        (file_agreement(client, authority, pid, {a: 5000, pid: 5000}), 422, "invalid_request"),
        (
            client.post(
                f"/api/v1/parties/{pid}/owners-agreement",
                json={
                    "shares": [
                        {"owner_party_id": a, "share_bps": 5000},
                        {"owner_party_id": a, "share_bps": 5000},
                    ],
                    "filed_on": "2014-01-15",
                },
                headers=authority,
            ),
            422,
            "invalid_request",
        ),
        (file_agreement(client, authority, "pty_nobody", {a: 10_000}), 404, "not_found"),
        (file_agreement(client, ph, pid, {a: 7000, b: 3000}), 403, "forbidden"),
        (file_agreement(client, auditor, pid, {a: 7000, b: 3000}), 403, "forbidden"),
        (file_agreement(client, authority, pid, {}), 400, "validation_failed"),
        (
            file_agreement(client, authority, pid, {a: 10_000}, filed_on="soon"),
            400,
            "validation_failed",
        ),
        (
            client.post(
                f"/api/v1/parties/{pid}/owners-agreement",
                json={"shares": [{"owner_party_id": a, "share_bps": "10000"}], "filed_on": "x"},
                headers=authority,
            ),
            400,
            "validation_failed",
        ),
    ]
    for i, (r, status, code) in enumerate(cases):
        assert r.status_code == status, (i, r.json)
        assert "error" in r.json and "code" in r.json["error"], (i, r.json)
        if code:
            assert r.json["error"]["code"] == code, (i, r.json)
    assert events(engine) == before
    got = client.get(f"/api/v1/parties/{pid}", headers=authority).json
    assert got["owners_agreement"] is None
    assert ledger.verify(engine).ok
