"""TB-4(2) over the API, on SQLite and PostgreSQL: a recorded owner holding 50% or more
that had positive net operating income makes the TECH seller ineligible, from the
ownership graph and the owner's recorded income, with the path in the reasons."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_tech_api import apply, seller
from tests.helpers import create_party, headers_for


def _own(client: Any, auth: dict[str, str], owned: str, owner: str, bps: int) -> None:
    r = client.post(
        f"/api/v1/parties/{owned}/owners",
        json={"owner_party_id": owner, "voting_bps": bps, "value_bps": bps},
        headers=auth,
    )
    assert r.status_code == 201, r.json


def test_a_profitable_parent_on_record_makes_the_seller_ineligible(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    p = seller(client, auth, name="Princeton Photonics")
    parent = create_party(
        client,
        auth,
        name="Big Pharma Inc",
        operating_income_cents_by_year={"2011": -1, "2012": 500_000_00},
    )
    holding = create_party(client, auth, name="Holding LLC", entity_type="llc")
    _own(client, auth, holding["id"], parent["id"], 10_000)
    _own(client, auth, p["id"], holding["id"], 6_000)
    r = apply(client, auth, p["id"])  # received 2013-03-15: 2011 and 2012 are looked at
    assert r.status_code == 201, r.json
    body = r.json
    assert body["eligible"] is False
    assert body["reasons"][:2] == ["ineligible_seller", "profitable_parent"]
    [path] = [x for x in body["reasons"] if x.startswith("profitable_parent: ")]
    assert f"through {parent['id']} > {holding['id']} > {p['id']}" in path
    assert "Big Pharma Inc" in path and "in 2012 (TB-4(2))" in path
    # An unprofitable or smaller owner does not bar another seller.
    q = seller(client, auth, name="Camden Quantum")
    _own(client, auth, q["id"], parent["id"], 4_999)
    assert apply(client, auth, q["id"]).json["eligible"] is True


def test_control_through_a_loss_making_holding_company_bars_the_seller(client: Any) -> None:
    """Issue 26 / AMB-63: P (profitable) holds 80% of H (loss-making), H holds 60% of the
    seller: P owns 48% of it but controls it through a chain of majority holdings."""
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    s = seller(client, auth, name="Trenton Sensors")
    parent = create_party(
        client, auth, name="Profitable Corp", operating_income_cents_by_year={"2012": 1_00}
    )
    holding = create_party(
        client,
        auth,
        name="Holding Co",
        operating_income_cents_by_year={"2011": -5_00, "2012": -7_00},
    )
    _own(client, auth, holding["id"], parent["id"], 8_000)
    _own(client, auth, s["id"], holding["id"], 6_000)
    r = apply(client, auth, s["id"])
    assert r.status_code == 201, r.json
    assert r.json["eligible"] is False
    assert "profitable_parent" in r.json["reasons"]
    [why] = [x for x in r.json["reasons"] if x.startswith("profitable_parent: ")]
    chain = f"{parent['id']} > {holding['id']} > {s['id']}"
    assert "Profitable Corp" in why and "holds 48.00% of the votes" in why
    assert f"controls it through the chain of majority holdings {chain} (AMB-63)" in why
    assert "Holding Co" not in why  # H controls the seller too, but made losses
