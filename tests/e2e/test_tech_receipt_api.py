"""TB-6 / CMN-1 / PRODUCT.md 8.2 over the API, on SQLite and PostgreSQL: the service
stamps a TECH application's receipt; only the Authority records a paper filing's, with a
reason, as its own event; the intake closes at the end of June 30, New York time."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from market.adapters.tables import EventRow
from tests.e2e.test_tech_api import apply, seller
from tests.helpers import events, headers_for, replay_equals_live_and_verifies

events_t = EventRow.__table__  # type: ignore[attr-defined]


def _types(engine: Any, application_id: str) -> list[str]:
    with engine.connect() as conn:
        return list(
            conn.execute(
                select(events_t.c.type)
                .where(events_t.c.stream == f"tech-{application_id}")
                .order_by(events_t.c.seq)
            ).scalars()
        )


def test_the_service_stamps_a_sellers_receipt_on_the_business_date(
    client: Any, market_today: Any
) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    p = seller(client, auth)
    me = headers_for(client, engine, "participant", p["id"])
    market_today("2013-06-30")
    r = apply(client, me, p["id"], received_on=None, receipt_reason=None)
    assert r.status_code == 201, r.json
    body = r.json
    assert body["received_on"] == "2013-06-30" and body["fiscal_year"] == 2013
    assert body["received_at"].startswith("2013-06-30T") and body["received_at"].endswith("-04:00")
    assert body["receipt_reason"] is None
    assert _types(engine, body["id"]) == ["TECH_APPLICATION_RECEIVED"]
    # The next business day belongs to the next fiscal year.
    market_today("2013-07-01")
    r = apply(client, me, p["id"], received_on=None, receipt_reason=None)
    assert r.status_code == 201 and r.json["fiscal_year"] == 2014


def test_a_participant_cannot_set_the_receipt(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    p = seller(client, auth)
    me = headers_for(client, engine, "participant", p["id"])
    before = events(engine)
    r = apply(client, me, p["id"], receipt_reason=None)  # received_on 2013-03-15
    assert r.status_code == 400, r.json
    assert r.json["error"]["code"] == "received_on_not_allowed"
    assert (
        "only the Authority" in r.json["error"]["message"] and "TB-6" in r.json["error"]["message"]
    )
    r = apply(client, me, p["id"], received_on=None)  # a reason alone
    assert r.status_code == 400
    assert r.json["error"]["code"] == "receipt_reason_without_received_on"
    assert events(engine) == before


def test_the_authority_records_a_paper_filing_as_its_own_event(client: Any) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    p = seller(client, auth)
    # 03:30 UTC on July 1 is 23:30 on June 30 in New York: FY 2013's intake.
    r = apply(
        client,
        auth,
        p["id"],
        received_on="2013-07-01T03:30:00Z",
        receipt_reason="Mailed; postmarked June 28",
        fiscal_year=2013,
    )
    assert r.status_code == 201, r.json
    body = r.json
    assert (body["received_on"], body["fiscal_year"]) == ("2013-06-30", 2013)
    assert body["received_at"] == "2013-06-30T23:30:00-04:00"
    assert body["receipt_reason"] == "Mailed; postmarked June 28"
    assert _types(engine, body["id"]) == ["TECH_APPLICATION_RECEIVED", "TECH_RECEIPT_RECORDED"]
    # New York midnight is the next fiscal year, refused for FY 2013 with the deadline
    # (application_deadline_passed): tests/unit/services/tech/test_tech.py.
    replay_equals_live_and_verifies(engine)


def test_a_recorded_receipt_needs_a_reason_a_past_moment_and_good_text(
    client: Any, market_today: Any
) -> None:
    engine = client.application.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    p = seller(client, auth)
    market_today("2013-05-01")
    before = events(engine)
    r = apply(client, auth, p["id"], receipt_reason=None)
    assert r.status_code == 422 and "needs a receipt_reason" in r.json["error"]["message"]
    r = apply(client, auth, p["id"], received_on="2013-05-03")
    assert r.status_code == 422 and "after now" in r.json["error"]["message"]
    for bad in ("2013-02-30", "March 3"):
        r = apply(client, auth, p["id"], received_on=bad)
        assert r.status_code == 400, (bad, r.json)
    assert events(engine) == before
