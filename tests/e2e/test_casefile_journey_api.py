"""The case file's "done when" over the API (issue 29), on SQLite and PostgreSQL: the same
journey as test_casefile_journey_pages.py, each step an /api/v1 call (but the first
user's password, chosen on the e-mailed link's page: the API has no such step). The
earlier API tests each hold a part (test_registration_api, test_casefile_tech_api,
test_casefile_transfer_api with a certificate written straight to the ledger); this one
chains them through the allocation, so the certificate sold is the one the case earned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.test_casefile_documents_api import upload
from tests.e2e.test_casefile_journey_pages import Ledger, proves_every_exhibit
from tests.e2e.test_casefile_tech_api import FORWARD, SUBMISSION
from tests.e2e.test_pages_registration import PASSWORD, _link
from tests.e2e.test_pages_support import post_form
from tests.e2e.test_registration_api import body
from tests.helpers import create_party, headers_for, replay_equals_live_and_verifies
from tests.unit.services.casefiles.test_media_types import PDF, PNG

pytestmark = pytest.mark.storage


def _ok(r: Any, status: int = 200) -> Any:
    assert r.status_code == status, r.json
    return r.json


def _pay_due(api: Any, eda: dict[str, str], party_id: str, kind: str, on: str) -> None:
    fees = _ok(api.get(f"/api/v1/fees?party_id={party_id}", headers=eda))["items"]
    fee = next(f for f in fees if f["kind"] == kind)
    pay = {"amount_cents": fee["due_cents"], "method": "wire", "reference": kind, "received_on": on}
    assert _ok(api.post(f"/api/v1/fees/{fee['id']}/payments", json=pay, headers=eda), 201)[
        "status"
    ] == ("paid")


def test_a_new_business_from_joining_to_closing_over_the_api(
    app: Any, market_today: Any, tmp_path: Path
) -> None:
    market_today("2025-03-03")
    api, engine = app.test_client(), app.extensions["market.engine"]
    eda = headers_for(api, engine, "authority")
    ledger = Ledger(engine)

    data = body(legal_name="Camden Lidar LLC")
    reg = _ok(api.post("/api/v1/registrations", json=data), 202)
    token = _link(engine, data["contact_email"], "/join/verify/")
    _ok(api.post("/api/v1/registrations/verify", json={"token": token}))
    party_id = _ok(api.post(f"/api/v1/registrations/{reg['id']}/approve", headers=eda))["party_id"]
    assert ledger.since()[:4] == [
        "REGISTRATION_REQUESTED",
        "REGISTRATION_EMAIL_VERIFIED",
        "PARTY_REGISTERED",
        "REGISTRATION_APPROVED",
    ]
    page = "/account/set-password/" + _link(engine, data["contact_email"], "/account/set-password/")
    typed = {"password": PASSWORD, "password_again": PASSWORD}
    assert post_form(app.test_client(), page, page, typed).status_code == 302
    creds = {"email": data["contact_email"], "password": PASSWORD}
    owner = {"Authorization": "Bearer " + _ok(api.post("/api/v1/auth/token", json=creds))["token"]}
    tech = {"us_employees": 40, "nj_full_time_employees": 12, "formed_on": "2006-03-01"}
    _ok(api.patch(f"/api/v1/parties/{party_id}", json=tech, headers=eda))
    ledger.since()

    application = _ok(
        api.post(
            "/api/v1/tech/applications",
            json={
                "party_id": party_id,
                "nol_cents": 0,
                "allocation_factor": "1",
                "seller_tax_regime": "CBT",
                "rnd_credit_cents": 500_000_000,
            },
            headers=owner,
        ),
        201,
    )
    app_id = application["id"]
    assert application["eligible"] is True
    assert ledger.since() == ["TECH_APPLICATION_RECEIVED", "FEE_INVOICED"]
    step = f"/api/v1/tech/applications/{app_id}"
    filed: dict[str, bytes] = {}
    for kind in SUBMISSION:
        filed[kind] = PDF + kind.encode()
        _ok(
            upload(api, owner, app_id, filed[kind], kind=kind, subject_type="tech_application"), 201
        )
    _pay_due(api, eda, party_id, "tech_application", "2025-03-03")
    clearance = {"certificate_number": "TCC-A1", "issued_on": "2025-03-01", "program": "TECH"}
    first = _ok(
        api.post(f"/api/v1/parties/{party_id}/tax-clearances", json=clearance, headers=eda), 201
    )
    _ok(api.post(f"{step}/submit", json={}, headers=owner))
    conditions = {"conditions": ["A statement dated the day of closing"]}
    _ok(api.post(f"{step}/preliminary-approval", json=conditions, headers=eda))
    for kind in FORWARD:
        filed[kind] = PNG + kind.encode()
        _ok(
            upload(api, owner, app_id, filed[kind], kind=kind, subject_type="tech_application"), 201
        )
    _ok(api.post(f"{step}/forward", json={}, headers=eda))
    valued = {
        "benefit_cents": 500_000_000,
        "certificate_number": "TAX-A",
        "issued_on": "2025-03-03",
    }
    _ok(api.post(f"{step}/tax-certificate", json=valued, headers=eda))
    _pay_due(api, eda, party_id, "tech_approval", "2025-03-03")
    assert ledger.since() == [
        *["DOCUMENT_FILED"] * len(SUBMISSION),
        "FEE_PAYMENT_RECORDED",
        "TAX_CLEARANCE_RECORDED",
        "TECH_APPLICATION_SUBMITTED",
        "TECH_PRELIMINARY_APPROVED",
        *["DOCUMENT_FILED"] * len(FORWARD),
        "TECH_FORWARDED_TO_TAXATION",
        "TECH_TAX_CERTIFICATE_RECORDED",
        "FEE_INVOICED",
        "FEE_PAYMENT_RECORDED",
    ]

    market_today("2025-07-01")  # the intake closed (before it: intake_still_open, TB-14)
    run = _ok(api.post("/api/v1/tech/allocations/2025", headers=eda), 201)
    [mine] = [a for a in run["allocations"] if a["application_id"] == app_id]
    assert mine["allocated_cents"] == 500_000_000 and mine["certificate_id"]
    assert ledger.since() == ["FY_ALLOCATION_RUN", "CERT_ISSUED"]

    buyer = create_party(api, eda, name="Hamilton Casualty Corp")
    buyer_h = headers_for(api, engine, "participant", buyer["id"])
    ledger.since()
    listing = _ok(
        api.post(
            "/api/v1/listings",
            json={
                "certificate_id": mine["certificate_id"],
                "amount_cents": 200_000_000,
                "ask_cents": 180_000_000,
            },
            headers=owner,
        ),
        201,
    )
    offer = _ok(
        api.post(
            f"/api/v1/listings/{listing['id']}/offers",
            json={"amount_cents": 200_000_000, "price_cents": 176_000_000},
            headers=buyer_h,
        ),
        201,
    )
    transfer = _ok(api.post(f"/api/v1/offers/{offer['id']}/accept", json={}, headers=owner), 201)[
        "transfer"
    ]
    approve = f"/api/v1/transfers/{transfer['id']}/approve"
    filed["agreement"] = PDF + b"executed"
    _ok(
        upload(
            api,
            owner,
            transfer["id"],
            filed["agreement"],
            kind="executed_selling_agreement",
            subject_type="transfer",
        ),
        201,
    )
    renewal = clearance | {"certificate_number": "TCC-A2", "renews": first["id"]}
    renewal["issued_on"] = "2025-06-30"
    _ok(api.post(f"/api/v1/parties/{party_id}/tax-clearances", json=renewal, headers=eda), 201)
    approved = _ok(api.post(approve, json={}, headers=eda))
    assert approved["status"] == "approved"
    steps = ledger.since()
    assert steps[:3] == ["LISTING_CREATED", "OFFER_MADE", "OFFER_ACCEPTED"]
    filing = steps.index("DOCUMENT_FILED")
    assert steps[filing + 1] == "TAX_CLEARANCE_RECORDED" and "TRANSFER_APPROVED" in steps[filing:]

    bought = _ok(api.get(f"/api/v1/transfers/{transfer['id']}", headers=buyer_h))
    bundle = _ok(
        api.get(f"/api/v1/certificates/{bought['buyer_certificate_id']}/proof", headers=buyer_h)
    )
    proves_every_exhibit(api, bundle, filed, tmp_path)
    replay_equals_live_and_verifies(engine)
