"""ADM-9 over the API (SQLite and PostgreSQL): a BRRAG Board action waits out the
Governor's 10 New Jersey working days unless approved earlier or vetoed."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine

from tests.e2e.test_casefile_tech_api import refused
from tests.helpers import brrag_award, create_party, events, headers_for, propose_and_confirm

pytestmark = pytest.mark.storage
URL = "/api/v1/brrag/board-actions"


def action(client: Any, h: dict[str, str], party_id: str, **kw: Any) -> Any:
    body = {
        "party_id": party_id,
        "decision": "approve",
        "amount_cents": 150_000_000,
        "submitted_on": "2024-09-01",
        "board_met_on": "2024-10-30",
        "governor_received_on": "2024-11-01",
        "conditions": ["A statement dated the day of closing"],
    }
    return client.post(URL, json=body | kw, headers=h)


def test_the_governors_period(client: Any, engine: Engine, market_today: Any) -> None:
    market_today("2024-11-08")
    authority = headers_for(client, engine, "authority")
    party = create_party(client, authority, name="Retained Jobs Inc")
    r = action(client, authority, party["id"])
    assert r.status_code == 201, r.json
    # Nov 5 (Election Day) and Nov 11 (Veterans Day) are State holidays
    assert (r.json["period_ends_on"], r.json["takes_effect_on"]) == ("2024-11-19", "2024-11-20")
    assert r.json["state"] == "awaiting_governor"
    market_today("2024-11-20")
    assert client.get(f"{URL}/{r.json['id']}", headers=authority).json["state"] == "in_effect"

    market_today("2024-11-08")
    early = action(client, authority, party["id"], submitted_on="2024-08-01").json
    ok = client.post(
        f"{URL}/{early['id']}/governor",
        json={"decision": "approve", "decided_on": "2024-11-07"},
        headers=authority,
    )
    assert ok.status_code == 200 and ok.json["state"] == "in_effect"
    assert ok.json["takes_effect_on"] == "2024-11-07"
    vetoed = action(client, authority, party["id"]).json
    v = client.post(
        f"{URL}/{vetoed['id']}/governor",
        json={"decision": "veto", "decided_on": "2024-11-08"},
        headers=authority,
    )
    assert v.status_code == 200 and v.json["state"] == "vetoed"
    before = events(engine)
    again = client.post(
        f"{URL}/{vetoed['id']}/governor",
        json={"decision": "approve", "decided_on": "2024-11-08"},
        headers=authority,
    )
    refused(again, 409, "step_out_of_order")
    refused(
        action(client, authority, party["id"], governor_received_on="2024-11-09"),
        422,
        "invalid_request",
    )
    assert events(engine) == before
    listed = client.get(URL, headers=authority).json["items"]
    assert [a["submitted_on"] for a in listed] == ["2024-08-01", "2024-09-01", "2024-09-01"]
    other = headers_for(client, engine, "participant", create_party(client, authority)["id"])
    assert client.get(f"{URL}/{early['id']}", headers=other).status_code == 404
    assert client.get(URL, headers=other).json["items"] == []


def test_after_the_period_the_governor_cannot_act(
    client: Any, engine: Engine, market_today: Any
) -> None:
    market_today("2024-11-25")
    authority = headers_for(client, engine, "authority")
    party = create_party(client, authority)
    made = action(client, authority, party["id"]).json
    r = client.post(
        f"{URL}/{made['id']}/governor",
        json={"decision": "veto", "decided_on": "2024-11-22"},
        headers=authority,
    )
    refused(r, 409, "step_out_of_order")


def test_a_brrag_sale_closes_under_the_boards_approval_in_effect(
    client: Any, engine: Engine, market_today: Any
) -> None:
    """ADM-9 at closing: refused before any Board approval and while the Governor's period
    runs (409, saying when it takes effect), approved once in effect; that approval is
    spent, so a second sale waits for its own (409), and a third sale a smaller one covers
    closes; refusals write nothing."""
    market_today("2024-11-08")
    authority = headers_for(client, engine, "authority")
    seller = create_party(client, authority, name="Retained Board Co")
    buyer = create_party(client, authority, name="Board Buyer Co", tax_types=["CBT"])
    body = {"program": "BRRAG", "holder_party_id": seller["id"], "face_cents": 3_000_000}
    cert = client.post(
        "/api/v1/certificates",
        json=body | brrag_award(3_000_000) | {"fiscal_year": 2025},
        headers=authority,
    )
    assert cert.status_code == 201, cert.json
    clearance = {"certificate_number": "TCC-B1", "issued_on": "2024-11-01", "program": "BRRAG"}
    made = client.post(
        f"/api/v1/parties/{seller['id']}/tax-clearances", json=clearance, headers=authority
    )
    assert made.status_code == 201, made.json
    seller_h = headers_for(client, engine, "participant", seller["id"])

    def sale(amount: int) -> str:
        t = propose_and_confirm(client, seller_h, cert.json["id"], buyer["id"], amount, amount)
        return str(t["id"])

    first = sale(1_000_000)
    approve = f"/api/v1/transfers/{first}/approve"
    before = events(engine)
    refused(client.post(approve, json={}, headers=authority), 409, "step_out_of_order")
    assert action(client, authority, seller["id"], amount_cents=1_500_000).status_code == 201
    waiting = refused(client.post(approve, json={}, headers=authority), 409, "step_out_of_order")
    assert waiting["takes_effect_on"] == "2024-11-20"
    assert events(engine) == before + 1  # the Board action only
    market_today("2024-11-20")
    ok = client.post(approve, json={}, headers=authority)
    assert ok.status_code == 200 and ok.json["status"] == "approved", ok.json
    # ADM-9: that approval is spent; a second sale needs the Board's approval of it.
    second = sale(600_000)
    second_url = f"/api/v1/transfers/{second}/approve"
    before = events(engine)
    refused(client.post(second_url, json={}, headers=authority), 409, "step_out_of_order")
    small = action(
        client, authority, seller["id"], amount_cents=500_000, governor_received_on="2024-11-20"
    ).json
    early = client.post(
        f"{URL}/{small['id']}/governor",
        json={"decision": "approve", "decided_on": "2024-11-20"},
        headers=authority,
    )
    assert early.status_code == 200 and early.json["state"] == "in_effect"
    # Too small for the second sale (board_approval_exceeded): tests/unit/services/casefiles.
    assert events(engine) == before + 2  # the Board action and the Governor's decision
    third = sale(500_000)  # the $5,000 approval covers this one
    done = client.post(f"/api/v1/transfers/{third}/approve", json={}, headers=authority)
    assert done.status_code == 200, done.json
