"""Idempotency: retries with one Idempotency-Key give one event and the same response; a
refused request retried with its key is refused the same way and writes nothing."""

from __future__ import annotations

import threading
from typing import Any

from market.services.trust.ledger import verify
from tests.proof.conftest import SCALE
from tests.proof.world import M, World, check_conservation, event_count, key


def test_retried_transfer_and_approval_write_once_and_answer_the_same(client: Any) -> None:
    w = World(client)
    seller, buyer = w.sellers[0]["id"], w.buyers[0]["id"]
    cert = w.issue(seller, 10 * M)
    body = {
        "certificate_id": cert["id"],
        "buyer_party_id": buyer,
        "amount_cents": 2 * M,
        "consideration_cents": 180_000_000,
    }
    k = key()
    before = event_count(w.engine)
    answers = [
        client.post("/api/v1/transfers", json=body, headers=w.h[seller] | {"Idempotency-Key": k})
        for _ in range(SCALE.idem_retries)
    ]
    assert {a.status_code for a in answers} == {201}
    assert all(a.json == answers[0].json for a in answers)
    assert event_count(w.engine) == before + 1  # TRANSFER_PROPOSED, once
    transfers = client.get("/api/v1/transfers", headers=w.auth).json["items"]
    assert [t["id"] for t in transfers] == [answers[0].json["id"]]

    transfer_id = answers[0].json["id"]
    assert answers[0].json["status"] == "awaiting_buyer"
    k1 = key()
    before = event_count(w.engine)
    confirmations = [
        client.post(
            f"/api/v1/transfers/{transfer_id}/confirm",
            json={},
            headers=w.h[buyer] | {"Idempotency-Key": k1},
        )
        for _ in range(SCALE.idem_retries)
    ]
    assert {a.status_code for a in confirmations} == {200}
    assert all(a.json == confirmations[0].json for a in confirmations)
    assert confirmations[0].json["status"] == "pending_approval"
    assert event_count(w.engine) == before + 1  # TRANSFER_CONFIRMED, once
    k2 = key()
    before = event_count(w.engine)
    approvals = [
        client.post(
            f"/api/v1/transfers/{transfer_id}/approve",
            json={},
            headers=w.auth | {"Idempotency-Key": k2},
        )
        for _ in range(SCALE.idem_retries)
    ]
    assert {a.status_code for a in approvals} == {200}
    assert all(a.json == approvals[0].json for a in approvals)
    assert approvals[0].json["status"] == "approved"
    assert event_count(w.engine) == before + 2  # TRANSFER_APPROVED and the buyer's CERT_ISSUED
    seller_cert = client.get(f"/api/v1/certificates/{cert['id']}", headers=w.auth).json
    assert seller_cert["balance_cents"] == 8 * M and seller_cert["transferred_cents"] == 2 * M
    # Without the key the same approval is a conflict: it really was applied once.
    again = client.post(f"/api/v1/transfers/{transfer_id}/approve", json={}, headers=w.auth)
    assert again.status_code == 409
    check_conservation(w.engine)
    assert verify(w.engine).ok


def test_concurrent_retries_with_one_key_write_once(app: Any, client: Any) -> None:
    w = World(client)
    seller, buyer = w.sellers[0]["id"], w.buyers[0]["id"]
    cert = w.issue(seller, 10 * M)
    body = {
        "certificate_id": cert["id"],
        "buyer_party_id": buyer,
        "amount_cents": M,
        "consideration_cents": M,
    }
    headers = w.h[seller] | {"Idempotency-Key": key()}
    before = event_count(w.engine)
    barrier = threading.Barrier(SCALE.idem_retries)
    answers: list[Any] = []
    lock = threading.Lock()

    def retry() -> None:
        c = app.test_client()
        barrier.wait()
        r = c.post("/api/v1/transfers", json=body, headers=headers)
        with lock:
            answers.append(r)

    threads = [threading.Thread(target=retry) for _ in range(SCALE.idem_retries)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == SCALE.idem_retries
    assert {a.status_code for a in answers} == {201}
    assert len({a.get_data() for a in answers}) == 1
    assert event_count(w.engine) == before + 1
    assert verify(w.engine).ok


def test_a_refused_request_retried_with_its_key_is_refused_the_same_way(client: Any) -> None:
    w = World(client)
    seller, buyer = w.sellers[0]["id"], w.buyers[0]["id"]
    cert = w.issue(seller, 10 * M)
    listing = client.post(
        "/api/v1/listings",
        json={"certificate_id": cert["id"], "amount_cents": 4 * M, "ask_cents": 360_000_000},
        headers=w.h[seller],
    )
    assert listing.status_code == 201, listing.json
    offer_url = f"/api/v1/listings/{listing.json['id']}/offers"
    below_floor = {"amount_cents": 4 * M, "price_cents": 4 * M * 74 // 100}  # 74% < 75%
    headers = w.h[buyer] | {"Idempotency-Key": key()}
    before = event_count(w.engine)
    answers = [
        client.post(offer_url, json=below_floor, headers=headers) for _ in range(SCALE.idem_retries)
    ]
    assert {a.status_code for a in answers} == {422}
    assert {a.json["error"]["code"] for a in answers} == {"below_minimum_consideration"}
    assert all(a.json == answers[0].json for a in answers)
    assert event_count(w.engine) == before

    # The key was not spent by the refusal: the corrected request with it succeeds once...
    at_floor = {"amount_cents": 4 * M, "price_cents": 3 * M}
    ok = [client.post(offer_url, json=at_floor, headers=headers) for _ in range(3)]
    assert {a.status_code for a in ok} == {201} and ok[0].json == ok[2].json
    assert event_count(w.engine) == before + 1
    # ...and from then on the key is bound to it: another body is a conflict, writing nothing.
    clash = client.post(offer_url, json=below_floor, headers=headers)
    assert clash.status_code == 409, clash.json
    assert event_count(w.engine) == before + 1
    assert verify(w.engine).ok
