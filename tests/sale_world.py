"""The world the generated clients sell in: a seller holding a BRRAG certificate, a buyer,
and a user for each of them and for the authority (password `generated-password`), made
through the API on the test's database; the clients then run against a live server."""

from __future__ import annotations

from typing import Any

from market.services.identity import identity
from tests.helpers import BRRAG_AWARD, create_party, headers_for

M = 100_000_000
PASSWORD = "generated-password"
USERS = ("seller@gen.test", "buyer@gen.test", "eda@gen.test")


def seed_sale(app: Any, client: Any) -> str:
    """The certificate's id, for the seller to list."""
    engine = app.extensions["market.engine"]
    eda = headers_for(client, engine, "authority")
    seller = create_party(client, eda, name="Camden Robotics")
    buyer = create_party(client, eda, name="Newark Insurance", tax_types=["CBT", "IPT"])
    body = {"program": "BRRAG", "holder_party_id": seller["id"], "face_cents": 2 * M}
    body |= BRRAG_AWARD | {"fiscal_year": 2014}  # BRRAG issuance carries its award facts
    cert = client.post("/api/v1/certificates", json=body, headers=eda)
    assert cert.status_code == 201, cert.json
    for email, role, party in zip(
        USERS,
        ("participant", "participant", "authority"),
        (seller["id"], buyer["id"], None),
        strict=True,
    ):
        identity.create_user(engine, email, role, PASSWORD, party)
    return str(cert.json["id"])
