"""Role matrix: every API endpoint and every page against anonymous, authority, auditor,
the owning participant and another participant: the expected status each time, the error
shape on refusals, and no other party's data in any participant's response."""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from market.services import identity
from market.services.ledger import verify
from tests.helpers import brrag_award, create_party, headers_for
from tests.proof.world import M, event_count

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

    def owner_webhook(self) -> str:
        if "webhook" not in self.__dict__:
            body = {"url": "https://93.184.216.34/hook", "event_types": ["*"]}
            self.webhook = self.post("/api/v1/webhooks", self.headers["owner"], body)["id"]
        return str(self.webhook)


Request = Callable[[Matrix, str], tuple[str, str, Any]]


@dataclass(frozen=True)
class Row:
    name: str
    request: Request  # (matrix, role) -> (method, path, json body or None)
    expect: dict[str, int]  # role -> status
    market: bool = False  # public market data (see Matrix.secrets_hidden_from)


def _all(status: int, anonymous: int = 401, **by_role: int) -> dict[str, int]:
    return {"anonymous": anonymous} | dict.fromkeys(ROLES[1:], status) | by_role


# Another participant's record answers 404, as one that does not exist would (no
# existence oracle; tests/proof/test_no_oracle.py compares the bodies). It was 403.
def _readers(owner: int = 200, other: int = 404) -> dict[str, int]:
    return _all(200, owner=owner, other=other)


ADMIN = {"authority": 201, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401}
LEDGER = {"authority": 200, "auditor": 200, "owner": 403, "other": 403, "anonymous": 401}


def _get(path: Callable[[Matrix], str]) -> Request:
    return lambda m, role: ("GET", path(m), None)


def _post(path: Callable[[Matrix], str], body: Callable[[Matrix], Any] = lambda m: {}) -> Request:
    return lambda m, role: ("POST", path(m), body(m))


def _fresh_transfer(action: str, body: Any, confirmed: bool = True) -> Request:
    return lambda m, role: (
        "POST",
        f"/api/v1/transfers/{m.new_transfer(confirmed)['id']}/{action}",
        body,
    )


def _fresh_offer(action: str) -> Request:
    return lambda m, role: ("POST", f"/api/v1/offers/{m.new_offer()['id']}/{action}", {})


def _new_party(m: Matrix) -> dict[str, Any]:
    tax_id = f"99-{uuid.uuid4().hex[:7]}"
    return {"name": "New Co", "tax_id": tax_id, "entity_type": "llc", "tax_types": ["CBT"]}


def _new_individual() -> dict[str, Any]:
    tax_id = f"98-{uuid.uuid4().hex[:7]}"
    return {
        "name": "Ann Buyer",
        "tax_id": tax_id,
        "entity_type": "individual",
        "tax_types": ["GIT"],
    }


def _fresh_owners_agreement(m: Matrix, role: str) -> tuple[str, str, Any]:
    """A new partnership with B as its recorded owner, and B's agreed share of it."""
    firm = m.post("/api/v1/parties", m.auth, _new_party(m) | {"entity_type": "partnership"})
    stake = {"owner_party_id": m.buyer["id"], "voting_bps": 10_000, "value_bps": 10_000}
    m.post(f"/api/v1/parties/{firm['id']}/owners", m.auth, stake)
    shares = [{"owner_party_id": m.buyer["id"], "share_bps": 10_000}]
    body = {"shares": shares, "filed_on": "2014-01-15", "reference": "D-1"}
    return "POST", f"/api/v1/parties/{firm['id']}/owners-agreement", body


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


ROWS = [
    Row("openapi", _get(lambda m: "/api/v1/openapi.json"), _all(200, anonymous=200)),
    Row("docs", _get(lambda m: "/api/v1/docs"), _all(200, anonymous=200)),
    Row(
        "token: wrong password",
        _post(lambda m: "/api/v1/auth/token", lambda m: {"email": "x@y.org", "password": "nope"}),
        _all(401, anonymous=401),
    ),
    Row("parties: create", _post(lambda m: "/api/v1/parties", _new_party), ADMIN),
    Row("parties: list", _get(lambda m: "/api/v1/parties"), _all(200)),
    Row("party: get", _get(lambda m: f"/api/v1/parties/{m.owner['id']}"), _readers()),
    Row(
        "party: owners",
        _post(
            lambda m: f"/api/v1/parties/{m.owner['id']}/owners",
            lambda m: {"owner_party_id": m.buyer["id"], "voting_bps": 100, "value_bps": 100},
        ),
        ADMIN,
    ),
    Row("party: owners' agreement", _fresh_owners_agreement, ADMIN),
    Row(
        "party: affiliation",
        _get(lambda m: f"/api/v1/parties/{m.owner['id']}/affiliation/{m.buyer['id']}"),
        LEDGER | {"auditor": 403},
    ),
    Row(
        "party: certificates",
        _get(lambda m: f"/api/v1/parties/{m.owner['id']}/certificates"),
        _readers(),
    ),
    Row(
        "certificates: issue",
        _post(
            lambda m: "/api/v1/certificates",
            lambda m: {
                "program": "BRRAG",
                "holder_party_id": m.owner["id"],
                "face_cents": M,
                "fiscal_year": 2015,
            }
            | brrag_award(M),
        ),
        ADMIN,
    ),
    Row("certificate: get", _get(lambda m: f"/api/v1/certificates/{m.cert['id']}"), _readers()),
    # The same events as the certificate's history, so next to it.
    Row(
        "certificate proof",
        _get(lambda m: f"/api/v1/certificates/{m.cert['id']}/proof"),
        _readers(other=404),
    ),
    Row(
        "certificate: pass-through",
        _post(lambda m: f"/api/v1/certificates/{m.cert['id']}/pass-through"),
        # A C corporation's own certificate cannot pass through: refused by the rule.
        {"authority": 422, "auditor": 403, "owner": 422, "other": 404, "anonymous": 401},
    ),
    Row(
        "certificate: UTH annual review",
        _post(
            lambda m: f"/api/v1/certificates/{m.cert['id']}/reviews",
            lambda m: {"tax_period": 2014, "finding": "approved"},
        ),
        # The matrix certificate is not a UTH award: the Authority is refused with a 409.
        {"authority": 409, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row(
        "credit application",
        _post(
            lambda m: "/api/v1/credit-applications",
            lambda m: {
                "certificate_id": m.cert["id"],
                "tax_type": "CBT",
                "tax_year": 2015,
                "liability_cents": M,
                "amount_cents": M // 100,
            },
        ),
        # The original holder waived its own claim: refused by the rule (CMN-4(d)).
        {"authority": 422, "auditor": 403, "owner": 422, "other": 404, "anonymous": 401},
    ),
    Row(
        "party: director's exception (PT-7)",
        lambda m, role: (
            "POST",
            f"/api/v1/parties/{m.post('/api/v1/parties', m.auth, _new_individual())['id']}"
            "/director-exception",
            {"reason": "matrix"},
        ),
        ADMIN,
    ),
    Row(
        "recaptures",
        _post(
            lambda m: "/api/v1/recaptures",
            lambda m: {"party_id": m.owner["id"], "amount_cents": 100, "reason": "matrix"},
        ),
        ADMIN,
    ),
    Row(
        "tech: apply",
        # TB-6: only the Authority records a paper filing's receipt; a seller's is stamped.
        lambda m, role: (
            "POST",
            "/api/v1/tech/applications",
            {
                "party_id": m.owner["id"],
                "nol_cents": 0,
                "allocation_factor": "1",
                "seller_tax_regime": "CBT",
                "rnd_credit_cents": 1_000_000,
                "in_innovation_zone": False,
            }
            | (
                {"received_on": "2013-03-16", "receipt_reason": "Paper filing"}
                if role == "authority"
                else {}
            ),
        ),
        {"authority": 201, "auditor": 403, "owner": 201, "other": 404, "anonymous": 401},
    ),
    Row("tech: list", _get(lambda m: "/api/v1/tech/applications"), _all(200)),
    Row(
        "tech: get",
        _get(lambda m: f"/api/v1/tech/applications/{m.application['id']}"),
        _readers(),
    ),
    Row(
        "tech: preview",
        _post(lambda m: "/api/v1/tech/allocations/2013/preview"),
        LEDGER | {"auditor": 403},
    ),
    Row(
        "tech: allocation",
        _get(lambda m: "/api/v1/tech/allocations/2013"),
        _all(404, owner=403, other=403),  # not committed yet: the commit row comes next
    ),
    Row("tech: commit", _post(lambda m: "/api/v1/tech/allocations/2013"), ADMIN),
    # Before any row makes "other" a party to the owner's deals (its offer, below).
    Row("audit: users", _get(lambda m: "/api/v1/audit/users"), LEDGER),
    Row(
        "audit: a user's events",
        _get(lambda m: f"/api/v1/audit/users/{m.owner_user()}/events"),
        LEDGER,
    ),
    Row("notifications: list", _get(lambda m: "/api/v1/notifications"), _all(200)),
    Row(
        "notification: read",
        _post(lambda m: f"/api/v1/notifications/{m.owner_notification()}/read"),
        _all(404, owner=200),  # someone else's notice answers as one that does not exist
    ),
    Row(
        "deals: mine", _get(lambda m: "/api/v1/deals?side=seller"), _all(403, owner=200, other=200)
    ),
    Row("offer: get", _get(lambda m: f"/api/v1/offers/{m.offer['id']}"), _readers(other=404)),
    Row(
        "credit application: get",
        _get(lambda m: "/api/v1/credit-applications/capp_none"),
        _all(404),
    ),
    Row(
        "public status",
        _get(lambda m: f"/api/v1/public/status/{m.reference()}"),
        _all(200, anonymous=200),
    ),
    Row(
        "webhooks: create",
        _post(
            lambda m: "/api/v1/webhooks",
            lambda m: {"url": "https://93.184.216.34/hook", "event_types": ["*"]},
        ),
        _all(201, auditor=403),
    ),
    Row(
        "webhook: get",
        _get(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}"),
        _all(404, authority=200, owner=200),
    ),
    Row(
        "webhook: deliveries",
        _get(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/deliveries"),
        _all(404, authority=200, owner=200),
    ),
    Row(
        "webhook: replay",
        _post(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/replay", lambda m: {"from_seq": 1}),
        _all(404, authority=200, owner=200),
    ),
    Row(
        "listings: create",
        lambda m, role: ("POST", "/api/v1/listings", m._listing_body()),
        {"authority": 201, "auditor": 403, "owner": 201, "other": 404, "anonymous": 401},
    ),
    Row("listings: browse", _get(lambda m: "/api/v1/listings"), _all(200), market=True),
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
    Row("transfers: list", _get(lambda m: "/api/v1/transfers"), _all(200)),
    Row("transfer: get", _get(lambda m: f"/api/v1/transfers/{m.transfer['id']}"), _readers()),
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
        {"authority": 403, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row(
        "transfer: decline",
        _fresh_transfer("decline", {}, confirmed=False),
        {"authority": 403, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row(
        "transfer: reject",
        _fresh_transfer("reject", {"reason": "matrix"}),
        {"authority": 200, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row("caps report", _get(lambda m: "/api/v1/reports/caps?fiscal_year=2014"), _all(200)),
    Row("transfers.csv", _get(lambda m: "/api/v1/reports/transfers.csv"), LEDGER),
    Row("events", _get(lambda m: "/api/v1/events"), LEDGER),
    Row("verify", _get(lambda m: "/api/v1/ledger/verify"), LEDGER),
    # Trust (PRODUCT.md 8.1): key and checkpoints public, proofs for the ledger's readers.
    Row("public key", _get(lambda m: "/api/v1/ledger/public-key"), _all(200, anonymous=200)),
    Row("checkpoint: make", _post(lambda m: "/api/v1/ledger/checkpoints"), ADMIN),
    Row(
        "checkpoints",
        _get(lambda m: "/api/v1/ledger/checkpoints"),
        _all(200, anonymous=200),
    ),
    Row(
        "checkpoint: latest",
        _get(lambda m: "/api/v1/ledger/checkpoints/latest"),
        _all(200, anonymous=200),
    ),
    Row("inclusion proof", _get(lambda m: "/api/v1/ledger/proofs/inclusion?seq=1"), LEDGER),
    Row(
        "consistency proof",
        _get(lambda m: "/api/v1/ledger/proofs/consistency?from=1&to=2"),
        LEDGER,
    ),
    # ---- market information and risk (PRODUCT.md 8.3) ----
    Row("notices: issue", _fresh_notice_request("issue"), ADMIN),
    Row("notices: list", _get(lambda m: f"/api/v1/certificates/{m.cert['id']}/notices"), LEDGER),
    Row(
        "notice: lift",
        _fresh_notice_request("lift"),
        {"authority": 200, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row("price tape", _get(lambda m: "/api/v1/public/price-tape"), _all(200, anonymous=200)),
    Row("tech: simulation", _get(lambda m: "/api/v1/tech/allocations/2013/simulation"), _all(200)),
    Row(
        "calculator: tech",
        _post(
            lambda m: "/api/v1/calculator/tech",
            lambda m: {"amount_cents": M, "price_cents": M // 2, "liability_cents": M},
        ),
        _all(200),
    ),
    Row("covenants", _get(lambda m: "/api/v1/monitor/covenants"), LEDGER),
    Row(
        "funding: pay",
        _fresh_transfer(
            "payment", {"reference": "W-1", "amount_cents": M // 100, "paid_on": "2014-01-02"}
        ),
        # The buyer's step (B is not in the matrix's roles): the seller may not record it.
        {"authority": 201, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row(
        "funding: confirm",
        _paid_transfer_confirm,
        {"authority": 200, "auditor": 403, "owner": 200, "other": 403, "anonymous": 401},
    ),
    Row(
        "funding: get", _get(lambda m: f"/api/v1/transfers/{m.transfer['id']}/funding"), _readers()
    ),
    # Last: it revokes the token each role has used so far.
    Row("token: revoke", _post(lambda m: "/api/v1/auth/revoke"), _all(200)),
    Row("after revoke", _get(lambda m: "/api/v1/reports/caps?fiscal_year=2014"), _all(401)),
]


def test_every_endpoint_answers_each_role_as_specified(client: Any) -> None:
    m = Matrix(client)
    covered = {(method, path) for method, path in _api_rules(client)}
    rows_by_route = set()
    mismatches: list[str] = []
    leaks: list[str] = []
    for row in ROWS:
        for role in ROLES:
            method, path, body = row.request(m, role)
            rows_by_route.add((method, _template(client, method, path)))
            before = event_count(m.engine)
            r = m.client.open(path, method=method, json=body, headers=m.headers[role])
            status, text = r.status_code, r.get_data(as_text=True)
            asked = f"{path} {body}"
            if status != row.expect[role]:
                mismatches.append(f"{row.name} as {role}: {status}, expected {row.expect[role]}")
            if status >= 400 and path.startswith("/api/"):
                assert '"error"' in text and '"code"' in text, (row.name, role, text[:200])
                assert event_count(m.engine) <= before + 2  # only the fresh fixtures' events
            for secret in m.secrets_hidden_from(role, row.market):
                if secret in text and secret not in asked:  # an echo of the request is not a leak
                    leaks.append(f"{row.name} as {role}: contains {secret!r}: {text[:300]}")
    assert not mismatches, "\n".join(mismatches)
    assert not leaks, "\n".join(leaks)
    # Every API route is in the matrix (a new endpoint needs its row).
    assert covered <= rows_by_route, sorted(covered - rows_by_route)
    assert verify(m.engine).ok


def _api_rules(client: Any) -> list[tuple[str, str]]:
    out = []
    for rule in client.application.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                out.append((method, rule.rule))
    return out


def _template(client: Any, method: str, path: str) -> str:
    adapter = client.application.url_map.bind("localhost")
    rule, _ = adapter.match(path.split("?")[0], method=method, return_rule=True)
    return str(rule.rule)


# ---- pages ------------------------------------------------------------------------------

AUTHORITY_ONLY = {"anonymous": 302, "authority": 200, "auditor": 403, "owner": 403, "other": 403}
PARTICIPANTS = {"anonymous": 302, "authority": 403, "auditor": 403, "owner": 200, "other": 200}
SIGNED_IN = _all(200, anonymous=302)
AUDIT = {"anonymous": 302, "authority": 200, "auditor": 200, "owner": 403, "other": 403}
PAGES: dict[str, dict[str, int]] = {
    "/": dict.fromkeys(ROLES, 302),  # to /login, or to the role's home page
    "/login": dict.fromkeys(ROLES, 200),
    "/login/code": dict.fromkeys(ROLES, 302),  # no password step pending: to /login or home
    "/account": SIGNED_IN,
    "/ledger": AUDIT,
    "/reports/caps": SIGNED_IN,
    "/reports/transfers": AUDIT,
    "/reports/transfers.csv": AUDIT,
    "/certificates/{cert}": {**AUDIT, "owner": 200, "other": 404},  # as if it did not exist
    "/certificates/{cert}/print": {**AUDIT, "owner": 200, "other": 404},
    "/certificates/{cert}/proof.json": {**AUDIT, "owner": 200},
    "/certificates/{cert}/proof": {**AUDIT, "owner": 200},  # the printed QR's address
    "/market": SIGNED_IN,
    "/buyer": PARTICIPANTS,
    "/seller": PARTICIPANTS,
    "/authority": AUTHORITY_ONLY,
    "/authority/allocations": {**AUTHORITY_ONLY, "authority": 302},  # to the latest FY
    "/authority/allocations/{fy}": AUTHORITY_ONLY,
    "/notifications": SIGNED_IN,
    "/audit": AUDIT,
    "/deals/buying": PARTICIPANTS,
    "/deals/selling": PARTICIPANTS,
    "/deals/transfers/{transfer}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/offers/{offer}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/tech/{application}": {**AUDIT, "owner": 200, "other": 404},
    "/deals/credit-applications/{credit}": _all(404, anonymous=302),
    "/status": dict.fromkeys(ROLES, 200),
    "/status/{reference}": dict.fromkeys(ROLES, 200),
    "/password/forgot": dict.fromkeys(ROLES, 200),
    "/password/reset/{reset}": dict.fromkeys(ROLES, 400),  # no such link
    # market information and risk (PRODUCT.md 8.3)
    "/price-tape": dict.fromkeys(ROLES, 200),
    "/tech/cap-meter": SIGNED_IN,
    "/calculator/tech": SIGNED_IN,
    "/closing": SIGNED_IN,
    "/monitor/covenants": AUDIT,
    "/authority/parties": AUTHORITY_ONLY,
    "/authority/users": AUTHORITY_ONLY,
}
# Page templates' placeholders and the URL rule variables they stand for.
PLACEHOLDERS = {
    "{cert}": "<certificate_id>",
    "{fy}": "<int:fy>",
    "{transfer}": "<transfer_id>",
    "{offer}": "<offer_id>",
    "{application}": "<application_id>",
    "{credit}": "<application_id>",
    "{reference}": "<reference>",
    "{reset}": "<token>",
}
# Pages that show the open market: the seller's ids, name and listed certificate are
# part of an offer to sell (as on GET /api/v1/listings).
MARKET_PAGES = {"/market", "/buyer"}


def _sign_in(app: Any, client: Any, engine: Any, role: str, party_id: str | None) -> Any:
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


def test_every_page_answers_each_role_as_specified(app: Any, client: Any) -> None:
    m = Matrix(client)
    parties = {"owner": m.owner["id"], "other": m.other["id"]}
    page_rules = {
        r.rule
        for r in app.url_map.iter_rules()
        if not r.rule.startswith(("/api/", "/static/")) and "GET" in r.methods
    }
    named = set()
    for p in PAGES:
        for placeholder, variable in PLACEHOLDERS.items():
            p = p.replace(placeholder, variable)
        named.add(p)
    values = {
        "{cert}": m.cert["id"],
        "{fy}": "2013",
        "{transfer}": m.transfer["id"],
        "{offer}": m.offer["id"],
        "{application}": m.application["id"],
        "{credit}": "capp_none",
        "{reference}": m.reference(),
        "{reset}": "not-a-reset-token",
    }
    assert page_rules == named, page_rules ^ named
    mismatches, leaks = [], []
    for role in ROLES:
        browser = _sign_in(app, client, m.engine, role, parties.get(role))
        for template, expect in PAGES.items():
            path = template
            for placeholder, value in values.items():
                path = path.replace(placeholder, value)
            r = browser.get(path)
            if r.status_code != expect[role]:
                mismatches.append(f"{path} as {role}: {r.status_code}, expected {expect[role]}")
            if r.status_code == 302:
                location = r.headers["Location"]
                assert location.startswith("/") and not location.startswith("//"), location
                assert ("/login" in location) == (role == "anonymous"), (path, role, location)
            text = r.get_data(as_text=True)
            hidden = m.secrets_hidden_from(role, market=template in MARKET_PAGES)
            if template in MARKET_PAGES and role == "other":
                hidden = [m.owner["tax_id"], m.buyer["id"], m.buyer["tax_id"], m.buyer["name"]]
            for secret in hidden:
                if secret in text and secret not in path:  # an echo of the path is no leak
                    leaks.append(f"{path} as {role}: contains {secret!r}")
    assert not mismatches, "\n".join(mismatches)
    assert not leaks, "\n".join(leaks)


@pytest.fixture(autouse=True)
def _fast_argon2() -> None:
    import os

    assert os.environ.get("MARKET_ARGON2_FAST") == "1"


# Form posts: who may post each one. Allowed roles are the desks' own tests; here every
# other role is refused (anonymous to /login, a wrong role 403) and writes nothing, and
# another participant posting about the owner's listing or offer writes nothing either.
FORMS: dict[str, tuple[str, ...]] = {
    "/authority/allocations/{fy}/commit": ("authority",),
    "/authority/transfers/{transfer}/approve": ("authority",),
    "/authority/transfers/{transfer}/reject": ("authority",),
    "/authority/certificates": ("authority",),
    "/authority/certificates/{certificate}/reviews": ("authority",),
    "/authority/recaptures": ("authority",),
    "/authority/parties": ("authority",),
    "/authority/parties/ownership": ("authority",),
    "/authority/parties/agreement": ("authority",),
    "/authority/users": ("authority",),
    "/authority/users/password": ("authority",),
    "/buyer/returns": ("owner", "other"),
    "/buyer/pass-through": ("owner", "other"),
    "/buyer/transfers/{transfer}/{decision}": ("owner", "other"),
    "/market/offers": ("owner", "other"),
    "/seller/listings": ("owner", "other"),
    "/seller/listings/{listing}/withdraw": ("owner", "other"),
    "/seller/offers/{offer}/accept": ("owner", "other"),
    "/seller/offers/{offer}/decline": ("owner", "other"),
    "/seller/tech": ("owner", "other"),
    "/account/password": ("authority", "auditor", "owner", "other"),
    "/account/mfa": ("authority", "auditor", "owner", "other"),
    "/account/mfa/confirm": ("authority", "auditor", "owner", "other"),
    # Anyone signed in marks their own notices read (another's answers 404: deals tests).
    "/notifications/{notification}/read": ("authority", "auditor", "owner", "other"),
    # Anyone, signed in or not, may ask for a reset link and use one.
    "/password/forgot": ROLES,
    "/password/reset/{reset}": ROLES,
    "/authority/certificates/{certificate}/notices": ("authority",),
    "/authority/certificates/{certificate}/notices/{notice}/lift": ("authority",),
    "/closing/{transfer}/payment": ("owner", "other"),
    "/closing/{transfer}/receipt": ("owner", "other"),
}
OWNERS_ONLY = {
    "/seller/listings/{listing}/withdraw",
    "/seller/offers/{offer}/accept",
    "/seller/offers/{offer}/decline",
    "/buyer/transfers/{transfer}/{decision}",  # the buyer's consent: B's, not X's
    "/closing/{transfer}/payment",
    "/closing/{transfer}/receipt",
}


def test_every_form_refuses_the_roles_it_is_not_for(app: Any, client: Any) -> None:
    m = Matrix(client)
    parties = {"owner": m.owner["id"], "other": m.other["id"]}
    form_rules = {
        r.rule
        for r in app.url_map.iter_rules()
        if "POST" in r.methods and not r.rule.startswith(("/api/", "/login", "/logout"))
    }
    named = {
        f.replace("{fy}", "<int:fy>")
        .replace("{transfer}", "<transfer_id>")
        .replace("{listing}", "<listing_id>")
        .replace("{offer}", "<offer_id>")
        .replace("{certificate}", "<certificate_id>")
        .replace("{decision}", "<decision>")
        .replace("{notification}", "<notification_id>")
        .replace("{reset}", "<token>")
        .replace("{notice}", "<notice_id>")
        for f in FORMS
    }
    assert form_rules == named, form_rules ^ named
    mismatches = []
    for role in ROLES:
        browser = _sign_in(app, client, m.engine, role, parties.get(role))
        form = browser.get("/login").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token is not None
        for template, allowed in FORMS.items():
            refused = role not in allowed
            stranger = role == "other" and template in OWNERS_ONLY
            if not (refused or stranger):
                continue
            path = (
                template.replace("{fy}", "2013")
                .replace("{transfer}", m.transfer["id"])
                .replace("{listing}", m.listing["id"])
                .replace("{offer}", m.offer["id"])
                .replace("{certificate}", m.cert["id"])
                .replace("{decision}", "confirm")
                .replace("{notification}", "ntf_none")
                .replace("{reset}", "not-a-reset-token")
                .replace("{notice}", "ntc_matrix")
            )
            before = event_count(m.engine)
            r = browser.post(path, data={"csrf_token": token[1], "reason": "matrix"})
            if event_count(m.engine) != before:
                mismatches.append(f"{path} as {role}: wrote events")
            if refused:
                expect = 302 if role == "anonymous" else 403
                if r.status_code != expect:
                    mismatches.append(f"{path} as {role}: {r.status_code}, expected {expect}")
                if role == "anonymous" and "/login" not in r.headers.get("Location", ""):
                    mismatches.append(f"{path} as anonymous: not sent to /login")
            elif r.status_code < 300 and "error" not in r.get_data(as_text=True).lower():
                mismatches.append(f"{path} as {role}: {r.status_code} without a refusal")
    assert not mismatches, "\n".join(mismatches)
