"""The API role matrix's rows, in two parts kept in order (`ROWS` in test_roles_api.py is
this module's `RECORD_ROWS` then roles_api_market_rows.py's `MARKET_ROWS`): what a row is
and asks (`Row`, the request builders, the status shorthands), and the first part's rows:
the API's documents, parties, certificates, credits, TECH, audit, notifications, webhooks.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.helpers import brrag_award
from tests.proof.roles_world import Matrix, statuses
from tests.proof.world import M

Request = Callable[[Matrix, str], tuple[str, str, Any]]


@dataclass(frozen=True)
class Row:
    name: str
    request: Request  # (matrix, role) -> (method, path, json body or None)
    expect: dict[str, int]  # role -> status
    market: bool = False  # public market data (see Matrix.secrets_hidden_from)


# Another participant's record answers 404, as one that does not exist would (no
# existence oracle; tests/proof/test_no_oracle.py compares the bodies). It was 403.
def readers(owner: int = 200, other: int = 404) -> dict[str, int]:
    return statuses(200, owner=owner, other=other)


ADMIN = {"authority": 201, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401}
LEDGER = {"authority": 200, "auditor": 200, "owner": 403, "other": 403, "anonymous": 401}


def get(path: Callable[[Matrix], str]) -> Request:
    return lambda m, role: ("GET", path(m), None)


def post(path: Callable[[Matrix], str], body: Callable[[Matrix], Any] = lambda m: {}) -> Request:
    return lambda m, role: ("POST", path(m), body(m))


def _fresh_webhook(m: Matrix) -> str:
    """A new subscription of Owner's for each role to try to delete."""
    body = {"url": "https://93.184.216.34/hook", "event_types": ["*"]}
    return str(m.post("/api/v1/webhooks", m.headers["owner"], body)["id"])


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


RECORD_ROWS = [
    Row("openapi", get(lambda m: "/api/v1/openapi.json"), statuses(200, anonymous=200)),
    Row("docs", get(lambda m: "/api/v1/docs"), statuses(200, anonymous=200)),
    Row(
        "token: wrong password",
        post(lambda m: "/api/v1/auth/token", lambda m: {"email": "x@y.org", "password": "nope"}),
        statuses(401, anonymous=401),
    ),
    Row("parties: create", post(lambda m: "/api/v1/parties", _new_party), ADMIN),
    Row("parties: list", get(lambda m: "/api/v1/parties"), statuses(200)),
    Row("party: get", get(lambda m: f"/api/v1/parties/{m.owner['id']}"), readers()),
    Row(
        "party: facts",
        lambda m, role: ("PATCH", f"/api/v1/parties/{m.owner['id']}", {"naics_code": "5417"}),
        ADMIN | {"authority": 200},
    ),
    Row(
        "party: owners",
        post(
            lambda m: f"/api/v1/parties/{m.owner['id']}/owners",
            lambda m: {"owner_party_id": m.buyer["id"], "voting_bps": 100, "value_bps": 100},
        ),
        ADMIN,
    ),
    Row("party: owners' agreement", _fresh_owners_agreement, ADMIN),
    Row(
        "party: affiliation",
        get(lambda m: f"/api/v1/parties/{m.owner['id']}/affiliation/{m.buyer['id']}"),
        LEDGER | {"auditor": 403},
    ),
    Row(
        "party: certificates",
        get(lambda m: f"/api/v1/parties/{m.owner['id']}/certificates"),
        readers(),
    ),
    Row(
        "certificates: issue",
        post(
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
    Row("certificate: get", get(lambda m: f"/api/v1/certificates/{m.cert['id']}"), readers()),
    # The same events as the certificate's history, so next to it.
    Row(
        "certificate proof",
        get(lambda m: f"/api/v1/certificates/{m.cert['id']}/proof"),
        readers(other=404),
    ),
    Row(
        "certificate: pass-through",
        post(lambda m: f"/api/v1/certificates/{m.cert['id']}/pass-through"),
        # A C corporation's own certificate cannot pass through: refused by the rule.
        {"authority": 422, "auditor": 403, "owner": 422, "other": 404, "anonymous": 401},
    ),
    Row(
        "certificate: UTH annual review",
        post(
            lambda m: f"/api/v1/certificates/{m.cert['id']}/reviews",
            lambda m: {"tax_period": 2014, "finding": "approved"},
        ),
        # The matrix certificate is not a UTH award: the Authority is refused with a 409.
        {"authority": 409, "auditor": 403, "owner": 403, "other": 403, "anonymous": 401},
    ),
    Row(
        "credit application",
        post(
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
        post(
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
    Row("tech: list", get(lambda m: "/api/v1/tech/applications"), statuses(200)),
    Row(
        "tech: get",
        get(lambda m: f"/api/v1/tech/applications/{m.application['id']}"),
        readers(),
    ),
    Row(
        "tech: preview",
        post(lambda m: "/api/v1/tech/allocations/2013/preview"),
        LEDGER | {"auditor": 403},
    ),
    Row(
        "tech: allocation",
        get(lambda m: "/api/v1/tech/allocations/2013"),
        statuses(404, owner=403, other=403),  # not committed yet: the commit row comes next
    ),
    Row("tech: commit", post(lambda m: "/api/v1/tech/allocations/2013"), ADMIN),
    # Before any row makes "other" a party to the owner's deals (its offer, below).
    Row("audit: users", get(lambda m: "/api/v1/audit/users"), LEDGER),
    Row(
        "audit: a user's events",
        get(lambda m: f"/api/v1/audit/users/{m.owner_user()}/events"),
        LEDGER,
    ),
    Row("notifications: list", get(lambda m: "/api/v1/notifications"), statuses(200)),
    Row(
        "notification: read",
        post(lambda m: f"/api/v1/notifications/{m.owner_notification()}/read"),
        statuses(404, owner=200),  # someone else's notice answers as one that does not exist
    ),
    Row(
        "deals: mine",
        get(lambda m: "/api/v1/deals?side=seller"),
        statuses(403, owner=200, other=200),
    ),
    Row("offer: get", get(lambda m: f"/api/v1/offers/{m.offer['id']}"), readers(other=404)),
    Row(
        "credit application: get",
        get(lambda m: "/api/v1/credit-applications/capp_none"),
        statuses(404),
    ),
    Row(
        "public status",
        get(lambda m: f"/api/v1/public/status/{m.reference()}"),
        statuses(200, anonymous=200),
    ),
    Row(
        "webhooks: create",
        post(
            lambda m: "/api/v1/webhooks",
            lambda m: {"url": "https://93.184.216.34/hook", "event_types": ["*"]},
        ),
        statuses(201, auditor=403),
    ),
    Row(
        "webhook: get",
        get(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}"),
        statuses(404, authority=200, owner=200),
    ),
    Row(
        "webhook: deliveries",
        get(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/deliveries"),
        statuses(404, authority=200, owner=200),
    ),
    Row(
        "webhook: replay",
        post(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/replay", lambda m: {"from_seq": 1}),
        statuses(404, authority=200, owner=200),
    ),
    Row("webhooks: list", get(lambda m: "/api/v1/webhooks"), statuses(200, auditor=403)),
    Row(
        "webhook: delete",
        lambda m, role: ("DELETE", f"/api/v1/webhooks/{_fresh_webhook(m)}", None),
        statuses(404, authority=204, owner=204),
    ),
    Row(
        "webhook: pause",
        post(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/pause"),
        statuses(404, authority=200, owner=200),
    ),
    Row(
        "webhook: resume",
        post(lambda m: f"/api/v1/webhooks/{m.owner_webhook()}/resume"),
        statuses(404, authority=200, owner=200),
    ),
]
