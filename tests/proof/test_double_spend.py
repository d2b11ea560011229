"""Double-spend race: many simultaneous approvals, each of 60% of one certificate, per
round; exactly one succeeds, the rest are refused for insufficient balance."""

from __future__ import annotations

from collections import Counter
from typing import Any

from market.services.ledger import verify
from tests.proof.conftest import SCALE
from tests.proof.world import World, check_conservation, race

FACE = 1_000_000  # $10,000: rounds stay far inside the BRRAG fiscal-year cap
SIXTY = FACE * 60 // 100


def _approve(client: Any, transfer_id: str, auth: dict[str, str]) -> tuple[str, int, Any]:
    r = client.post(f"/api/v1/transfers/{transfer_id}/approve", json={}, headers=auth)
    return transfer_id, r.status_code, r.json


def test_only_one_of_many_simultaneous_approvals_spends_the_certificate(app: Any) -> None:
    client = app.test_client()
    w = World(client, sellers=1, buyers=2)
    seller = w.sellers[0]["id"]
    n = SCALE.race_approvals
    for round_ in range(SCALE.race_rounds):
        cert = w.issue(seller, FACE)
        transfers = []
        for i in range(n):
            r = w.negotiate_confirmed(client, cert, w.buyers[i % 2]["id"], SIXTY, SIXTY)
            assert r.status_code == 200 and r.json["status"] == "pending_approval", r.json
            transfers.append(r.json["id"])
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
        assert seller_cert["balance_cents"] == FACE - SIXTY
        assert seller_cert["transferred_cents"] == SIXTY
        children = seller_cert["lineage"]["children"]
        assert len(children) == 1 and children[0]["face_cents"] == SIXTY
        for t in transfers:
            status = client.get(f"/api/v1/transfers/{t}", headers=w.auth).json["status"]
            assert status == ("approved" if t == winner else "pending_approval")
    check_conservation(w.engine)
    assert verify(w.engine).ok
