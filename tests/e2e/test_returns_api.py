"""Credit applications, carryforward expiry, pass-through (RULES 5.4) and recapture
through the HTTP API."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, text

from market.domain.events import upcast
from market.domain.rulesets import A1178
from market.services.certificates.carryforwards import expire_carryforwards
from market.services.kernel.actor import SYSTEM
from market.services.kernel.numbering import new_id
from market.services.kernel.runner import run
from market.services.kernel.uow import UnitOfWork
from market.services.trust import ledger
from tests.helpers import create_party, events, headers_for

DOLLAR = 100


@pytest.fixture
def authority(client: Any, engine: Engine) -> dict[str, str]:
    return headers_for(client, engine, "authority")


def held_certificate(
    engine: Engine,
    holder: str,
    seller: str,
    face: int,
    program: str = "DM_GIT",
    credit_year: int | None = 2013,
    carryover_last_year: int | None = 2020,
    original: bool = False,
    tax_types: tuple[str, ...] = ("CBT", "GIT"),
    attributes: dict[str, Any] | None = None,
) -> str:
    """A certificate as a buyer holds it after an approved transfer (or, with
    `original`, as the seller holds it after issuance), appended as CERT_ISSUED."""
    cert_id = new_id("crt")
    payload = {
        "certificate_id": cert_id,
        "number": f"{program}-2014-{cert_id[-6:]}",
        "program": program,
        "holder_party_id": holder,
        "original_holder_party_id": seller,
        "parent_id": None,
        "root_id": cert_id,
        "origin": "issued" if original else "transfer",
        "is_original": original,
        "face_cents": face,
        "allowed_cents": face,
        "queued_cents": 0,
        "status": "issued",
        "fiscal_year": 2014,
        "tax_types": list(tax_types),
        "tax_periods": [],
        "credit_year": credit_year,
        "carryover_last_year": carryover_last_year,
        "waiver_statement": "",
        "attributes": attributes or {},
        "ruleset": "A1178",
    }

    def append(uow: UnitOfWork) -> None:
        # Written as version 1 was: the upcaster gives the current event.
        uow.append(f"certificate-{cert_id}", upcast("CERT_ISSUED", payload), "test")

    run(engine, append)
    return cert_id


def cert_row(engine: Engine, cert_id: str) -> Any:
    with engine.connect() as conn:
        return conn.execute(
            text("select * from certificates where id = :id"), {"id": cert_id}
        ).one()


def credit(client: Any, h: dict[str, str], cert_id: str, **kw: Any) -> Any:
    body = {
        "certificate_id": cert_id,
        "tax_type": "GIT",
        "tax_year": 2013,
        "liability_cents": 0,
        "amount_cents": 1,
    } | kw
    return client.post("/api/v1/credit-applications", json=body, headers=h)


def partnership(client: Any, h: dict[str, str], shares: dict[str, int], **kw: Any) -> Any:
    entity = create_party(
        client, h, name="Partnership P", entity_type="partnership", tax_types=["GIT"], **kw
    )
    owners = {}
    for name, bps in shares.items():
        owner = create_party(client, h, name=name, entity_type="individual", tax_types=["GIT"])
        r = client.post(
            f"/api/v1/parties/{entity['id']}/owners",
            json={
                "owner_party_id": owner["id"],
                "voting_bps": bps,
                "value_bps": bps,
                "income_share_bps": bps,
            },
            headers=h,
        )
        assert r.status_code == 201, r.json
        owners[name] = owner["id"]
    return entity, owners


def test_example_5_4_partnership_allocation_and_use(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Studio")
    entity, owners = partnership(client, authority, {"A": 5000, "B": 3000, "C": 2000})
    cert = held_certificate(engine, entity["id"], seller["id"], 200_000 * DOLLAR)
    ph = headers_for(client, engine, "participant", entity["id"])
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json={}, headers=ph)
    assert r.status_code == 201, r.json
    got = {a["party_id"]: a["amount_cents"] for a in r.json["allocations"]}
    assert got == {owners["A"]: 10_000_000, owners["B"]: 6_000_000, owners["C"]: 4_000_000}
    assert r.json["certificate_id"] == cert and r.json["basis"] == "income_share"
    entity_cert = cert_row(engine, cert)
    assert entity_cert.balance_cents == 0 and entity_cert.transferred_cents == 20_000_000
    assert entity_cert.status == "exhausted"
    owner_certs = {a["party_id"]: a["certificate_id"] for a in r.json["allocations"]}
    a_cert = cert_row(engine, owner_certs[owners["A"]])
    assert a_cert.parent_id == cert and a_cert.origin == "pass_through"
    assert a_cert.balance_cents == 10_000_000
    suffixes = {cert_row(engine, c).number.rsplit("-", 1)[1] for c in owner_certs.values()}
    assert suffixes == {"P1", "P2", "P3"}

    ah = headers_for(client, engine, "participant", owners["A"])
    # PT-2 from the figures of 5.4: A's category holds P +$500,000 and Q -$100,000; wages
    # $100,000 and interest $10,000: ratio 40/51, Cap40 $31,372.54 (the 50% ceiling binds).
    a_figures = {
        "entity_income_cents": 50_000_000,
        "category_amounts_cents": [50_000_000, -10_000_000],
        "other_categories_net_cents": [10_000_000, 1_000_000],
    }
    r = credit(
        client,
        ah,
        owner_certs[owners["A"]],
        liability_cents=4_000_000,
        amount_cents=10_000_000,
        section_40=a_figures,
    )
    assert r.status_code == 201, r.json
    assert (r.json["applied_cents"], r.json["carried_forward_cents"]) == (2_000_000, 8_000_000)
    assert r.json["limited_by"] == "fifty_percent_ceiling"
    assert r.json["requested_cents"] == 10_000_000
    assert r.json["limits"]["cap40_cents"] == 3_137_254
    # A second use in the same year counts the first against the 50% ceiling.
    again = credit(
        client,
        ah,
        owner_certs[owners["A"]],
        liability_cents=4_000_000,
        amount_cents=100,
        section_40=a_figures,
    )
    assert again.json["applied_cents"] == 0
    assert again.json["limited_by"] == "fifty_percent_ceiling"

    r = credit(
        client,
        authority,
        owner_certs[owners["B"]],
        liability_cents=2_100_000,
        amount_cents=6_000_000,
        section_40={"entity_income_cents": 30_000_000, "category_amounts_cents": [30_000_000]},
    )
    assert (r.json["applied_cents"], r.json["carried_forward_cents"]) == (1_050_000, 4_950_000)
    r = credit(
        client,
        authority,
        owner_certs[owners["C"]],
        liability_cents=8_500_000,
        amount_cents=4_000_000,
        cap40_cents=1_545_454,
    )
    assert r.status_code == 201, r.json
    assert r.json["applied_cents"] == 1_545_454
    assert r.json["carried_forward_cents"] == 2_454_546
    assert r.json["limited_by"] == "section_40_ratio"
    c_cert = cert_row(engine, owner_certs[owners["C"]])
    assert (c_cert.balance_cents, c_cert.applied_cents) == (2_454_546, 1_545_454)
    assert ledger.verify(engine).ok


def test_s_corporation_70_30(client: Any, authority: dict[str, str], engine: Engine) -> None:
    seller = create_party(client, authority, name="Studio")
    entity = create_party(
        client, authority, name="S Co", entity_type="s_corporation", tax_types=["GIT"]
    )
    ids = []
    for bps in (7000, 3000):
        owner = create_party(client, authority, entity_type="individual", tax_types=["GIT"])
        client.post(
            f"/api/v1/parties/{entity['id']}/owners",
            json={
                "owner_party_id": owner["id"],
                "voting_bps": bps,
                "value_bps": bps,
                "income_share_bps": bps,
            },
            headers=authority,
        )
        ids.append(owner["id"])
    cert = held_certificate(engine, entity["id"], seller["id"], 50_000 * DOLLAR)
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json={}, headers=authority)
    assert {a["party_id"]: a["amount_cents"] for a in r.json["allocations"]} == {
        ids[0]: 3_500_000,
        ids[1]: 1_500_000,
    }


def test_no_income_shares_falls_back_to_value_and_is_flagged(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Studio")
    entity = create_party(client, authority, name="LLC", entity_type="llc", tax_types=["GIT"])
    owner = create_party(client, authority, entity_type="individual", tax_types=["GIT"])
    other = create_party(client, authority, entity_type="individual", tax_types=["GIT"])
    for who, bps in ((owner, 6000), (other, 4000)):
        client.post(
            f"/api/v1/parties/{entity['id']}/owners",
            json={"owner_party_id": who["id"], "voting_bps": bps, "value_bps": bps},
            headers=authority,
        )
    cert = held_certificate(engine, entity["id"], seller["id"], 1_000_001)
    r = client.post(
        f"/api/v1/certificates/{cert}/pass-through",
        json={"amount_cents": 1_000_000},
        headers=authority,
    )
    assert r.status_code == 201
    assert r.json["basis"] == "profit_sharing_fallback" and r.json["director_review"] is True
    assert {a["party_id"]: a["amount_cents"] for a in r.json["allocations"]} == {
        owner["id"]: 600_000,
        other["id"]: 400_000,
    }
    assert cert_row(engine, cert).balance_cents == 1


def test_section_40_ratio_for_partner_a_gives_cap40() -> None:
    from market.domain.rules.pass_through import cap40_cents, liability_share_ratio

    ratio = liability_share_ratio(
        500_000 * DOLLAR, [500_000 * DOLLAR, -100_000 * DOLLAR], [100_000 * DOLLAR, 10_000 * DOLLAR]
    )
    assert str(ratio) == "40/51"
    assert cap40_cents(ratio, 40_000 * DOLLAR) == 3_137_254  # $31,372.54


def test_roles_and_input_then_the_fifty_percent_ceiling(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    seller = create_party(client, authority, name="Studio", tax_types=["GIT"])
    buyer = create_party(client, authority, name="Buyer", tax_types=["CBT", "GIT", "IPT"])
    cert = held_certificate(engine, buyer["id"], seller["id"], 100_000)
    bh = headers_for(client, engine, "participant", buyer["id"])
    sh = headers_for(client, engine, "participant", seller["id"])
    auditor = headers_for(client, engine, "auditor")
    before = events(engine)
    assert (
        credit(client, sh, cert, liability_cents=10_000).status_code == 404
    )  # another party's: as if missing
    assert credit(client, auditor, cert, liability_cents=10_000).status_code == 403
    r = credit(client, bh, cert, liability_cents=10_000, amount_cents=1.5)
    assert r.status_code == 400
    r = credit(client, bh, cert, liability_cents=10_000, surprise=True)
    assert r.status_code == 400
    assert events(engine) == before
    r = credit(
        client,
        bh,
        cert,
        tax_type="CBT",
        liability_cents=10_000,
        amount_cents=9_000,
        statutory_minimum_cents=1_000,
    )
    assert r.status_code == 201
    assert r.json["applied_cents"] == 5_000 and r.json["limited_by"] == "fifty_percent_ceiling"


def test_carryforward_window(client: Any, authority: dict[str, str], engine: Engine) -> None:
    seller = create_party(client, authority, name="Studio", tax_types=["GIT"])
    buyer = create_party(client, authority, name="Buyer", tax_types=["GIT"])
    cert = held_certificate(engine, buyer["id"], seller["id"], 100_000, carryover_last_year=None)
    ok = credit(  # PT-2: every GIT use gives its §40 Cap40 (here the liability)
        client,
        authority,
        cert,
        tax_year=2020,
        liability_cents=40_000,
        amount_cents=10_000,
        cap40_cents=40_000,
    )
    assert ok.status_code == 201 and ok.json["applied_cents"] == 10_000
    before = events(engine)
    late = credit(client, authority, cert, tax_year=2021, liability_cents=40_000)
    assert late.status_code == 422 and late.json["error"]["code"] == "carryforward_expired"
    assert late.json["error"]["details"]["carryover_last_year"] == 2020  # 2013 + 7 (DMG-6)
    assert events(engine) == before
    assert run(engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2020)) == []
    done = run(engine, lambda uow: expire_carryforwards(uow, SYSTEM, A1178, 2021))
    assert [e["certificate_id"] for e in done] == [cert]
    row = cert_row(engine, cert)
    assert (row.balance_cents, row.applied_cents, row.expired_cents) == (0, 10_000, 90_000)
    assert row.status == "exhausted"
    assert ledger.verify(engine).ok


def test_recapture_routes_to_its_fund_and_takes_the_balance(
    client: Any, authority: dict[str, str], engine: Engine
) -> None:
    git_seller = create_party(
        client, authority, name="GIT seller", entity_type="llc", tax_types=["GIT"]
    )
    cbt_seller = create_party(client, authority, name="CBT seller")
    cert = held_certificate(
        engine, git_seller["id"], git_seller["id"], 100_000, program="BRRAG", original=True
    )
    body = {
        "party_id": git_seller["id"],
        "certificate_id": cert,
        "amount_cents": 150_000,
        "reason": "jobs not maintained",
    }
    r = client.post("/api/v1/recaptures", json=body, headers=authority)
    assert r.status_code == 201, r.json
    assert r.json["fund"] == "property_tax_relief_fund"
    assert r.json["amount_cents"] == 150_000 and r.json["recaptured_from_balance_cents"] == 100_000
    row = cert_row(engine, cert)
    assert (row.balance_cents, row.recaptured_cents, row.status) == (0, 100_000, "recaptured")
    tech = held_certificate(
        engine,
        cbt_seller["id"],
        cbt_seller["id"],
        100_000,
        program="TECH",
        original=True,
        attributes={"seller_tax_regime": "CBT"},
    )
    r = client.post(
        "/api/v1/recaptures",
        headers=authority,
        json={
            "party_id": cbt_seller["id"],
            "certificate_id": tech,
            "amount_cents": 40_000,
            "reason": "headquarters left New Jersey within 5 years (TB-40)",
        },
    )
    assert r.json["fund"] == "general_fund"
    row = cert_row(engine, tech)
    assert (row.balance_cents, row.recaptured_cents, row.status) == (60_000, 40_000, "issued")
    r = client.post(
        "/api/v1/recaptures",
        headers=authority,
        json={
            "party_id": cbt_seller["id"],
            "amount_cents": 5_000,
            "reason": "x",
            "program": "DM_GIT",
        },
    )
    assert r.json["fund"] == "property_tax_relief_fund" and r.json["certificate_id"] is None
    before = events(engine)
    ph = headers_for(client, engine, "participant", cbt_seller["id"])
    assert client.post("/api/v1/recaptures", json=body, headers=ph).status_code == 403
    r = client.post("/api/v1/recaptures", headers=authority, json=body | {"amount_cents": 0})
    assert r.status_code == 400
    r = client.post(
        "/api/v1/recaptures", headers=authority, json=body | {"party_id": cbt_seller["id"]}
    )
    assert r.status_code == 422
    assert events(engine) == before
    assert ledger.verify(engine).ok
