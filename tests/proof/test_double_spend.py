"""Double-spend race: many simultaneous approvals of transfers from one certificate whose
balance covers only one of them, per round; exactly one succeeds, the rest are refused for
insufficient balance. (Open listings and pending transfers never promise more than the
balance, so the round's transfers are proposed while it covers them all, and a recapture
then leaves room for one and a half.) Also: as many simultaneous proposals of 60% of a
certificate; exactly one is accepted."""

from __future__ import annotations

from collections import Counter
from typing import Any

from market.services.trust.ledger import verify
from tests.proof.conftest import SCALE
from tests.proof.world import World, check_conservation, race

FACE = 1_000_000  # $10,000: rounds stay far inside the BRRAG fiscal-year cap
SIXTY = FACE * 60 // 100


def _recapture(w: World, cert: dict[str, Any], amount: int) -> None:
    body = {
        "party_id": cert["holder_party_id"],
        "certificate_id": cert["id"],
        "amount_cents": amount,
        "reason": "double-spend round",
    }
    r = w.client.post("/api/v1/recaptures", json=body, headers=w.auth)
    assert r.status_code == 201, r.json


def _approve(client: Any, transfer_id: str, auth: dict[str, str]) -> tuple[str, int, Any]:
    r = client.post(f"/api/v1/transfers/{transfer_id}/approve", json={}, headers=auth)
    return transfer_id, r.status_code, r.json


def test_only_one_of_many_simultaneous_approvals_spends_the_certificate(app: Any) -> None:
    client = app.test_client()
    w = World(client, sellers=1, buyers=2)
    seller = w.sellers[0]["id"]
    n = SCALE.race_approvals
    share = FACE // n
    room = share * 3 // 2  # what the recapture leaves: one transfer, not two
    for round_ in range(SCALE.race_rounds):
        cert = w.issue(seller, FACE)
        transfers = []
        for i in range(n):
            r = w.negotiate_confirmed(client, cert, w.buyers[i % 2]["id"], share, share)
            assert r.status_code == 200 and r.json["status"] == "pending_approval", r.json
            transfers.append(r.json["id"])
        _recapture(w, cert, FACE - room)
        clients = [app.test_client() for _ in transfers]
        results = race(
            [
                lambda c=c, t=t: _approve(c, t, w.auth)
                for c, t in zip(clients, transfers, strict=True)
            ]
        )
        statuses = Counter(s for _, s, _ in results)
        assert statuses == Counter({200: 1, 422: n - 1}), (round_, statuses)
        codes = {body["error"]["code"] for _, s, body in results if s == 422}
        assert codes == {"insufficient_balance"}
        winner = next(t for t, s, _ in results if s == 200)
        seller_cert = client.get(f"/api/v1/certificates/{cert['id']}", headers=w.auth).json
        assert seller_cert["balance_cents"] == room - share
        assert seller_cert["transferred_cents"] == share
        children = seller_cert["lineage"]["children"]
        assert len(children) == 1 and children[0]["face_cents"] == share
        for t in transfers:
            status = client.get(f"/api/v1/transfers/{t}", headers=w.auth).json["status"]
            assert status == ("approved" if t == winner else "pending_approval")
    check_conservation(w.engine)
    assert verify(w.engine).ok


def _propose(client: Any, w: World, cert: dict[str, Any], buyer: str) -> tuple[int, Any]:
    r = w.negotiate(client, cert, buyer, SIXTY, SIXTY)
    return r.status_code, r.json


def test_only_one_of_many_simultaneous_proposals_commits_the_balance(app: Any) -> None:
    client = app.test_client()
    w = World(client, sellers=1, buyers=2)
    seller = w.sellers[0]["id"]
    n = SCALE.race_approvals
    for round_ in range(SCALE.race_rounds):
        cert = w.issue(seller, FACE)
        clients = [app.test_client() for _ in range(n)]
        results = race(
            [
                lambda c=c, i=i, k=cert: _propose(c, w, k, w.buyers[i % 2]["id"])
                for i, c in enumerate(clients)
            ]
        )
        statuses = Counter(s for s, _ in results)
        assert statuses == Counter({201: 1, 422: n - 1}), (round_, statuses)
        assert {body["error"]["code"] for s, body in results if s == 422} == {
            "insufficient_balance"
        }
        listed = client.get("/api/v1/transfers?status=awaiting_buyer", headers=w.auth).json
        assert [t["certificate_id"] for t in listed["items"]].count(cert["id"]) == 1
    check_conservation(w.engine)
    assert verify(w.engine).ok
