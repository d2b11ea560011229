"""A TECH application's case file over the API (RULES.md section 7), on SQLite and
PostgreSQL: where the ADM rules are in force (a 2025 business date) every step is gated
by its exhibits, fees and tax clearance; in the bill's own era (the suite's 2014) the old
flow runs as before and the new steps only keep their order."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from tests.e2e.test_casefile_documents_api import upload
from tests.helpers import create_party, events, headers_for
from tests.unit.services.casefiles.test_media_types import PDF

pytestmark = pytest.mark.storage

DOLLAR = 100
SUBMISSION = [
    "business_description",
    "business_plan",
    "financial_statements_year_1",
    "financial_statements_year_2",
    "affiliates_list",
]
FORWARD = [
    "buying_business_information_sheet",
    "tax_benefit_identification_form",
    "private_financial_assistance_form",
    "executed_selling_agreement",
]


def seller_and_application(
    client: Any,
    engine: Engine,
    authority: dict[str, str],
    received_on: str,
    name: str = "Case File Bio",
) -> tuple[dict[str, Any], dict[str, str], dict[str, Any]]:
    year = int(received_on[:4])
    party = create_party(
        client,
        authority,
        name=name,
        us_employees=40,
        nj_full_time_employees=12,
        formed_on="2006-03-01",
        operating_income_cents_by_year={str(year - 2): -500_000, str(year - 1): -100_000},
    )
    seller = headers_for(client, engine, "participant", party["id"])
    r = client.post(
        "/api/v1/tech/applications",
        json={
            "party_id": party["id"],
            "received_on": received_on,
            "receipt_reason": "Paper filing received by mail",
            "nol_cents": 0,
            "allocation_factor": "1",
            "seller_tax_regime": "CBT",
            "rnd_credit_cents": 5_000_000 * DOLLAR,
            "in_innovation_zone": False,
        },
        headers=authority,
    )
    assert r.status_code == 201, r.json
    return party, seller, r.json


def step(client: Any, h: dict[str, str], app_id: str, name: str, body: Any = None) -> Any:
    return client.post(f"/api/v1/tech/applications/{app_id}/{name}", json=body or {}, headers=h)


def refused(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.json
    assert r.json["error"]["code"] == code, r.json
    return r.json["error"]["details"]  # type: ignore[no-any-return]


def test_the_whole_case_where_the_adm_rules_are_in_force(
    client: Any, engine: Engine, market_today: Any
) -> None:
    market_today("2025-03-03")
    authority = headers_for(client, engine, "authority")
    party, seller, app = seller_and_application(client, engine, authority, "2025-03-03")
    app_id = app["id"]
    assert {i["kind"] for i in app["checklist"] if i["stage"] == "submission"} == set(SUBMISSION)
    assert not any(i["satisfied"] for i in app["checklist"])
    assert "file business description" in app["next_step"]
    # ADM-1: the application fee was invoiced at intake
    fees = client.get(f"/api/v1/fees?party_id={party['id']}", headers=seller).json["items"]
    assert [(f["kind"], f["amount_cents"], f["due_cents"], f["status"]) for f in fees] == [
        ("tech_application", 100_000, 100_000, "unpaid")
    ]
    fee_id = fees[0]["id"]

    before = events(engine)
    details = refused(step(client, seller, app_id, "submit"), 422, "exhibit_missing")
    assert details["kinds"] == SUBMISSION
    assert events(engine) == before
    for kind in SUBMISSION:
        assert upload(client, seller, app_id, PDF, kind=kind, subject_type="tech_application")
    # The gates after the package, in order (fees_unpaid, tax_clearance_missing, then
    # tax_clearance_expired), are held by tests/unit/services/casefiles/test_tech_steps.py.
    pay = {
        "amount_cents": 100_001,
        "method": "check",
        "reference": "CHK 1",
        "received_on": "2025-03-03",
    }
    assert (
        client.post(
            f"/api/v1/fees/{fee_id}/payments", json=pay | {"amount_cents": 1}, headers=seller
        ).status_code
        == 403
    )
    paid = client.post(
        f"/api/v1/fees/{fee_id}/payments", json=pay | {"amount_cents": 100_000}, headers=authority
    )
    assert paid.status_code == 201 and paid.json["status"] == "paid" and paid.json["due_cents"] == 0

    clearance = {"certificate_number": "TCC-1", "issued_on": "2025-03-04", "program": "TECH"}
    url = f"/api/v1/parties/{party['id']}/tax-clearances"
    refused(client.post(url, json=clearance, headers=authority), 422, "invalid_request")
    old = client.post(url, json=clearance | {"issued_on": "2024-11-01"}, headers=authority)
    assert old.status_code == 201 and old.json["valid_until"] == "2025-01-29"
    renewed = client.post(
        url,
        json=clearance
        | {"certificate_number": "TCC-2", "issued_on": "2025-03-01", "renews": old.json["id"]},
        headers=authority,
    )
    assert renewed.status_code == 201 and renewed.json["renewals_left"] == 2, renewed.json

    submitted = step(client, seller, app_id, "submit")
    assert submitted.status_code == 200, submitted.json
    assert submitted.json["case_file"]["submitted_on"] == "2025-03-03"
    refused(step(client, seller, app_id, "submit"), 409, "step_out_of_order")
    refused(step(client, authority, app_id, "forward"), 409, "step_out_of_order")
    assert (
        step(client, seller, app_id, "preliminary-approval", {"conditions": ["x"]}).status_code
        == 403
    )
    prelim = step(
        client,
        authority,
        app_id,
        "preliminary-approval",
        {"conditions": ["Statement dated the day of closing"]},
    )
    assert prelim.status_code == 200 and prelim.json["case_file"]["conditions"] == [
        "Statement dated the day of closing"
    ]
    assert "The seller files buying business information sheet" in prelim.json["next_step"]
    for kind in FORWARD:
        upload(client, seller, app_id, PDF, kind=kind, subject_type="tech_application")
    assert step(client, authority, app_id, "forward").status_code == 200
    cert = {
        "benefit_cents": 5_000_000 * DOLLAR,
        "certificate_number": "TAX-9",
        "issued_on": "2025-03-03",
    }
    refused(
        step(client, authority, app_id, "tax-certificate", cert | {"issued_on": "2025-03-09"}),
        422,
        "invalid_request",
    )
    valued = step(client, authority, app_id, "tax-certificate", cert)
    assert valued.status_code == 200, valued.json
    assert valued.json["case_file"]["valued_benefit_cents"] == 5_000_000 * DOLLAR
    # ADM-2: 1% of $5,000,000 capped at $20,000, the $1,000 paid credited
    fees = client.get(f"/api/v1/fees?party_id={party['id']}", headers=authority).json["items"]
    approval = next(f for f in fees if f["kind"] == "tech_approval")
    assert (approval["amount_cents"], approval["credited_cents"], approval["due_cents"]) == (
        2_000_000,
        100_000,
        1_900_000,
    )
    detail = client.get(f"/api/v1/tech/applications/{app_id}", headers=seller).json
    assert all(i["satisfied"] for i in detail["checklist"] if i["required"])
    assert detail["next_step"].startswith("Final approval")
    # another party sees neither the fees nor the application
    stranger = headers_for(client, engine, "participant", create_party(client, authority)["id"])
    assert client.get(f"/api/v1/fees?party_id={party['id']}", headers=stranger).json["items"] == []


def test_the_old_flow_runs_unchanged_in_the_bills_era(client: Any, engine: Engine) -> None:
    """2014: no fee is invoiced at intake and the steps keep only their order."""
    authority = headers_for(client, engine, "authority")
    party, seller, app = seller_and_application(client, engine, authority, "2014-03-03")
    assert client.get(f"/api/v1/fees?party_id={party['id']}", headers=authority).json["items"] == []
    assert step(client, seller, app["id"], "submit").status_code == 200
    assert step(client, authority, app["id"], "preliminary-approval").status_code == 200
    assert step(client, authority, app["id"], "forward").status_code == 200


def test_the_steps_are_in_the_applications_timeline(client: Any, engine: Engine) -> None:
    authority = headers_for(client, engine, "authority")
    _, seller, app = seller_and_application(client, engine, authority, "2014-03-03")
    step(client, seller, app["id"], "submit")
    step(client, authority, app["id"], "preliminary-approval", {"conditions": ["c"]})
    detail = client.get(f"/api/v1/tech/applications/{app['id']}", headers=seller).json
    assert [s["status"] for s in detail["timeline"]][-2:] == ["submitted", "preliminarily_approved"]
    assert detail["next_step"].startswith("The seller files")


def _submitted(client: Any, authority: dict[str, str], party_id: str, app_id: str) -> None:
    """ADM-5, ADM-1, ADM-12: the package filed, the fee paid, a clearance, then submit."""
    seller = headers_for(
        client, client.application.extensions["market.engine"], "participant", party_id
    )
    for kind in SUBMISSION:
        upload(client, seller, app_id, PDF, kind=kind, subject_type="tech_application")
    [fee] = client.get(f"/api/v1/fees?party_id={party_id}", headers=authority).json["items"]
    pay = {"amount_cents": 100_000, "method": "ach", "reference": "R", "received_on": "2025-03-03"}
    assert (
        client.post(f"/api/v1/fees/{fee['id']}/payments", json=pay, headers=authority).status_code
        == 201
    )
    clearance = {
        "certificate_number": f"TCC-{app_id}",
        "issued_on": "2025-03-01",
        "program": "TECH",
    }
    url = f"/api/v1/parties/{party_id}/tax-clearances"
    assert client.post(url, json=clearance, headers=authority).status_code == 201
    assert step(client, seller, app_id, "submit").status_code == 200


def test_an_application_never_submitted_is_left_out_of_the_allocation(
    client: Any, engine: Engine, market_today: Any
) -> None:
    """ADM-5, ADM-6: where the ADM rules are in force, the year's allocation takes only the
    applications submitted by June 30; the other is excluded, and gets no certificate."""
    market_today("2025-03-03")
    authority = headers_for(client, engine, "authority")
    done, _, submitted = seller_and_application(client, engine, authority, "2025-03-03")
    _, _, left = seller_and_application(client, engine, authority, "2025-03-03", "Idle Bio")
    assert left["eligible"] is True
    _submitted(client, authority, done["id"], submitted["id"])
    market_today("2025-07-01")
    preview = client.post("/api/v1/tech/allocations/2025/preview", headers=authority).json
    assert [a["application_id"] for a in preview["allocations"]] == [submitted["id"]]
    run = client.post("/api/v1/tech/allocations/2025", headers=authority)
    assert run.status_code == 201, run.json
    assert [a["application_id"] for a in run.json["allocations"]] == [submitted["id"]]
    assert run.json["allocations"][0]["certificate_id"]
    assert run.json["total_cents"] == submitted["benefit_cents"]
    idle = client.get(f"/api/v1/tech/applications/{left['id']}", headers=authority).json
    assert idle["allocated_cents"] == 0 and idle["certificate_id"] is None
    shown = client.get("/api/v1/tech/allocations/2025", headers=authority).json
    assert [a["application_id"] for a in shown["allocations"]] == [submitted["id"]]
