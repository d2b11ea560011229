"""A small market for the trust tests: two parties, a BRRAG certificate, a sale."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.helpers import BRRAG_AWARD, create_party, headers_for, sell_and_approve

M = 100_000_000


@dataclass
class World:
    authority: dict[str, str]
    auditor: dict[str, str]
    seller: dict[str, str]
    buyer: dict[str, str]
    stranger: dict[str, str]
    certificate_id: str
    buyer_certificate_id: str


def build(client: Any, engine: Any) -> World:
    eda = headers_for(client, engine, "authority")
    seller = create_party(client, eda, name="Hudson Media", tax_types=["CBT", "GIT"])
    buyer = create_party(client, eda, name="Camden Insurance", tax_types=["CBT"])
    other = create_party(client, eda, name="Trenton Tools", tax_types=["CBT"])
    r = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            "holder_party_id": seller["id"],
            "face_cents": 2 * M,
            "fiscal_year": 2014,
            "credit_year": 2013,
            **BRRAG_AWARD,
        },
        headers=eda,
    )
    assert r.status_code == 201, r.json
    seller_h = headers_for(client, engine, "participant", seller["id"])
    bought = sell_and_approve(client, seller_h, eda, r.json["id"], buyer["id"], M, 90 * M // 100)
    return World(
        authority=eda,
        auditor=headers_for(client, engine, "auditor"),
        seller=seller_h,
        buyer=headers_for(client, engine, "participant", buyer["id"]),
        stranger=headers_for(client, engine, "participant", other["id"]),
        certificate_id=r.json["id"],
        buyer_certificate_id=bought,
    )
