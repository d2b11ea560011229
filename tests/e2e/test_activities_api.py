"""PT-1 "no duplicate use" (AMB-56) over the API: certificates list their creditable
activities and derived certificates carry them. That a credit whose activity another
credit already used, by the taxpayer or anyone in its ownership chain, is refused
(`activity_already_used`) is held by tests/unit/services/certificates/test_returns.py."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import Engine

from tests.e2e.test_pages_foundation import sign_in
from tests.e2e.test_returns_api import cert_row, credit, held_certificate
from tests.helpers import (
    BRRAG_AWARD,
    create_party,
    events,
    headers_for,
    replay_equals_live_and_verifies,
    sell_and_approve,
)

M = 100_000_000  # one million dollars in cents
KEY = "creditable_activity_ids"


class Chain:
    """A seller, an entity E (CBT and GIT) and its 60% owner O, with their tokens."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.engine: Engine = client.application.extensions["market.engine"]
        self.auth = headers_for(client, self.engine, "authority")
        self.seller = create_party(client, self.auth, name="Seller Co")
        self.entity = create_party(client, self.auth, name="Entity Co", tax_types=["CBT", "GIT"])
        self.owner = create_party(client, self.auth, name="Owner Co", tax_types=["CBT", "GIT"])
        r = client.post(
            f"/api/v1/parties/{self.entity['id']}/owners",
            json={"owner_party_id": self.owner["id"], "voting_bps": 6000, "value_bps": 6000},
            headers=self.auth,
        )
        assert r.status_code == 201, r.json
        self.seller_h = headers_for(client, self.engine, "participant", self.seller["id"])
        self.entity_h = headers_for(client, self.engine, "participant", self.entity["id"])
        self.owner_h = headers_for(client, self.engine, "participant", self.owner["id"])

    def issue(self, activity_ids: list[str], **body: Any) -> dict[str, Any]:
        payload = {
            "program": "BRRAG",
            **BRRAG_AWARD,
            "holder_party_id": self.seller["id"],
            "face_cents": 5 * M,
            "fiscal_year": 2014,
            "credit_year": 2013,
            KEY: activity_ids,
        } | body
        r = self.client.post("/api/v1/certificates", json=payload, headers=self.auth)
        assert r.status_code == 201, r.json
        return r.json  # type: ignore[no-any-return]

    def sell(self, cert_id: str, buyer_id: str, amount: int = M) -> str:
        """A negotiated transfer, approved; returns the buyer's certificate id."""
        return sell_and_approve(
            self.client, self.seller_h, self.auth, cert_id, buyer_id, amount, amount * 8 // 10
        )

    def apply(self, h: dict[str, str], cert_id: str, tax_type: str = "GIT", **kw: Any) -> Any:
        body = {"tax_type": tax_type, "liability_cents": 10 * M, "amount_cents": M // 10} | kw
        if tax_type == "GIT":  # PT-2: every GIT use gives its §40 Cap40 (here the liability)
            body.setdefault("cap40_cents", body["liability_cents"])
        return credit(self.client, h, cert_id, **body)

    def cert(self, cert_id: str) -> dict[str, Any]:
        r = self.client.get(f"/api/v1/certificates/{cert_id}", headers=self.auth)
        assert r.status_code == 200, r.json
        return r.json  # type: ignore[no-any-return]


def test_issued_certificates_list_their_activities(client: Any, app: Any) -> None:
    c = Chain(client)
    cert = c.issue(["proj-A", "cohort-2013"])
    assert cert[KEY] == ["proj-A", "cohort-2013"]
    assert cert["attributes"][KEY] == ["proj-A", "cohort-2013"]
    assert c.cert(cert["id"])[KEY] == ["proj-A", "cohort-2013"]
    listed = client.get(f"/api/v1/parties/{c.seller['id']}/certificates", headers=c.auth).json
    assert [item[KEY] for item in listed["items"]] == [["proj-A", "cohort-2013"]]
    # Without the field the certificate lists none.
    plain = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            **BRRAG_AWARD,
            "holder_party_id": c.seller["id"],
            "face_cents": M,
            "fiscal_year": 2014,
        },
        headers=c.auth,
    )
    assert plain.status_code == 201 and plain.json[KEY] == []
    sign_in(client, app, "participant", c.seller["id"])
    html = client.get(f"/certificates/{cert['id']}").data.decode()
    assert "Creditable activities" in html and "proj-A, cohort-2013" in html


@pytest.mark.parametrize(
    ("ids", "fragment"),
    [
        (["proj-A", "proj-A"], "must not repeat"),
        ([""], "Length must be between 1 and 100"),
        (["x" * 101], "Length must be between 1 and 100"),
        ([f"a{i}" for i in range(51)], "Longer than maximum length 50"),
        ("proj-A", "Not a valid list"),
        ([7], "Not a valid string"),
    ],
)
def test_bad_activity_ids_are_a_400_and_write_nothing(client: Any, ids: Any, fragment: str) -> None:
    c = Chain(client)
    before = events(c.engine)
    r = client.post(
        "/api/v1/certificates",
        json={
            "program": "BRRAG",
            **BRRAG_AWARD,
            "holder_party_id": c.seller["id"],
            "face_cents": M,
            "fiscal_year": 2014,
            KEY: ids,
        },
        headers=c.auth,
    )
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "validation_failed"
    assert KEY in r.json["error"]["message"] and fragment in r.json["error"]["message"]
    assert events(c.engine) == before


def test_transferred_certificates_carry_the_activities_and_a_later_year_is_allowed(
    client: Any,
) -> None:
    c = Chain(client)
    first = c.issue(["proj-A"])
    second = c.issue(["proj-B", "proj-A"])
    e1 = c.sell(first["id"], c.entity["id"])
    o2 = c.sell(second["id"], c.owner["id"])
    # The transferred certificates carry the award's activities, in their own row.
    assert c.cert(e1)[KEY] == ["proj-A"] and c.cert(o2)[KEY] == ["proj-B", "proj-A"]
    stored = cert_row(c.engine, o2).attributes
    stored = json.loads(stored) if isinstance(stored, str) else stored
    assert stored[KEY] == ["proj-B", "proj-A"]

    used = c.apply(c.entity_h, e1, tax_type="CBT")
    assert used.status_code == 201, used.json
    assert used.json["applied_cents"] == M // 10
    assert used.json["limits"][KEY] == ["proj-A"]
    assert used.json["limits"]["pt1_activity_scope"] == "entity_and_owners"
    # Using o2 now is refused (activity_already_used): tests/unit/services.

    # The same certificate again, in a later year, is the same credit: allowed.
    again = c.apply(c.entity_h, e1, tax_type="CBT", tax_year=2014)
    assert again.status_code == 201, again.json
    assert again.json["applied_cents"] == M // 10
    replay_equals_live_and_verifies(c.engine)


def test_only_an_applied_amount_is_a_use_and_unrelated_parties_do_not_count(
    client: Any, engine: Engine
) -> None:
    c = Chain(client)
    stranger = create_party(client, c.auth, name="Stranger Co", tax_types=["CBT", "GIT"])
    attrs = {KEY: ["proj-Z"]}
    nothing = held_certificate(engine, c.entity["id"], c.seller["id"], M, attributes=attrs)
    r = c.apply(c.entity_h, nothing, liability_cents=0)  # DM_GIT: 50% of 0
    assert r.status_code == 201 and r.json["applied_cents"] == 0
    theirs = held_certificate(engine, stranger["id"], c.seller["id"], M, attributes=attrs)
    assert c.apply(c.auth, theirs).json["applied_cents"] == M // 10
    mine = held_certificate(engine, c.entity["id"], c.seller["id"], M, attributes=attrs)
    r = c.apply(c.entity_h, mine)
    assert r.status_code == 201, r.json
    assert r.json["limits"][KEY] == ["proj-Z"]


def test_pass_through_certificates_carry_the_activities(client: Any, engine: Engine) -> None:
    c = Chain(client)
    partnership = create_party(
        client, c.auth, name="Partnership P", entity_type="partnership", tax_types=["GIT"]
    )
    partners = []
    for bps in (5000, 5000):
        partner = create_party(client, c.auth, entity_type="individual", tax_types=["GIT"])
        client.post(
            f"/api/v1/parties/{partnership['id']}/owners",
            json={
                "owner_party_id": partner["id"],
                "voting_bps": bps,
                "value_bps": bps,
                "income_share_bps": bps,
            },
            headers=c.auth,
        )
        partners.append(partner["id"])
    cert = held_certificate(
        engine, partnership["id"], c.seller["id"], 2 * M, attributes={KEY: ["film-1"]}
    )
    r = client.post(f"/api/v1/certificates/{cert}/pass-through", json={}, headers=c.auth)
    assert r.status_code == 201, r.json
    pieces = [a["certificate_id"] for a in r.json["allocations"]]
    assert [c.cert(p)["attributes"][KEY] for p in pieces] == [["film-1"], ["film-1"]]
    # Two pieces of one credit are the same credit, not a duplicate use.
    for piece in pieces:
        assert c.apply(c.auth, piece, cap40_cents=10 * M).status_code == 201
    replay_equals_live_and_verifies(engine)
