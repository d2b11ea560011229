"""A transfer's approval is its final approval (ADM-8, ADM-12), on SQLite and PostgreSQL:
where the ADM rules are in force it needs the sale's exhibits, its fees paid and the
seller's valid tax clearance; in the bill's era it is approved as before."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from market.domain.events import upcast
from market.services.kernel.numbering import new_id
from market.services.kernel.uow import UnitOfWork
from tests.e2e.test_casefile_documents_api import upload
from tests.helpers import confirm_as_buyer, create_party, headers_for
from tests.unit.services.casefiles.test_media_types import PDF

pytestmark = pytest.mark.storage

FACTS = {
    "us_employees": 40,
    "nj_full_time_employees": 12,
    "formed_on": "2006-03-01",
    "operating_income_cents_by_year": {"2023": -500_000, "2024": -100_000},
}


def tech_certificate_2024(engine: Engine, holder_id: str, face: int) -> str:
    cert_id = new_id("crt")
    with UnitOfWork(engine) as uow:
        uow.append(
            f"certificate-{cert_id}",
            upcast(
                "CERT_ISSUED",
                {
                    "certificate_id": cert_id,
                    "number": f"TECH-2025-{cert_id[-6:]}",
                    "program": "TECH",
                    "holder_party_id": holder_id,
                    "original_holder_party_id": holder_id,
                    "parent_id": None,
                    "root_id": cert_id,
                    "origin": "allocation",
                    "is_original": True,
                    "face_cents": face,
                    "allowed_cents": face,
                    "queued_cents": 0,
                    "status": "issued",
                    "fiscal_year": 2025,
                    "tax_types": ["CBT", "GIT"],
                    "tax_periods": [],
                    "credit_year": 2024,
                    "carryover_last_year": 2031,
                    "waiver_statement": "",
                    "attributes": {"received_on": "2025-01-10"},
                    "ruleset": "A1178",
                },
            ),
            "test",
        )
        uow.commit()
    return cert_id


def test_final_approval_follows_the_closing_checklist(
    client: Any, engine: Engine, market_today: Any
) -> None:
    market_today("2025-03-03")
    authority = headers_for(client, engine, "authority")
    seller = create_party(client, authority, name="Selling Bio", **FACTS)
    buyer = create_party(client, authority, name="Buying Corp", tax_types=["CBT"])
    seller_h = headers_for(client, engine, "participant", seller["id"])
    cert = tech_certificate_2024(engine, seller["id"], 1_000_000)
    r = client.post(
        "/api/v1/transfers",
        json={
            "certificate_id": cert,
            "buyer_party_id": buyer["id"],
            "amount_cents": 500_000,
            "consideration_cents": 450_000,
        },
        headers=seller_h,
    )
    assert r.status_code == 201, r.json
    transfer = confirm_as_buyer(client, r.json)
    detail = client.get(f"/api/v1/transfers/{transfer['id']}", headers=seller_h).json
    assert detail["checklist"] == [
        {
            "kind": "executed_selling_agreement",
            "stage": "final",
            "required": True,
            "satisfied": False,
            "document_ids": [],
        }
    ]
    assert "executed selling agreement" in detail["next_step"]
    approve = f"/api/v1/transfers/{transfer['id']}/approve"
    # Approval waits for the agreement, then for a valid clearance (exhibit_missing,
    # tax_clearance_missing, tax_clearance_expired): tests/unit/services/casefiles.
    doc = upload(
        client,
        seller_h,
        transfer["id"],
        PDF,
        kind="executed_selling_agreement",
        subject_type="transfer",
    )
    assert doc.status_code == 201, doc.json
    clearance = {"certificate_number": "TCC-7", "issued_on": "2025-02-01", "program": "TECH"}
    assert (
        client.post(
            f"/api/v1/parties/{seller['id']}/tax-clearances", json=clearance, headers=authority
        ).status_code
        == 201
    )
    ok = client.post(approve, json={}, headers=authority)
    assert ok.status_code == 200, ok.json
    assert ok.json["status"] == "approved"
    after = client.get(f"/api/v1/transfers/{transfer['id']}", headers=seller_h).json
    assert after["checklist"][0]["document_ids"] == [doc.json["id"]]
