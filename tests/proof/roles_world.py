"""The role matrix's world (tests/proof/test_roles_*.py): the five roles, the parties and
records they are asked about (`Matrix`), the status shorthand `statuses`, a browser signed
in as a role (`sign_in`), and the fast-hashing guard the matrix's modules use (`fast_argon2`).
"""

from __future__ import annotations

import io
import os
import re
import uuid
from typing import Any

import pytest

from market.domain.commands.casefiles import InvoiceFee
from market.domain.rules import adm_fees
from market.domain.rulesets import get_ruleset
from market.services.casefiles import fees
from market.services.identity import identity
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import UnitOfWork
from tests.helpers import brrag_award, create_party, headers_for
from tests.proof.world import M

ROLES = ("anonymous", "authority", "auditor", "owner", "other")
FACTS = {
    "us_employees": 40,
    "nj_full_time_employees": 12,
    "formed_on": "2006-03-01",
    "operating_income_cents_by_year": {"2010": -500_000, "2011": -100_000},
}


class Matrix:
    """Owner O holds certificate C (listed as L, with B's offer F and a pending negotiated
    transfer T to B) and a TECH application A; Other X holds its own certificate CX."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        c = client
        self.auth = headers_for(c, self.engine, "authority")
        self.owner = create_party(c, self.auth, name="Owner Aleph Co", tax_id="11-0000001", **FACTS)
        self.buyer = create_party(c, self.auth, name="Buyer Beth Co", tax_id="22-0000002")
        self.other = create_party(c, self.auth, name="Other Gimel Co", tax_id="33-0000003")
        self.headers: dict[str, dict[str, str]] = {
            "anonymous": {},
            "authority": self.auth,
            "auditor": headers_for(c, self.engine, "auditor"),
            "owner": headers_for(c, self.engine, "participant", self.owner["id"]),
            "other": headers_for(c, self.engine, "participant", self.other["id"]),
        }
        self.buyer_h = headers_for(c, self.engine, "participant", self.buyer["id"])
        self.cert = self.issue(self.owner["id"])
        self.other_cert = self.issue(self.other["id"])
        self.listing = self.post("/api/v1/listings", self.headers["owner"], self._listing_body())
        self.offer = self.new_offer()
        self.transfer = self.new_transfer()
        self.application = self.post(
            "/api/v1/tech/applications",
            self.auth,
            {
                "party_id": self.owner["id"],
                "received_on": "2013-03-15",
                "receipt_reason": "Paper filing received by mail",
                "nol_cents": 0,
                "allocation_factor": "1",
                "seller_tax_regime": "CBT",
                "rnd_credit_cents": 10_000_000,
                "in_innovation_zone": False,
            },
        )

    def post(self, path: str, headers: dict[str, str], body: Any) -> dict[str, Any]:
        r = self.client.post(path, json=body, headers=headers)
        assert r.status_code == 201, (path, r.json)
        return r.json  # type: ignore[no-any-return]

    def issue(self, holder: str) -> dict[str, Any]:
        body = {"program": "BRRAG", "holder_party_id": holder, "face_cents": 10 * M}
        body |= brrag_award(10 * M)
        return self.post("/api/v1/certificates", self.auth, body | {"fiscal_year": 2014})

    def _listing_body(self) -> dict[str, Any]:
        return {"certificate_id": self.cert["id"], "amount_cents": M // 10, "ask_cents": M // 10}

    def new_listing(self) -> dict[str, Any]:
        return self.post("/api/v1/listings", self.headers["owner"], self._listing_body())

    def new_offer(self) -> dict[str, Any]:
        listing = self.new_listing()
        body = {"amount_cents": M // 10, "price_cents": M // 10}
        return self.post(f"/api/v1/listings/{listing['id']}/offers", self.buyer_h, body)

    def new_transfer(self, confirmed: bool = True) -> dict[str, Any]:
        """A negotiated transfer to B; confirmed by B (PRODUCT.md 8.2) unless asked not."""
        body = {
            "certificate_id": self.cert["id"],
            "buyer_party_id": self.buyer["id"],
            "amount_cents": M // 100,
            "consideration_cents": M // 100,
        }
        proposed = self.post("/api/v1/transfers", self.headers["owner"], body)
        if not confirmed:
            return proposed
        r = self.client.post(
            f"/api/v1/transfers/{proposed['id']}/confirm", json={}, headers=self.buyer_h
        )
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]

    def secrets_hidden_from(self, role: str, market: bool) -> list[str]:
        """What must not appear in a participant's response: any uninvolved party's data.
        On the market's public pages (listings) the seller's party and certificate ids are
        part of the offer to sell; names and tax ids never are."""
        if role == "owner":
            return [self.other["id"], self.other["tax_id"], self.other["name"], *self._cx()]
        if role == "other":
            ids = [self.owner["id"], self.cert["id"], self.buyer["id"]]
            names = [self.owner["tax_id"], self.owner["name"], self.buyer["tax_id"]]
            return [*names, self.buyer["name"]] if market else [*names, *ids, self.buyer["name"]]
        return []

    def _cx(self) -> list[str]:
        return [self.other_cert["id"], self.other_cert["number"]]

    def owner_notification(self) -> str:
        r = self.client.get("/api/v1/notifications", headers=self.headers["owner"])
        return str(r.json["items"][0]["id"])

    def reference(self) -> str:
        r = self.client.get(f"/api/v1/transfers/{self.transfer['id']}", headers=self.auth)
        return str(r.json["reference"])

    def owner_user(self) -> str:
        users = self.client.get("/api/v1/audit/users", headers=self.auth).json["items"]
        return str(next(u["id"] for u in users if u["party_id"] == self.owner["id"]))

    def owner_document(self) -> str:
        """An exhibit filed against the owner's party by the owner."""
        if "document" not in self.__dict__:
            form = {
                "kind": "business_plan",
                "subject_type": "party",
                "subject_id": self.owner["id"],
                "file": (io.BytesIO(b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n"), "plan.pdf"),
            }
            r = self.client.post(
                "/api/v1/documents",
                data=form,
                headers=self.headers["owner"],
                content_type="multipart/form-data",
            )
            assert r.status_code == 201, r.json
            self.document = r.json["id"]
        return str(self.document)

    def owner_fee(self) -> str:
        """The owner's TECH application fee, as its submission step invoices it (ADM-1)."""
        if "fee" not in self.__dict__:
            rules = get_ruleset(self.client.application.config["RULESET"])
            with UnitOfWork(self.engine) as uow:
                bill = adm_fees.tech_application_fee(rules)
                fee = InvoiceFee(self.owner["id"], self.application["id"], bill)
                made = fees.invoice(uow, SYSTEM, fee, rules)
                uow.commit()
            self.fee = made["id"]
        return str(self.fee)

    def owner_board_action(self) -> str:
        """A BRRAG Board approval for the owner (ADM-9)."""
        if "board_action" not in self.__dict__:
            body = {
                "party_id": self.owner["id"],
                "decision": "approve",
                "amount_cents": 10 * M,
                "submitted_on": "2014-06-02",
                "board_met_on": "2014-08-12",
                "governor_received_on": "2014-08-14",
            }
            self.board_action = self.post("/api/v1/brrag/board-actions", self.auth, body)["id"]
        return str(self.board_action)

    def owner_webhook(self) -> str:
        if "webhook" not in self.__dict__:
            body = {"url": "https://93.184.216.34/hook", "event_types": ["*"]}
            self.webhook = self.post("/api/v1/webhooks", self.headers["owner"], body)["id"]
        return str(self.webhook)


def statuses(status: int, anonymous: int = 401, **by_role: int) -> dict[str, int]:
    return {"anonymous": anonymous} | dict.fromkeys(ROLES[1:], status) | by_role


def sign_in(app: Any, client: Any, engine: Any, role: str, party_id: str | None) -> Any:
    page = app.test_client()
    if role == "anonymous":
        return page
    email = f"page-{role}-{uuid.uuid4().hex[:6]}@example.com"
    kind = role if role in ("authority", "auditor") else "participant"
    identity.create_user(engine, email, kind, "page-password", party_id)
    form = page.get("/login").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', form)
    assert token is not None
    r = page.post(
        "/login", data={"email": email, "password": "page-password", "csrf_token": token[1]}
    )
    assert r.status_code == 302, r.get_data(as_text=True)[:300]
    return page


@pytest.fixture(autouse=True)
def fast_argon2() -> None:
    """Autouse in each test module that imports it: the matrix makes many users, whose
    passwords hash with the fast Argon2 parameters (tests/conftest.py sets them)."""
    assert os.environ.get("MARKET_ARGON2_FAST") == "1"
