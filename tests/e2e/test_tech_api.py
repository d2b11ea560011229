"""TECH through the HTTP API: applications (TB-1..TB-10), the allocation preview and
its one commit (TB-11..TB-15), with the RULES.md figures (N-1, N-2, T-1, T-4)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import Engine, text

from market.domain.rulesets import A1178
from market.services.trust import ledger
from tests.helpers import create_party, events, headers_for

DOLLAR = 100


@pytest.fixture
def authority(client: Any, engine: Engine) -> dict[str, str]:
    return headers_for(client, engine, "authority")


def seller(client: Any, h: dict[str, str], name: str = "Seller", **kw: Any) -> dict[str, Any]:
    facts = {
        "us_employees": 40,
        "nj_full_time_employees": 12,
        "formed_on": "2006-03-01",
        "operating_income_cents_by_year": {"2010": -500_000, "2011": -100_000},
    }
    return create_party(client, h, name=name, **(facts | kw))


def apply(client: Any, h: dict[str, str], party_id: str, **kw: Any) -> Any:
    body: dict[str, Any] = {
        "party_id": party_id,
        "received_on": "2013-03-15",
        "receipt_reason": "Paper filing received by mail",
        "nol_cents": 0,
        "allocation_factor": "1",
        "seller_tax_regime": "CBT",
        "rnd_credit_cents": 100_000 * DOLLAR,
        "in_innovation_zone": False,
    }
    body.update(kw)
    sent = {k: v for k, v in body.items() if v is not None}  # None: leave the field out
    return client.post("/api/v1/tech/applications", json=sent, headers=h)


def test_example_n1_cbt_seller_benefit_is_217400(client: Any, authority: dict[str, str]) -> None:
    p = seller(client, authority)
    r = apply(
        client,
        authority,
        p["id"],
        nol_cents=3_000_000 * DOLLAR,
        allocation_factor="0.62",
        rnd_credit_cents=50_000 * DOLLAR,
    )
    assert r.status_code == 201, r.json
    body = r.json
    assert body["benefit_cents"] == 21_740_000
    assert body["requested_cents"] == 21_740_000
    assert body["fiscal_year"] == 2013
    assert body["eligible"] is True and body["reasons"] == []
    assert body["allocated_cents"] is None
    assert set(body) >= {"id", "party_id", "received_on", "benefit_cents", "requested_cents"}


def test_example_n2_git_seller_and_the_exact_factor(client: Any, authority: dict[str, str]) -> None:
    p = seller(client, authority, entity_type="llc", tax_types=["GIT"])
    r = apply(
        client,
        authority,
        p["id"],
        nol_cents=1_250_000 * DOLLAR,
        allocation_factor="1.000000",
        seller_tax_regime="GIT",
        rnd_credit_cents=0,
        tax_year=2012,
    )
    assert r.status_code == 201, r.json
    assert r.json["benefit_cents"] == 11_212_500
    r = apply(
        client,
        authority,
        p["id"],
        nol_cents=8_400_000 * DOLLAR,
        allocation_factor="0.437512",
        rnd_credit_cents=0,
    )
    assert r.status_code == 201, r.json
    assert r.json["benefit_cents"] == 33_075_907  # 330,759.072 -> $330,759.07


def test_fiscal_year_follows_receipt(client: Any, authority: dict[str, str]) -> None:
    p = seller(client, authority)
    r = apply(client, authority, p["id"], received_on="2013-07-01")
    assert r.status_code == 201 and r.json["fiscal_year"] == 2014
    # Asking for the closed FY 2013 (application_deadline_passed): tests/unit/services/tech.


def events_count(client: Any) -> int:
    return ledger.count_events(client.application.extensions["market.engine"])


def test_ineligible_seller_is_recorded_with_reasons_and_left_out(
    client: Any, authority: dict[str, str]
) -> None:
    big = seller(client, authority, name="Big", us_employees=300)
    ok = seller(client, authority, name="Ok")
    r = apply(client, authority, big["id"], parent_positive_noi=True)
    assert r.status_code == 201
    assert r.json["eligible"] is False
    assert r.json["reasons"][0] == "ineligible_seller"
    assert {"too_many_us_employees", "profitable_parent"} <= set(r.json["reasons"])
    assert apply(client, authority, ok["id"]).json["eligible"] is True
    prev = client.post("/api/v1/tech/allocations/2013/preview", headers=authority).json
    assert [a["party_id"] for a in prev["allocations"]] == [ok["id"]]
    assert client.post("/api/v1/tech/allocations/2013", headers=authority).status_code == 201
    again = client.get(f"/api/v1/tech/applications/{r.json['id']}", headers=authority).json
    assert again["allocated_cents"] == 0 and again["certificate_id"] is None


def test_lifetime_cap_clips_the_request(client: Any, authority: dict[str, str]) -> None:
    p = seller(client, authority)
    r = apply(client, authority, p["id"], rnd_credit_cents=16_000_000 * DOLLAR)
    assert r.json["benefit_cents"] == 1_600_000_000
    assert r.json["requested_cents"] == 1_500_000_000  # TB-5: $15M lifetime room
    assert client.post("/api/v1/tech/allocations/2013", headers=authority).status_code == 201
    # With no room left, the next is refused (lifetime_cap_exceeded): tests/unit/services.


T1 = [
    ("Z1", 150_000, True),
    ("Z2", 2_000_000, True),
    ("Z3", 3_000_000, True),
    ("N1", 200_000, False),
    ("N2", 100_000, False),
    ("N3", 10_000_000, False),
    ("N4", 20_000_000, False),
    ("N5", 30_000_000, False),
    ("N6", 5_250_000, False),
]
T1_FINAL = {
    "Z1": 15_000_000,
    "Z2": 200_000_000,
    "Z3": 300_000_000,
    "N1": 20_000_000,
    "N2": 10_000_000,
    "N3": 837_626_459,
    "N4": 1_671_089_494,
    "N5": 2_504_552_529,
    "N6": 441_731_518,
}


def test_example_t1_oversubscribed_year_through_the_api(
    client: Any, authority: dict[str, str], engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # T-1's $20M and $30M requests are already lifetime-capped inputs in RULES.md; lift the
    # $15M lifetime cap so they reach the allocation unchanged (C, Z and F stay A1178's).
    monkeypatch.setattr(
        "market.api.tech.ruleset", lambda: replace(A1178, tech_lifetime_cap_cents=10**12)
    )
    ids: dict[str, str] = {}
    parties: dict[str, str] = {}
    for day, (name, dollars, zone) in enumerate(T1, start=1):
        p = seller(client, authority, name=name)
        r = apply(
            client,
            authority,
            p["id"],
            rnd_credit_cents=dollars * DOLLAR,
            in_innovation_zone=zone,
            received_on=f"2013-04-{day:02d}",
        )
        assert r.status_code == 201, r.json
        ids[name], parties[name] = r.json["id"], p["id"]
    before = events_count(client)
    prev = client.post("/api/v1/tech/allocations/2013/preview", headers=authority)
    assert prev.status_code == 200
    assert events_count(client) == before
    assert prev.json["triggered"] is True and prev.json["total_cents"] == 6_000_000_000
    by_app = {a["application_id"]: a for a in prev.json["allocations"]}
    assert {n: by_app[ids[n]]["allocated_cents"] for n in ids} == T1_FINAL
    assert all(a["certificate_id"] is None for a in prev.json["allocations"])

    r = client.post("/api/v1/tech/allocations/2013", headers=authority)
    assert r.status_code == 201, r.json
    committed = {a["application_id"]: a for a in r.json["allocations"]}
    assert {n: committed[ids[n]]["allocated_cents"] for n in ids} == T1_FINAL
    with engine.connect() as conn:
        certs = {
            row.holder_party_id: row
            for row in conn.execute(text("select * from certificates where program = 'TECH'"))
        }
        caps = dict(conn.execute(text("select id, used_cents from cap_usage")).all())
        cap_rows = dict(conn.execute(text("select id, cap_cents from cap_usage")).all())
    assert len(certs) == 9
    for name, pid in parties.items():
        cert = certs[pid]
        assert cert.face_cents == cert.balance_cents == T1_FINAL[name]
        assert cert.origin == "allocation" and cert.is_original
        assert committed[ids[name]]["certificate_id"] == cert.id
        assert cert.number.startswith("TECH-2013-")
    assert caps["TECH:2013"] == 6_000_000_000 and cap_rows["TECH:2013"] == 6_000_000_000
    assert caps["TECH_ZONE_SET_ASIDE:2013"] == 515_000_000
    app = client.get(f"/api/v1/tech/applications/{ids['N6']}", headers=authority).json
    assert app["allocated_cents"] == 441_731_518
    second = client.post("/api/v1/tech/allocations/2013", headers=authority)
    assert second.status_code == 409 and second.json["error"]["code"] == "conflict"
    assert ledger.verify(engine).ok


def test_example_t4_exactly_the_cap_is_not_triggered(
    client: Any, authority: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        "market.api.tech.ruleset", lambda: replace(A1178, tech_lifetime_cap_cents=10**12)
    )
    wanted = {
        "Z1": (3_000_000, True),
        "N1": (250_000, False),
        "N2": (30_000_000, False),
        "N3": (26_750_000, False),
    }
    for name, (dollars, zone) in wanted.items():
        p = seller(client, authority, name=name)
        assert (
            apply(
                client,
                authority,
                p["id"],
                rnd_credit_cents=dollars * DOLLAR,
                in_innovation_zone=zone,
            ).status_code
            == 201
        )
    r = client.post("/api/v1/tech/allocations/2013", headers=authority)
    assert r.status_code == 201
    assert r.json["triggered"] is False and r.json["total_cents"] == 6_000_000_000
    assert sorted(a["allocated_cents"] for a in r.json["allocations"]) == sorted(
        d * DOLLAR for d, _ in wanted.values()
    )


def test_roles_and_parties(client: Any, authority: dict[str, str], engine: Engine) -> None:
    mine = seller(client, authority, name="Mine")
    other = seller(client, authority, name="Other")
    me = headers_for(client, engine, "participant", mine["id"])
    auditor = headers_for(client, engine, "auditor")
    r = apply(client, me, mine["id"], received_on=None, receipt_reason=None)  # stamped
    assert r.status_code == 201, r.json
    theirs = apply(client, authority, other["id"]).json
    before = events(engine)
    assert apply(client, me, other["id"], received_on=None, receipt_reason=None).status_code == 404
    assert apply(client, auditor, mine["id"]).status_code == 403
    assert client.get(f"/api/v1/tech/applications/{theirs['id']}", headers=me).status_code == 404
    assert client.get(f"/api/v1/tech/applications/{r.json['id']}", headers=me).status_code == 200
    listed = client.get("/api/v1/tech/applications", headers=me).json["items"]
    assert [a["id"] for a in listed] == [r.json["id"]]
    for path in ("/api/v1/tech/allocations/2013/preview", "/api/v1/tech/allocations/2013"):
        assert client.post(path, headers=me).status_code == 403
        assert client.post(path, headers=auditor).status_code == 403
    assert events(engine) == before


@pytest.mark.parametrize(
    "change",
    [
        {"allocation_factor": 0.62},
        {"allocation_factor": "1.5"},
        {"nol_cents": 10.5},
        {"seller_tax_regime": "IPT"},
        {"unknown": 1},
        {"party_id": "pty_missing"},
    ],
)
def test_bad_input_writes_nothing(
    client: Any, authority: dict[str, str], engine: Engine, change: dict[str, Any]
) -> None:
    p = seller(client, authority)
    before = events(engine)
    body = {"party_id": p["id"], "nol_cents": 100} | change
    r = apply(client, authority, **body)
    assert r.status_code in (400, 404, 422), r.json
    assert "error" in r.json
    assert events(engine) == before


def test_commit_with_no_eligible_application_is_refused(
    client: Any, authority: dict[str, str]
) -> None:
    r = client.post("/api/v1/tech/allocations/2013", headers=authority)
    assert r.status_code == 422
    assert client.get("/api/v1/tech/allocations/2013", headers=authority).status_code == 404
