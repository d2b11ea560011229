"""PT-5 / PT-6 / DMG-5 over the API, on SQLite and PostgreSQL: a partnership passes a GIT
credit through and its owners apply their shares (worked example 5.4). That a partnership,
an LLC taxed as one or an S corporation cannot apply it itself (`pass_through_required`)
is held by tests/unit/services/certificates/test_returns.py."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_returns_api import credit, held_certificate, partnership
from tests.helpers import create_party, headers_for


def test_the_partners_apply_their_shares_after_the_pass_through(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Studio", tax_types=["GIT"])
    entity, owners = partnership(client, auth, {"A": 5000, "B": 3000, "C": 2000})
    cert = held_certificate(engine, entity["id"], seller["id"], 200_000_00)
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json={}, headers=auth)
    assert r.status_code == 201, r.json
    shares = {a["party_id"]: a for a in r.json["allocations"]}
    assert shares[owners["A"]]["amount_cents"] == 100_000_00  # RULES 5.4: A $100,000
    used = credit(
        client,
        auth,
        shares[owners["A"]]["certificate_id"],
        liability_cents=40_000_00,
        amount_cents=100_000_00,
        section_40={  # RULES 5.4, partner A: ratio 40/51
            "entity_income_cents": 500_000_00,
            "category_amounts_cents": [500_000_00, -100_000_00],
            "other_categories_net_cents": [100_000_00, 10_000_00],
        },
    )
    assert used.status_code == 201, used.json
    assert used.json["applied_cents"] == 20_000_00  # the 50% ceiling binds (DMG-5)
