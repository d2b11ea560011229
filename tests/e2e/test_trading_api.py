"""Trading over the API, as users drive it: list, offer, accept, approve (or reject), per
program, and the roles that may act. The rules a sale is refused by are held by
tests/unit/services/trading/; the error answer of one (M-1's floor) is kept here."""

from __future__ import annotations

from typing import Any

from market.services.trust.ledger import verify
from tests.helpers import brrag_award, create_party, events, headers_for, tech_certificate

M = 100_000_000  # one million dollars in cents


class Market:
    """An authority, a seller and a buyer with their tokens."""

    def __init__(self, client: Any, seller_types: list[str] | None = None, **seller: Any) -> None:
        self.client = client
        self.engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.seller = create_party(
            client, self.auth, name="Seller Co", tax_types=seller_types or ["CBT"], **seller
        )
        self.buyer = create_party(client, self.auth, name="Buyer Co", tax_types=["CBT", "GIT"])
        self.seller_h = headers_for(client, self.engine, "participant", self.seller["id"])
        self.buyer_h = headers_for(client, self.engine, "participant", self.buyer["id"])

    def issue(self, **body: Any) -> dict[str, Any]:
        body.setdefault("holder_party_id", self.seller["id"])
        if body.get("program") == "BRRAG":
            body = brrag_award(int(body["face_cents"])) | body
        r = self.client.post("/api/v1/certificates", json=body, headers=self.auth)
        assert r.status_code == 201, r.json
        return r.json  # type: ignore[no-any-return]

    def post(self, path: str, headers: dict[str, str], body: Any = None) -> Any:
        return self.client.post(path, json=body if body is not None else {}, headers=headers)

    def get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        return self.client.get(path, headers=headers or self.auth)

    def list_(self, cert_id: str, amount: int, ask: int) -> dict[str, Any]:
        r = self.post(
            "/api/v1/listings",
            self.seller_h,
            {"certificate_id": cert_id, "amount_cents": amount, "ask_cents": ask},
        )
        assert r.status_code == 201, r.json
        return r.json  # type: ignore[no-any-return]

    def offer(self, listing_id: str, amount: int, price: int, headers: Any = None) -> Any:
        return self.post(
            f"/api/v1/listings/{listing_id}/offers",
            headers or self.buyer_h,
            {"amount_cents": amount, "price_cents": price},
        )

    def negotiate(self, cert_id: str, amount: int, price: int, buyer_id: str | None = None) -> Any:
        return self.post(
            "/api/v1/transfers",
            self.seller_h,
            {
                "certificate_id": cert_id,
                "buyer_party_id": buyer_id or self.buyer["id"],
                "amount_cents": amount,
                "consideration_cents": price,
            },
        )

    def confirm(self, transfer: dict[str, Any]) -> dict[str, Any]:
        """The buyer consents to a negotiated transfer (PRODUCT.md 8.2)."""
        assert transfer["status"] == "awaiting_buyer", transfer
        r = self.post(f"/api/v1/transfers/{transfer['id']}/confirm", self.buyer_h)
        assert r.status_code == 200 and r.json["status"] == "pending_approval", r.json
        return r.json  # type: ignore[no-any-return]

    def cert(self, cert_id: str) -> dict[str, Any]:
        r = self.get(f"/api/v1/certificates/{cert_id}")
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]


def test_brrag_listing_offer_accept_approve_end_to_end(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=5 * M, fiscal_year=2014, credit_year=2013)
    listing = m.list_(cert["id"], 2 * M, 180 * 10**6)
    assert listing["status"] == "open" and listing["price_per_dollar"] == "9/10"
    assert listing["floor_bps"] == 7500 and listing["program"] == "BRRAG"
    market = m.get("/api/v1/listings", m.buyer_h).json
    assert [item["id"] for item in market["items"]] == [listing["id"]]
    assert m.get("/api/v1/listings?program=UTH", m.buyer_h).json["items"] == []

    offer = m.offer(listing["id"], 2 * M, 150 * 10**6)
    assert offer.status_code == 201, offer.json
    assert offer.json["status"] == "open" and offer.json["buyer_party_id"] == m.buyer["id"]
    accepted = m.post(f"/api/v1/offers/{offer.json['id']}/accept", m.seller_h)
    assert accepted.status_code == 201, accepted.json
    transfer = accepted.json["transfer"]
    assert accepted.json["status"] == "accepted" and transfer["status"] == "pending_approval"
    assert m.cert(cert["id"])["balance_cents"] == 5 * M  # nothing moves before approval

    approved = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth)
    assert approved.status_code == 200, approved.json
    t = approved.json
    assert t["status"] == "approved" and t["exchange_date"]
    assert t["price_per_dollar"] == "3/4"
    assert all(c["passed"] for c in t["checks"])
    assert {c["rule"] for c in t["checks"]} >= {
        "balance",
        "no_resale",
        "minimum_consideration",
        "buyer_tax_types",
        "affiliation",
    }
    assert t["hq_window_end"] is None

    seller_cert = m.cert(cert["id"])
    assert (seller_cert["balance_cents"], seller_cert["transferred_cents"]) == (3 * M, 2 * M)
    assert seller_cert["status"] == "issued"
    buyer_cert = m.get(f"/api/v1/certificates/{t['buyer_certificate_id']}", m.buyer_h).json
    assert buyer_cert["parent_id"] == cert["id"] and buyer_cert["root_id"] == cert["id"]
    assert buyer_cert["number"] == f"{cert['number']}-T1"
    assert buyer_cert["is_original"] is False and buyer_cert["origin"] == "transfer"
    assert buyer_cert["holder_party_id"] == m.buyer["id"]
    assert buyer_cert["face_cents"] == buyer_cert["balance_cents"] == 2 * M
    assert buyer_cert["carryover_last_year"] == seller_cert["carryover_last_year"]
    assert buyer_cert["lineage"]["ancestors"][0]["id"] == cert["id"]
    assert seller_cert["lineage"]["children"][0]["id"] == buyer_cert["id"]
    assert m.get("/api/v1/listings", m.buyer_h).json["items"] == []  # sold: no longer open

    # A transfer that is no longer pending cannot be decided again.
    again = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth)
    assert again.status_code == 409
    # Selling the rest exhausts the certificate.
    rest = m.negotiate(cert["id"], 3 * M, 225 * 10**6)
    assert rest.status_code == 201, rest.json
    m.confirm(rest.json)
    assert m.post(f"/api/v1/transfers/{rest.json['id']}/approve", m.auth).status_code == 200
    assert m.cert(cert["id"])["status"] == "exhausted"
    assert verify(m.engine).ok


def test_uth_minimum_consideration_m1_figures(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="UTH", face_cents=24 * M, fiscal_year=2014, tax_periods=[2013])
    listing = m.list_(cert["id"], 240 * 10**6, 190 * 10**6)
    before = events(m.engine)
    refused = m.offer(listing["id"], 240 * 10**6, 179 * 10**6)
    assert refused.status_code == 422
    error = refused.json["error"]
    assert error["code"] == "below_minimum_consideration"
    assert error["details"]["floor_cents"] == 180 * 10**6
    assert error["details"]["ratio_percent"] == "74.5833%"
    assert events(m.engine) == before

    offer = m.offer(listing["id"], 240 * 10**6, 180 * 10**6)
    assert offer.status_code == 201
    transfer = m.post(f"/api/v1/offers/{offer.json['id']}/accept", m.seller_h).json["transfer"]
    r = m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth)
    assert r.status_code == 200, r.json
    buyer_cert = m.cert(r.json["buyer_certificate_id"])
    assert buyer_cert["tax_periods"] == [
        {
            "period": 2013,
            "fiscal_year": 2013,  # UTH-13: a calendar-year period 2013 commences in FY 2013
            "cents": 240 * 10**6,
            "unsold_cents": 0,
            "carryforward_last_period": 2033,
            # UTH-27: bought before the 2013 annual review.
            "conditional": True,
        }
    ]
    seller_periods = m.cert(cert["id"])["tax_periods"]
    assert seller_periods[0]["unsold_cents"] == 0
    assert seller_periods[1]["unsold_cents"] == 240 * 10**6
    assert "Urban Transit Hub" in buyer_cert["waiver_statement"]


def test_dm_cbt_queued_cents_cannot_be_sold_until_allowed(client: Any) -> None:
    m = Market(client)
    m.issue(program="DM_CBT", face_cents=4 * M, fiscal_year=2014)
    cert = m.issue(program="DM_CBT", face_cents=3 * M, fiscal_year=2014)
    assert (cert["status"], cert["balance_cents"], cert["queued_cents"]) == (
        "partially_queued",
        M,
        2 * M,
    )
    listing = m.list_(cert["id"], M, 90 * 10**6)
    offer = m.offer(listing["id"], M, 80 * 10**6)
    transfer = m.post(f"/api/v1/offers/{offer.json['id']}/accept", m.seller_h).json["transfer"]
    assert m.post(f"/api/v1/transfers/{transfer['id']}/approve", m.auth).status_code == 200
    after = m.cert(cert["id"])
    # the allowed part is sold; the queued part still waits for FY2015
    assert (after["status"], after["balance_cents"], after["queued_cents"]) == (
        "partially_queued",
        0,
        2 * M,
    )
    m.issue(program="DM_CBT", face_cents=M, fiscal_year=2015)  # rolls the pool
    rolled = m.cert(cert["id"])
    assert (rolled["status"], rolled["balance_cents"], rolled["queued_cents"]) == (
        "issued",
        2 * M,
        0,
    )
    assert m.negotiate(cert["id"], 2 * M, 150 * 10**6).status_code == 201
    assert verify(m.engine).ok


def test_dm_git_negotiated_transfer_and_buyer_tax_types(client: Any) -> None:
    m = Market(client, seller_types=["GIT"])
    cert = m.issue(program="DM_GIT", face_cents=M, fiscal_year=2014)
    r = m.negotiate(cert["id"], 40 * 10**6, 30 * 10**6)  # M-4: 75% of the portion sold
    assert r.status_code == 201, r.json
    assert r.json["status"] == "awaiting_buyer" and r.json["offer_id"] is None
    m.confirm(r.json)
    approved = m.post(f"/api/v1/transfers/{r.json['id']}/approve", m.auth).json
    buyer_cert = m.cert(approved["buyer_certificate_id"])
    assert buyer_cert["program"] == "DM_GIT" and buyer_cert["tax_types"] == ["CBT", "GIT"]
    assert m.cert(cert["id"])["balance_cents"] == 60 * 10**6


def test_a_tech_sale_exchanged_on_a_date_opens_its_headquarters_window(client: Any) -> None:
    # The refusals of a TECH sale (TB-20 affiliation, the 80% floor, BR-10) are held by
    # tests/unit/services/trading/test_sale_rules.py.
    m = Market(client, us_employees=40, nj_full_time_employees=12, formed_on="2005-01-01")
    cert_id = tech_certificate(m.engine, m.seller["id"], 2 * M)
    listing = m.list_(cert_id, M, 90 * 10**6)
    other = create_party(m.client, m.auth, name="Unrelated", tax_types=["CBT"])
    other_h = headers_for(m.client, m.engine, "participant", other["id"])
    ok = m.offer(listing["id"], M, 80 * 10**6, headers=other_h)
    assert ok.status_code == 201, ok.json
    transfer = m.post(f"/api/v1/offers/{ok.json['id']}/accept", m.seller_h).json["transfer"]
    r = m.post(
        f"/api/v1/transfers/{transfer['id']}/approve", m.auth, {"exchange_date": "2014-03-03"}
    )
    assert r.status_code == 200, r.json
    assert r.json["hq_window_end"] == "2019-03-03" and r.json["exchange_date"] == "2014-03-03"
    assert any(c["rule"] == "seller_eligibility" and c["passed"] for c in r.json["checks"])


def test_rejection_records_reasons_after_a_recapture(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=M, fiscal_year=2014)
    first = m.confirm(m.negotiate(cert["id"], 40 * 10**6, 40 * 10**6).json)
    second = m.confirm(m.negotiate(cert["id"], 40 * 10**6, 40 * 10**6).json)
    # The two are within the balance when proposed; a recapture then takes 30% of it.
    recapture = {
        "party_id": m.seller["id"],
        "certificate_id": cert["id"],
        "amount_cents": 30 * 10**6,
        "reason": "Jobs not retained",
    }
    assert m.post("/api/v1/recaptures", m.auth, recapture).status_code == 201
    assert m.post(f"/api/v1/transfers/{first['id']}/approve", m.auth).status_code == 200
    # Approving the second is refused (insufficient_balance): tests/unit/services/trading.
    r = m.post(
        f"/api/v1/transfers/{second['id']}/reject",
        m.auth,
        {"reason": "The certificate no longer covers this amount."},
    )
    assert r.status_code == 200
    assert r.json["status"] == "rejected"
    assert r.json["reasons"] == ["The certificate no longer covers this amount."]
    assert (
        m.post(f"/api/v1/transfers/{second['id']}/reject", m.auth, {"reason": "again"}).status_code
        == 409
    )
    rejected = m.get("/api/v1/transfers?status=rejected").json["items"]
    assert [t["id"] for t in rejected] == [second["id"]]


def test_offer_limits_withdraw_and_decline(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=M, fiscal_year=2014)
    before = events(m.engine)
    listing = m.list_(cert["id"], 50 * 10**6, 45 * 10**6)
    r = m.offer(listing["id"], 10 * 10**6, 9 * 10**6, headers=m.seller_h)
    assert r.status_code == 422 and r.json["error"]["code"] == "invalid_request"
    r = m.offer(listing["id"], 10 * 10**6, -1)
    assert r.status_code == 400
    r = m.offer(listing["id"], 10 * 10**6, 9 * 10**6, headers=m.auth)
    assert r.status_code == 403
    assert events(m.engine) == before + 1

    offer = m.offer(listing["id"], 10 * 10**6, 9 * 10**6).json
    assert (
        m.post(f"/api/v1/offers/{offer['id']}/accept", m.buyer_h).status_code == 404
    )  # another party's: as if missing
    declined = m.post(f"/api/v1/offers/{offer['id']}/decline", m.seller_h)
    assert declined.status_code == 200 and declined.json["status"] == "declined"
    assert m.post(f"/api/v1/offers/{offer['id']}/accept", m.seller_h).status_code == 409

    assert (
        m.post(f"/api/v1/listings/{listing['id']}/withdraw", m.buyer_h).status_code == 404
    )  # another party's: as if missing
    w = m.post(f"/api/v1/listings/{listing['id']}/withdraw", m.seller_h)
    assert w.status_code == 200 and w.json["status"] == "withdrawn"
    assert m.post(f"/api/v1/listings/{listing['id']}/withdraw", m.seller_h).status_code == 409
    assert m.offer(listing["id"], M // 10, M // 10).status_code == 409
    assert m.post("/api/v1/offers/ofr_missing/accept", m.seller_h).status_code == 404


def test_roles_for_transfers(client: Any) -> None:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=M, fiscal_year=2014)
    outsider = create_party(m.client, m.auth, name="Outsider")
    outsider_h = headers_for(m.client, m.engine, "participant", outsider["id"])
    auditor = headers_for(m.client, m.engine, "auditor")
    before = events(m.engine)
    for h, status in ((m.buyer_h, 404), (outsider_h, 404), (auditor, 403)):
        r = m.post(
            "/api/v1/listings", h, {"certificate_id": cert["id"], "amount_cents": M, "ask_cents": M}
        )
        assert r.status_code == status  # another party's certificate: as if missing
    assert (
        m.post(
            "/api/v1/transfers",
            auditor,
            {
                "certificate_id": cert["id"],
                "buyer_party_id": m.buyer["id"],
                "amount_cents": M,
                "consideration_cents": M,
            },
        ).status_code
        == 403
    )
    t = m.confirm(m.negotiate(cert["id"], M, M).json)
    count = events(m.engine)
    assert count > before
    for h in (m.seller_h, m.buyer_h, auditor):
        assert m.post(f"/api/v1/transfers/{t['id']}/approve", h).status_code == 403
        assert m.post(f"/api/v1/transfers/{t['id']}/reject", h, {"reason": "no"}).status_code == 403
        assert m.get(f"/api/v1/transfers/{t['id']}", h).status_code == 200
    assert events(m.engine) == count
    assert m.get(f"/api/v1/transfers/{t['id']}", outsider_h).status_code == 404  # as if missing
    assert m.get("/api/v1/transfers", outsider_h).json["items"] == []
    own = m.get("/api/v1/transfers", m.buyer_h).json["items"]
    assert t["id"] in [x["id"] for x in own]
    assert m.get("/api/v1/transfers/trf_missing").status_code == 404
    r = m.post(f"/api/v1/transfers/{t['id']}/reject", m.auth, {})
    assert r.status_code == 400  # a reason is required
