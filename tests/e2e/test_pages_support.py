"""A small market set up through the API for the page tests: a seller with a certificate
listed, a buyer, and users for every role (each on its own browser-like client)."""

from __future__ import annotations

import html
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from market.services.identity import identity
from tests.e2e.test_pages_foundation import _csrf
from tests.helpers import brrag_award, create_party, headers_for

M = 100_000_000  # $1,000,000 in cents


def browser(app: Any, role: str, party_id: str | None = None) -> Any:
    """A fresh test client signed in as a new user with `role`."""
    client = app.test_client()
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    identity.create_user(app.extensions["market.engine"], email, role, "page-password", party_id)
    token = _csrf(client.get("/login").data)
    r = client.post(
        "/login", data={"email": email, "password": "page-password", "csrf_token": token}
    )
    assert r.status_code == 302, r.data
    return client


def post_form(client: Any, page: str, action: str, data: dict[str, Any]) -> Any:
    """Open `page`, take its CSRF token and post `data` to `action` like a browser would."""
    token = _csrf(client.get(page).data)
    return client.post(action, data=data | {"csrf_token": token})


def confirm_form(client: Any, page: str, action: str, data: dict[str, Any]) -> Any:
    """Post an irreversible form: the first post shows the review (and writes nothing), the
    second confirms exactly the values the review carries."""
    review = post_form(client, page, action, data)
    assert review.status_code == 200, review.get_data(as_text=True)[:2000]
    assert "Review before you confirm" in review.get_data(as_text=True)
    carried: dict[str, list[str]] = {}
    for name, value in re.findall(
        r'<input type="hidden" name="([^"]+)" value="([^"]*)">', review.get_data(as_text=True)
    ):
        carried.setdefault(name, []).append(html.unescape(value))
    assert carried.pop("confirm") == ["yes"]
    data = {k: v[0] if len(v) == 1 else v for k, v in carried.items()}
    return client.post(action, data=data | {"confirm": "yes"})


@dataclass
class Market:
    app: Any
    api: Any
    eda: dict[str, str]
    seller: dict[str, Any]
    buyer: dict[str, Any]
    cert: dict[str, Any]
    seller_h: dict[str, str]
    buyer_h: dict[str, str]
    extra: dict[str, Any] = field(default_factory=dict)

    def post(self, path: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
        r = self.api.post(path, json=body, headers=headers)
        assert r.status_code in (200, 201), (path, r.json)
        return r.json  # type: ignore[no-any-return]

    def listing(self, amount: int = M, ask: int = 90 * M // 100) -> dict[str, Any]:
        body = {"certificate_id": self.cert["id"], "amount_cents": amount, "ask_cents": ask}
        return self.post("/api/v1/listings", self.seller_h, body)

    def offer(self, listing_id: str, amount: int = M, price: int = 80 * M // 100) -> dict[str, Any]:
        body = {"amount_cents": amount, "price_cents": price}
        return self.post(f"/api/v1/listings/{listing_id}/offers", self.buyer_h, body)

    def pending_transfer(self) -> dict[str, Any]:
        offer = self.offer(self.listing()["id"])
        accepted = self.post(f"/api/v1/offers/{offer['id']}/accept", self.seller_h, {})
        return accepted["transfer"]  # type: ignore[no-any-return]


def make_market(app: Any) -> Market:
    api = app.test_client()
    engine = app.extensions["market.engine"]
    eda = headers_for(api, engine, "authority")
    seller = create_party(api, eda, name="Camden Robotics")
    buyer = create_party(api, eda, name="Newark Insurance Holdings")
    body = {"program": "BRRAG", "holder_party_id": seller["id"], "face_cents": 2 * M}
    body |= brrag_award(2 * M)
    r = api.post("/api/v1/certificates", json=body | {"fiscal_year": 2014}, headers=eda)
    assert r.status_code == 201, r.json
    return Market(
        app=app,
        api=api,
        eda=eda,
        seller=seller,
        buyer=buyer,
        cert=r.json,
        seller_h=headers_for(api, engine, "participant", seller["id"]),
        buyer_h=headers_for(api, engine, "participant", buyer["id"]),
    )
