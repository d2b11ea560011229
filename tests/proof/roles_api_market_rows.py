"""The API role matrix's second part, after roles_api_rows.py's `RECORD_ROWS`: the market's
listings and offers, negotiated transfers, reports, the ledger and its trust, notices and
market information, funding, and last the token's revocation.
"""

from __future__ import annotations

from typing import Any

from tests.helpers import brrag_award
from tests.proof.roles_api_rows import ADMIN, LEDGER, Request, Row, get, post, readers
from tests.proof.roles_world import Matrix, statuses
from tests.proof.world import M


def _fresh_transfer(action: str, body: Any, confirmed: bool = True) -> Request:
    return lambda m, role: (
        "POST",
        f"/api/v1/transfers/{m.new_transfer(confirmed)['id']}/{action}",
        body,
    )


def _fresh_offer(action: str) -> Request:
    return lambda m, role: ("POST", f"/api/v1/offers/{m.new_offer()['id']}/{action}", {})


_COUNTER = {"amount_cents": M // 10, "price_cents": M // 10}


def _fresh_counter(action: str) -> Request:
    """A fresh offer the owner (its seller) has countered, for the buyer's answer."""

    def request(m: Matrix, role: str) -> tuple[str, str, Any]:
        offer = m.new_offer()
        path = f"/api/v1/offers/{offer['id']}/counter"
        countered = m.client.post(path, json=_COUNTER, headers=m.headers["owner"])
        assert countered.status_code == 200, countered.json
        return "POST", f"/api/v1/offers/{offer['id']}/counter/{action}", {}

    return request


def _fresh_certificate(m: Matrix) -> dict[str, Any]:
    body = {"program": "BRRAG", "holder_party_id": m.owner["id"], "face_cents": M}
    return m.post("/api/v1/certificates", m.auth, body | {"fiscal_year": 2016} | brrag_award(M))


def _fresh_notice_request(action: str) -> Request:
    """A notice on a certificate of its own, so that the halt stops nothing else here."""

    def request(m: Matrix, role: str) -> tuple[str, str, Any]:
        cert = _fresh_certificate(m)
        body = {"kind": "recapture", "reason": "matrix"}
        if action == "issue":
            return "POST", f"/api/v1/certificates/{cert['id']}/notices", body
        notice = m.post(f"/api/v1/certificates/{cert['id']}/notices", m.auth, body)
        return "POST", f"/api/v1/certificates/{cert['id']}/notices/{notice['id']}/lift", {}

    return request


def _paid_transfer_confirm(m: Matrix, role: str) -> tuple[str, str, Any]:
    transfer = m.new_transfer()
    payment = {"reference": "W-2", "amount_cents": M // 100, "paid_on": "2014-01-02"}
    m.post(f"/api/v1/transfers/{transfer['id']}/payment", m.buyer_h, payment)
    return "POST", f"/api/v1/transfers/{transfer['id']}/payment/confirm", {}


MARKET_ROWS = [
    Row(
        "listings: create",
        lambda m, role: ("POST", "/api/v1/listings", m._listing_body()),
        {"authority": 201, "auditor": 403, "owner": 201, "other": 404, "anonymous": 401},
    ),
    Row("listings: browse", get(lambda m: "/api/v1/listings"), statuses(200), market=True),
    Row(
        "listing: withdraw",
        lambda m, role: ("POST", f"/api/v1/listings/{m.new_listing()['id']}/withdraw", {}),
        {"authority": 200, "auditor": 403, "owner": 200, "other": 404, "anonymous": 401},
    ),
    Row(
        "listing: offer",
        lambda m, role: (
            "POST",
            f"/api/v1/listings/{m.new_listing()['id']}/offers",
            {"amount_cents": M // 10, "price_cents": M // 10},
        ),
        # The owner cannot buy its own certificate; another participant may bid.
        {"authority": 403, "auditor": 403, "owner": 422, "other": 201, "anonymous": 401},
        market=True,
    ),
    Row(
        "offer: accept",
        _fresh_offer("accept"),
        {"authority": 201, "auditor": 403, "owner": 201, "other": 404, "anonymous": 401},
    ),
    Row(
        "offer: decline",
        _fresh_offer("decline"),
        {"authority": 200, "auditor": 403, "owner": 200, "other": 404, "anonymous": 401},
    ),
    Row(
        "offer: counter",
        lambda m, role: ("POST", f"/api/v1/offers/{m.new_offer()['id']}/counter", _COUNTER),
        {"authority": 200, "auditor": 403, "owner": 200, "other": 404, "anonymous": 401},
    ),
    # The counter's answer is the buyer's alone (B, not in the matrix): the seller and the
    # Authority are refused, another participant told it does not exist.
    Row(
        "offer: accept the counter",
        _fresh_counter("accept"),
        {"authority": 403, "auditor": 403, "owner": 403, "other": 404, "anonymous": 401},
    ),
    Row(
        "offer: decline the counter",
        _fresh_counter("decline"),
        {"authority": 403, "auditor": 403, "owner": 403, "other": 404, "anonymous": 401},
    ),
    Row(
        "transfers: negotiate",
        lambda m, role: (
            "POST",
            "/api/v1/transfers",
            {
                "certificate_id": m.cert["id"],
                "buyer_party_id": m.buyer["id"],
                "amount_cents": M // 100,
                "consideration_cents": M // 100,
            },
        ),
        {"authority": 201, "auditor": 403, "owner": 201, "other": 404, "anonymous": 401},
    ),
    Row("transfers: list", get(lambda m: "/api/v1/transfers"), statuses(200)),
    Row("transfer: get", get(lambda m: f"/api/v1/transfers/{m.transfer['id']}"), readers()),
    Row(
        "transfer: approve",
        _fresh_transfer("approve", {}),
        {"authority": 200, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    # The buyer's consent is its own: not the seller's, not even the Authority's (B alone,
    # outside this matrix's roles, may give it; tests/e2e/test_buyer_consent_api.py).
    Row(
        "transfer: confirm",
        _fresh_transfer("confirm", {}, confirmed=False),
        # Other has no part in it: told it does not exist (issue 27, no oracle).
        {"authority": 403, "auditor": 403, "owner": 403, "other": 404, "anonymous": 401},
    ),
    Row(
        "transfer: decline",
        _fresh_transfer("decline", {}, confirmed=False),
        {"authority": 403, "auditor": 403, "owner": 403, "other": 404, "anonymous": 401},
    ),
    Row(
        "transfer: reject",
        _fresh_transfer("reject", {"reason": "matrix"}),
        {"authority": 200, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row("caps report", get(lambda m: "/api/v1/reports/caps?fiscal_year=2014"), statuses(200)),
    Row("transfers.csv", get(lambda m: "/api/v1/reports/transfers.csv"), LEDGER),
    *(
        Row(
            f"statutory {name}",
            get(lambda m, name=name: f"/api/v1/reports/statutory/{name}?fiscal_year=2015"),
            LEDGER,
        )
        for name in (
            "tech-program",
            "tech-program.csv",
            "digital-media",
            "digital-media.csv",
            "distribution",
            "distribution.csv",
        )
    ),
    Row("events", get(lambda m: "/api/v1/events"), LEDGER),
    Row("verify", get(lambda m: "/api/v1/ledger/verify"), LEDGER),
    # Trust (PRODUCT.md 8.1): key and checkpoints public, proofs for the ledger's readers.
    Row("public key", get(lambda m: "/api/v1/ledger/public-key"), statuses(200, anonymous=200)),
    Row("checkpoint: make", post(lambda m: "/api/v1/ledger/checkpoints"), ADMIN),
    Row(
        "checkpoints",
        get(lambda m: "/api/v1/ledger/checkpoints"),
        statuses(200, anonymous=200),
    ),
    Row(
        "checkpoint: latest",
        get(lambda m: "/api/v1/ledger/checkpoints/latest"),
        statuses(200, anonymous=200),
    ),
    # Hashes only: anyone (PRODUCT.md 9.3).
    Row(
        "inclusion proof",
        get(lambda m: "/api/v1/ledger/proofs/inclusion?seq=1"),
        statuses(200, anonymous=200),
    ),
    Row(
        "consistency proof",
        get(lambda m: "/api/v1/ledger/proofs/consistency?from=1&to=2"),
        statuses(200, anonymous=200),
    ),
    # ---- market information and risk (PRODUCT.md 8.3) ----
    Row("notices: issue", _fresh_notice_request("issue"), ADMIN),
    Row("notices: list", get(lambda m: f"/api/v1/certificates/{m.cert['id']}/notices"), LEDGER),
    Row(
        "notice: lift",
        _fresh_notice_request("lift"),
        {"authority": 200, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row("price tape", get(lambda m: "/api/v1/public/price-tape"), statuses(200, anonymous=200)),
    Row(
        "tech: simulation", get(lambda m: "/api/v1/tech/allocations/2013/simulation"), statuses(200)
    ),
    Row(
        "calculator: tech",
        post(
            lambda m: "/api/v1/calculator/tech",
            lambda m: {"amount_cents": M, "price_cents": M // 2, "liability_cents": M},
        ),
        statuses(200),
    ),
    Row("covenants", get(lambda m: "/api/v1/monitor/covenants"), LEDGER),
    Row(
        "funding: pay",
        _fresh_transfer(
            "payment", {"reference": "W-1", "amount_cents": M // 100, "paid_on": "2014-01-02"}
        ),
        # The buyer's step (B is not in the matrix's roles): the seller may not record it.
        {"authority": 201, "auditor": 403, "owner": 403, "other": 404, "anonymous": 401},
    ),
    Row(
        "funding: confirm",
        _paid_transfer_confirm,
        {"authority": 200, "auditor": 403, "owner": 200, "other": 404, "anonymous": 401},
    ),
    Row("funding: get", get(lambda m: f"/api/v1/transfers/{m.transfer['id']}/funding"), readers()),
    # Last: it revokes the token each role has used so far.
    Row("token: revoke", post(lambda m: "/api/v1/auth/revoke"), statuses(200)),
    Row("after revoke", get(lambda m: "/api/v1/reports/caps?fiscal_year=2014"), statuses(401)),
]
