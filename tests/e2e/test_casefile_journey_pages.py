"""The case file's "done when" from the pages alone (issue 29), on SQLite and PostgreSQL: a
new business asks to join, is approved and sets its password; it applies for TECH, files
its package, the Authority records its fee's payment and its tax clearance, it submits;
the Authority grants preliminary approval, the conditions' exhibits are filed, it forwards
to Taxation and records the valuation, the approval fee is paid; the business date moves
past the June 30 deadline, the Authority commits the fiscal year's allocation, the seller
lists its TECH certificate, a buyer offers, the seller accepts, the executed selling
agreement is filed, the clearance is renewed and the Authority approves the sale. Every
step is a ledger event, and every filed document's SHA-256 is in the bought certificate's
proof bundle, its DOCUMENT_FILED event proved against a signed checkpoint."""

from __future__ import annotations

import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from market.adapters.tables import EventRow
from tests.e2e.test_casefile_pages import file_exhibit
from tests.e2e.test_casefile_tech_api import FORWARD, SUBMISSION
from tests.e2e.test_pages_registration import PASSWORD, _form, _link
from tests.e2e.test_pages_support import browser, confirm_form, post_form
from tests.helpers import create_party, headers_for, replay_equals_live_and_verifies
from tests.unit.services.casefiles.test_media_types import PDF, PNG

pytestmark = pytest.mark.storage
events_t = EventRow.__table__  # type: ignore[attr-defined]
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify-proof"


class Ledger:
    """The event types appended since the last look: each step must add its own."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.seen = self._max()

    def _max(self) -> int:
        with self.engine.connect() as conn:
            return int(
                conn.execute(select(events_t.c.seq).order_by(events_t.c.seq.desc())).scalar() or 0
            )

    def since(self) -> list[str]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(events_t.c.type).where(events_t.c.seq > self.seen).order_by(events_t.c.seq)
            ).scalars()
            found = list(rows)
        self.seen = self._max()
        return found


def _found(pattern: str, html: str) -> str:
    match = re.search(pattern, html, re.S)
    assert match, html[:3000]
    return match.group(1)


def _pay(eda: Any, party_id: str, due: str, reference: str, on: str) -> None:
    """The Authority pays the unpaid fee showing `due` on the party's fees page."""
    page = f"/fees?party_id={party_id}"
    html = eda.get(page).get_data(as_text=True)
    fee_id = _found(rf'id="fee-(fee_[^"]+)">(?:(?!</tr>).)*value="{re.escape(due)}"', html)
    payment = {
        "party_id": party_id,
        "amount": due,
        "method": "check",
        "reference": reference,
        "received_on": on,
    }
    assert confirm_form(eda, page, f"/fees/{fee_id}/payment", payment).status_code == 302


def _clearance(eda: Any, party_id: str, number: str, issued: str, renews: str = "") -> None:
    clearance = {
        "party_id": party_id,
        "certificate_number": number,
        "program": "TECH",
        "issued_on": issued,
        "renews": renews,
    }
    page = f"/fees?party_id={party_id}"
    assert confirm_form(eda, page, "/tax-clearances", clearance).status_code == 302


def _join(app: Any, eda: Any, ledger: Ledger) -> tuple[Any, str, str]:
    """Ask to join, confirm the address, the Authority approves, the owner sets a password
    and signs in: the owner's browser, the party's id and the registration's id."""
    engine, public = app.extensions["market.engine"], app.test_client()
    data = _form(legal_name="Trenton Photonics LLC", tax_types=["CBT"])
    assert post_form(public, "/join", "/join", data).status_code == 202
    token = _link(engine, data["contact_email"], "/join/verify/")
    assert (
        post_form(public, f"/join/verify/{token}", f"/join/verify/{token}", {}).status_code == 302
    )
    assert ledger.since() == ["REGISTRATION_REQUESTED", "REGISTRATION_EMAIL_VERIFIED"]
    desk = eda.get("/authority/registrations").get_data(as_text=True)
    reg_id = _found(r'/authority/registrations/(reg_[0-9a-f]+)"', desk)
    review = f"/authority/registrations/{reg_id}"
    assert confirm_form(eda, review, f"{review}/approve", {}).status_code == 302
    assert ledger.since()[:2] == ["PARTY_REGISTERED", "REGISTRATION_APPROVED"]
    set_token = _link(engine, data["contact_email"], "/account/set-password/")
    page = f"/account/set-password/{set_token}"
    typed = {"password": PASSWORD, "password_again": PASSWORD}
    assert post_form(public, page, page, typed).status_code == 302
    owner = app.test_client()
    signed = {"email": data["contact_email"], "password": PASSWORD}
    assert post_form(owner, "/login", "/login", signed).status_code == 302
    party_id = _found(r'/parties/([^"/]+)/users/invite"', owner.get("/party/users").get_data(True))
    ledger.since()  # the account's own events (password set, sign-in)
    return owner, party_id, reg_id


def test_a_new_business_from_joining_to_closing_on_the_pages(
    app: Any, market_today: Any, tmp_path: Path
) -> None:
    market_today("2025-03-03")
    engine = app.extensions["market.engine"]
    eda = browser(app, "authority")
    ledger = Ledger(engine)
    owner, party_id, _ = _join(app, eda, ledger)

    # The Authority records the TECH facts the registration did not ask (TB-1, AMB-50).
    facts = {
        "party": "Trenton Photonics LLC",
        "naics_code": "541714",
        "us_employees": "40",
        "nj_employees": "12",
        "formed_on": "2006-03-01",
    }
    recorded = post_form(eda, "/authority/parties", "/authority/parties/facts", facts)
    assert recorded.status_code == 302, recorded.get_data(as_text=True)[:3000]
    assert ledger.since() == ["PARTY_FACTS_RECORDED"]
    apply = {"nol": "0", "allocation_factor": "1", "regime": "CBT", "rnd": "5,000,000"}
    applied = confirm_form(owner, "/seller", "/seller/tech", apply)
    assert applied.status_code == 302, applied.get_data(as_text=True)[:3000]
    deal = owner.get(applied.headers["Location"]).get_data(as_text=True)
    assert "TECH application received for FY 2025" in deal and "eligible" in deal
    seller_html = owner.get("/seller").get_data(as_text=True)
    app_id = _found(r'href="/casefiles/tech/([^"]+)"', seller_html)
    assert ledger.since() == ["TECH_APPLICATION_RECEIVED", "FEE_INVOICED"]  # ADM-1 at intake
    case = f"/casefiles/tech/{app_id}"

    filed: dict[str, bytes] = {}
    for n, kind in enumerate(SUBMISSION):
        body = PDF + f"% {kind} {n}\n".encode()
        assert file_exhibit(owner, app_id, kind, body).status_code == 302
        filed[kind] = body
    assert ledger.since() == ["DOCUMENT_FILED"] * len(SUBMISSION)
    _pay(eda, party_id, "1000.00", "CHK 2025-1", "2025-03-03")
    _clearance(eda, party_id, "TCC-2025-1", "2025-03-01")
    assert ledger.since() == ["FEE_PAYMENT_RECORDED", "TAX_CLEARANCE_RECORDED"]
    assert confirm_form(owner, case, f"{case}/submit", {}).status_code == 302
    conditions = {"conditions": "A statement dated the day of closing"}
    assert confirm_form(eda, case, f"{case}/preliminary", conditions).status_code == 302
    assert ledger.since() == ["TECH_APPLICATION_SUBMITTED", "TECH_PRELIMINARY_APPROVED"]
    for n, kind in enumerate(FORWARD):
        body = PNG + f"{kind} {n}".encode()
        assert file_exhibit(owner, app_id, kind, body).status_code == 302
        filed[kind] = body
    assert confirm_form(eda, case, f"{case}/forward", {}).status_code == 302
    valuation = {"benefit": "5,000,000", "certificate_number": "TAX-77", "issued_on": "2025-03-03"}
    assert confirm_form(eda, case, f"{case}/tax-certificate", valuation).status_code == 302
    assert ledger.since() == ["DOCUMENT_FILED"] * len(FORWARD) + [
        "TECH_FORWARDED_TO_TAXATION",
        "TECH_TAX_CERTIFICATE_RECORDED",
        "FEE_INVOICED",  # ADM-2: 1% of $5,000,000, $20,000 with the $1,000 credited
    ]
    _pay(eda, party_id, "19000.00", "WIRE 2025-2", "2025-03-03")
    assert ledger.since() == ["FEE_PAYMENT_RECORDED"]

    # Past the deadline: the Authority commits FY 2025 from its allocation page.
    market_today("2025-07-01")
    plan = eda.get("/authority/allocations/2025").get_data(as_text=True)
    assert "Trenton Photonics LLC" in plan
    done = confirm_form(
        eda, "/authority/allocations/2025", "/authority/allocations/2025/commit", {}
    )
    assert done.status_code == 302, done.get_data(as_text=True)[:3000]
    assert ledger.since() == ["FY_ALLOCATION_RUN", "CERT_ISSUED"]
    seller_html = owner.get("/seller").get_data(as_text=True)
    cert_id = _found(
        r'<option value="([^"]+)"[^>]*>TECH-2025-[^<]*\$5,000,000\.00 usable', seller_html
    )

    # The sale: listed, offered by a buyer, accepted.
    api = app.test_client()
    buyer = create_party(api, headers_for(api, engine, "authority"), name="Princeton Mutual Corp")
    buyer_web = browser(app, "participant", buyer["id"])
    ledger.since()  # the buyer's seeding
    listed = {"certificate_id": cert_id, "amount": "2,000,000", "per_dollar": "90"}
    assert post_form(owner, "/seller", "/seller/listings", listed).status_code == 302
    market_html = buyer_web.get("/market").get_data(as_text=True)
    listing_id = _found(r'name="listing_id" value="([^"]+)"', market_html)
    offer = {"listing_id": listing_id, "amount": "2,000,000", "per_dollar": "88"}
    assert confirm_form(buyer_web, "/market", "/market/offers", offer).status_code == 302
    offer_id = _found(r'/seller/offers/([^"/]+)/accept"', owner.get("/seller").get_data(True))
    accepted = confirm_form(owner, "/seller", f"/seller/offers/{offer_id}/accept", {})
    assert accepted.status_code == 302, accepted.get_data(as_text=True)[:3000]
    steps = ledger.since()
    assert steps[:2] == ["LISTING_CREATED", "OFFER_MADE"] and "OFFER_ACCEPTED" in steps
    assert "TRANSFER_PROPOSED" in steps

    queue = eda.get("/authority").get_data(as_text=True)
    transfer_id = _found(r'/authority/transfers/([^"/]+)/approve"', queue)
    approve = f"/authority/transfers/{transfer_id}/approve"
    # Closing waits for the executed selling agreement and a clearance still valid.
    refused = post_form(eda, "/authority", approve, {})
    assert refused.status_code == 422 and "executed selling agreement" in refused.get_data(True)
    deal = f"/deals/transfers/{transfer_id}"
    token = _found(r'name="csrf_token" value="([^"]+)"', owner.get(deal).get_data(True))
    agreement = PDF + b"% executed at closing\n"
    r = owner.post(
        "/documents/upload",
        data={
            "csrf_token": token,
            "kind": "executed_selling_agreement",
            "subject_type": "transfer",
            "subject_id": transfer_id,
            "back": deal,
            "file": (io.BytesIO(agreement), "agreement.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert r.status_code == 302
    filed["closing agreement"] = agreement
    lapsed = post_form(eda, "/authority", approve, {})
    assert lapsed.status_code == 422 and "tax clearance" in lapsed.get_data(as_text=True)
    assert ledger.since() == ["DOCUMENT_FILED"]  # the refusals wrote nothing
    fees_html = eda.get(f"/fees?party_id={party_id}").get_data(as_text=True)
    first = _found(r"<code>([^<]+)</code> · TCC-2025-1", fees_html)
    _clearance(eda, party_id, "TCC-2025-2", "2025-06-30", renews=first)
    closed = confirm_form(eda, "/authority", approve, {})
    assert closed.status_code == 302, closed.get_data(as_text=True)[:3000]
    closing = ledger.since()
    assert closing[0] == "TAX_CLEARANCE_RECORDED" and "TRANSFER_APPROVED" in closing

    # The buyer holds its certificate; its proof bundle proves every exhibit's hash.
    buyer_html = buyer_web.get("/buyer").get_data(as_text=True)
    bought = _found(r'href="/certificates/([^"]+)">TECH-2025-[^<]*-T', buyer_html)
    bundle = buyer_web.get(f"/certificates/{bought}/proof.json").get_json()
    proves_every_exhibit(api, bundle, filed, tmp_path)
    replay_equals_live_and_verifies(engine)  # the party's TECH facts replay too


def proves_every_exhibit(
    api: Any, bundle: dict[str, Any], filed: dict[str, bytes], tmp: Path
) -> None:
    """The bundle lists exactly the filed bytes' SHA-256, each one's DOCUMENT_FILED event
    is in it with its inclusion proof, and scripts/verify-proof checks the whole bundle
    against its signed checkpoint with only the public key."""
    listed = {d["sha256"] for d in bundle["documents"]}
    assert listed == {hashlib.sha256(b).hexdigest() for b in filed.values()}
    proved = {
        e["payload"]["sha256"]: e["seq"] for e in bundle["events"] if e["type"] == "DOCUMENT_FILED"
    }
    assert set(proved) == listed
    assert {p["seq"] for p in bundle["inclusion"]} >= set(proved.values())
    path, key = tmp / "bundle.json", tmp / "key.json"
    path.write_text(json.dumps(bundle))
    key.write_text(json.dumps(api.get("/api/v1/ledger/public-key").json))
    checked = subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path), "--public-key", str(key)],
        capture_output=True,
        text=True,
        cwd=tmp,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("OK:")
