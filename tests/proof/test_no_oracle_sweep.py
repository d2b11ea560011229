"""No existence oracle, swept from the URL map (issue 27): every API route with an id in
its path, every method, asked by a participant with no part in the record, answers for
another party's record exactly as for one that does not exist (status, code and body,
the id aside), and writes nothing. POST /calculator/tech naming another party's
certificate answers as for an unknown certificate."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.helpers import answer_text
from tests.proof.roles_world import Matrix
from tests.proof.test_no_oracle import _fake
from tests.proof.world import M, event_count

# A path parameter -> the Matrix record (Owner's, or its deal with Buyer) it names.
REAL: dict[str, Callable[[Matrix], str]] = {
    "certificate_id": lambda m: m.cert["id"],
    "transfer_id": lambda m: m.transfer["id"],
    "listing_id": lambda m: m.listing["id"],
    "offer_id": lambda m: m.offer["id"],
    "party_id": lambda m: m.owner["id"],
    "other_id": lambda m: m.buyer["id"],
    "application_id": lambda m: m.application["id"],
    "webhook_id": lambda m: m.owner_webhook(),
    "notification_id": lambda m: m.owner_notification(),
    "user_id": lambda m: m.owner_user(),
    "document_id": lambda m: m.owner_document(),
    "fee_id": lambda m: m.owner_fee(),
    "action_id": lambda m: m.owner_board_action(),
}
# Bodies that pass validation, so the answer is about the record, not the body.
BODIES: dict[str, Any] = {
    "/api/v1/transfers/<transfer_id>/payment": {
        "reference": "WIRE-1",
        "amount_cents": M // 100,
        "paid_on": "2014-06-01",
    },
    "/api/v1/webhooks/<webhook_id>/replay": {"from_seq": 1},
    "/api/v1/fees/<fee_id>/payments": {
        "amount_cents": 100,
        "method": "check",
        "reference": "CHK-1",
        "received_on": "2014-08-01",
    },
    "/api/v1/brrag/board-actions/<action_id>/governor": {
        "decision": "approve",
        "decided_on": "2014-08-20",
    },
}
# No per-party record of that kind; a registration is read by the Authority and auditors
# only (every participant is refused alike, 403, before any id is looked at).
SKIPPED = {"notice_id", "reference", "fiscal_year", "registration_id"}
# A listing is on the market for every participant: any of them may make an offer on it.
PUBLIC = {"/api/v1/listings/<listing_id>/offers"}


def test_every_route_with_an_id_answers_another_partys_as_an_unknown_one(client: Any) -> None:
    m = Matrix(client)
    other = m.headers["other"]
    ids = {name: real(m) for name, real in REAL.items()}
    swept, different = 0, []
    for rule in client.application.url_map.iter_rules():
        names = set(rule.arguments)
        if not rule.rule.startswith("/api/v1") or not names or names & SKIPPED:
            continue
        if rule.rule in PUBLIC:
            continue
        assert names <= set(REAL), f"{rule.rule}: add its id to REAL"
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            for tried in sorted(names):
                answers = []
                for record_id in (ids[tried], _fake(ids[tried])):
                    values = {n: ids[n] for n in names} | {tried: record_id}
                    path = rule.rule
                    for n, v in values.items():
                        path = path.replace(f"<{n}>", v)
                    body = BODIES.get(rule.rule, {}) if method == "POST" else None
                    before = event_count(m.engine)
                    r = client.open(path, method=method, json=body, headers=other)
                    assert event_count(m.engine) == before, (method, path)
                    text = answer_text(r, record_id)
                    answers.append((r.status_code, text))
                swept += 1
                if answers[0] != answers[1]:
                    different.append(f"{method} {rule.rule} [{tried}]: {answers}")
    assert swept >= 35
    assert not different, "\n".join(different)


def test_the_tech_calculator_does_not_tell_of_another_partys_certificate(client: Any) -> None:
    m = Matrix(client)
    tech = m.application  # the owner's TECH application: allocate it to get a certificate
    r = client.post("/api/v1/tech/allocations/2013", json={}, headers=m.auth)
    assert r.status_code in (200, 201), r.json
    cert = next(
        c["id"]
        for c in client.get(f"/api/v1/parties/{m.owner['id']}/certificates", headers=m.auth).json[
            "items"
        ]
        if c["program"] == "TECH"
    )
    answers = []
    for cert_id in (cert, _fake(cert)):
        body = {
            "certificate_id": cert_id,
            "amount_cents": M // 10,
            "price_cents": M // 20,
            "tax_type": "CBT",
            "liability_cents": M,
        }
        r = client.post("/api/v1/calculator/tech", json=body, headers=m.headers["other"])
        answers.append((r.status_code, answer_text(r, cert_id)))
    assert answers[0] == answers[1] and answers[0][0] == 404, (tech["id"], answers)
    mine = client.post(
        "/api/v1/calculator/tech",
        json=body | {"certificate_id": cert},
        headers=m.headers["owner"],
    )
    assert mine.status_code == 200, mine.json
