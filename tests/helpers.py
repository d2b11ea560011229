"""Small factories shared by the integration and end-to-end tests."""

from __future__ import annotations

import uuid
from typing import Any

from sqlalchemy import Engine

from market.services import identity
from market.services.ledger import count_events


def headers_for(
    client: Any, engine: Engine, role: str, party_id: str | None = None
) -> dict[str, str]:
    email = f"{role}-{uuid.uuid4().hex[:8]}@example.com"
    identity.create_user(engine, email, role, "correct horse battery", party_id)
    r = client.post(
        "/api/v1/auth/token", json={"email": email, "password": "correct horse battery"}
    )
    assert r.status_code == 200, r.json
    return {"Authorization": f"Bearer {r.json['token']}"}


def party_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Garden State Biotech",
        "tax_id": f"22-{uuid.uuid4().hex[:7]}",
        "entity_type": "c_corporation",
        "tax_types": ["CBT"],
    }
    body.update(overrides)
    return body


def create_party(client: Any, headers: dict[str, str], **overrides: Any) -> dict[str, Any]:
    r = client.post("/api/v1/parties", json=party_body(**overrides), headers=headers)
    assert r.status_code == 201, r.json
    return r.json  # type: ignore[no-any-return]


def events(engine: Engine) -> int:
    return count_events(engine)
