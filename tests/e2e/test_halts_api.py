"""Trading halts (PRODUCT.md 8.3): a recapture or invalidity notice halts a certificate and
its whole lineage until lifted, on both databases."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market
from tests.helpers import events, headers_for, replay_equals_live_and_verifies

M = 100_000_000


class Halted(Market):
    """A BRRAG award with a sale approved (the buyer's child certificate), an open listing
    with an open offer, and a negotiated transfer the buyer confirmed, pending approval."""

    def __init__(self, client: Any) -> None:
        super().__init__(client)
        self.award = self.issue(program="BRRAG", face_cents=10 * M, fiscal_year=2014)
        first = self.negotiate(self.award["id"], 1 * M, 80 * 10**6)
        assert first.status_code == 201, first.json
        self.confirm(first.json)
        approved = self.post(f"/api/v1/transfers/{first.json['id']}/approve", self.auth)
        assert approved.status_code == 200, approved.json
        self.child_id = approved.json["buyer_certificate_id"]
        self.listing = self.list_(self.award["id"], 2 * M, 160 * 10**6)
        offer = self.offer(self.listing["id"], 1 * M, 80 * 10**6)
        assert offer.status_code == 201, offer.json
        self.offer_id = offer.json["id"]
        pending = self.negotiate(self.award["id"], 1 * M, 80 * 10**6)
        assert pending.status_code == 201, pending.json
        self.confirm(pending.json)  # the buyer consents; it now waits for the Authority
        self.pending_id = pending.json["id"]

    def notice(self, cert_id: str, kind: str = "recapture") -> Any:
        return self.post(
            f"/api/v1/certificates/{cert_id}/notices",
            self.auth,
            {"kind": kind, "reason": "Headquarters moved out of New Jersey"},
        )

    def lift(self, cert_id: str, notice_id: str) -> Any:
        return self.post(
            f"/api/v1/certificates/{cert_id}/notices/{notice_id}/lift",
            self.auth,
            {"reason": "Authority review closed"},
        )

    def refused_as_halted(self, response: Any) -> None:
        assert response.status_code == 422, response.json
        assert response.json["error"]["code"] == "trading_halted"


def test_a_notice_halts_the_certificate_and_its_lineage_until_lifted(client: Any) -> None:
    h = Halted(client)
    other = h.issue(program="BRRAG", face_cents=M, fiscal_year=2014)
    r = h.notice(h.award["id"])
    assert r.status_code == 201, r.json
    notice = r.json
    own = h.get(f"/api/v1/parties/{h.seller['id']}/certificates", h.seller_h).json["items"]
    assert {c["id"]: c["halted"] for c in own} == {h.award["id"]: True, other["id"]: False}
    assert notice["status"] == "active" and notice["halted"] is True
    assert set(notice["halted_certificate_ids"]) == {h.award["id"], h.child_id}
    assert notice["suspended_listing_ids"] == [h.listing["id"]]
    assert h.cert(h.award["id"])["halted"] is True and h.cert(h.child_id)["halted"] is True
    held = h.get(f"/api/v1/parties/{h.buyer['id']}/certificates", h.buyer_h).json["items"]
    assert [c["halted"] for c in held] == [True]
    assert h.get("/api/v1/listings", h.buyer_h).json["items"] == []  # suspended: off the market

    before = events(h.engine)
    h.refused_as_halted(
        h.post(
            "/api/v1/listings",
            h.seller_h,
            {"certificate_id": h.award["id"], "amount_cents": M, "ask_cents": 80 * 10**6},
        )
    )
    # So is every other trading step in the award and its child (offer, negotiation,
    # acceptance, confirmation, approval): tests/unit/services/certificates/test_halts.py.
    assert events(h.engine) == before  # the refusal wrote nothing

    lifted = h.lift(h.award["id"], notice["id"])
    assert lifted.status_code == 200, lifted.json
    assert lifted.json["status"] == "lifted" and lifted.json["resumed_listing_ids"] == [
        h.listing["id"]
    ]
    assert h.cert(h.award["id"])["halted"] is False
    assert [i["id"] for i in h.get("/api/v1/listings", h.buyer_h).json["items"]] == [
        h.listing["id"]
    ]
    approved = h.post(f"/api/v1/transfers/{h.pending_id}/approve", h.auth)
    assert approved.status_code == 200, approved.json
    assert h.lift(h.award["id"], notice["id"]).status_code == 409  # once only
    replay_equals_live_and_verifies(h.engine)


def test_a_notice_on_a_derived_certificate_halts_it_and_not_its_parent(client: Any) -> None:
    h = Halted(client)
    r = h.notice(h.child_id, "invalidity")
    assert r.status_code == 201, r.json
    assert r.json["halted_certificate_ids"] == [h.child_id]
    assert h.cert(h.child_id)["halted"] is True and h.cert(h.award["id"])["halted"] is False
    assert h.post(f"/api/v1/transfers/{h.pending_id}/approve", h.auth).status_code == 200
    replay_equals_live_and_verifies(h.engine)


def test_lifting_one_of_two_notices_keeps_the_halt(client: Any) -> None:
    h = Halted(client)
    first = h.notice(h.award["id"]).json
    second = h.notice(h.award["id"], "invalidity").json
    assert second["suspended_listing_ids"] == []  # already suspended by the first
    assert h.lift(h.award["id"], first["id"]).json["resumed_listing_ids"] == []
    assert h.cert(h.award["id"])["halted"] is True
    listed = h.get(f"/api/v1/certificates/{h.award['id']}/notices").json["items"]
    assert [(n["id"], n["status"]) for n in listed] == [
        (first["id"], "lifted"),
        (second["id"], "active"),
    ]
    # The second notice found the listing suspended already; lifting it, the last one,
    # still puts the listing back on the market.
    last = h.lift(h.award["id"], second["id"]).json
    assert last["resumed_listing_ids"] == [h.listing["id"]]
    assert h.cert(h.award["id"])["halted"] is False
    assert [i["id"] for i in h.get("/api/v1/listings", h.buyer_h).json["items"]] == [
        h.listing["id"]
    ]
    replay_equals_live_and_verifies(h.engine)


def test_a_withdrawn_suspended_listing_stays_withdrawn_after_the_lift(client: Any) -> None:
    h = Halted(client)
    notice = h.notice(h.award["id"]).json
    withdrawn = h.post(f"/api/v1/listings/{h.listing['id']}/withdraw", h.seller_h)
    assert withdrawn.status_code == 200 and withdrawn.json["status"] == "withdrawn"
    assert h.lift(h.award["id"], notice["id"]).json["resumed_listing_ids"] == []
    assert h.get("/api/v1/listings", h.buyer_h).json["items"] == []
    replay_equals_live_and_verifies(h.engine)


def test_only_the_authority_issues_notices_and_bad_input_writes_nothing(client: Any) -> None:
    h = Halted(client)
    before = events(h.engine)
    url = f"/api/v1/certificates/{h.award['id']}/notices"
    assert h.post(url, h.seller_h, {"kind": "recapture", "reason": "x"}).status_code == 403
    bad = h.post(url, h.auth, {"kind": "suspicion", "reason": "x"})
    assert bad.status_code == 400 and bad.json["error"]["code"] == "validation_failed"
    assert h.post(url, h.auth, {"kind": "recapture"}).status_code == 400
    missing = h.post(
        "/api/v1/certificates/crt_nope/notices", h.auth, {"kind": "recapture", "reason": "x"}
    )
    assert missing.status_code == 404
    assert h.post(f"{url}/ntc_nope/lift", h.auth, {}).status_code == 404
    auditor = headers_for(client, h.engine, "auditor")
    assert h.get(url, auditor).status_code == 200
    assert h.get(url, h.seller_h).status_code == 403
    assert events(h.engine) == before
