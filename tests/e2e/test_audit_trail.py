"""The audit trail per user: every event records the user and the party it acted for;
the Authority and auditors list what one user did; old events (actor `user:<id>`) still
verify and still list."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import select

from market.adapters.tables import User
from market.domain.events.deals import ReminderIssued
from market.services.kernel.uow import UnitOfWork
from market.services.trust.ledger import verify
from tests.e2e.test_notifications_api import sale
from tests.e2e.test_pages_support import browser
from tests.e2e.test_trading_api import Market
from tests.helpers import headers_for


def user_id_of(m: Market, headers: dict[str, str]) -> str:
    token_user = m.get("/api/v1/audit/users", m.auth).json["items"]
    mine = {u["party_id"]: u["id"] for u in token_user if u["party_id"]}
    return mine[m.seller["id"]] if headers is m.seller_h else mine[m.buyer["id"]]


def test_each_event_names_the_user_and_the_party_it_acted_for(client: Any) -> None:
    m = Market(client)
    sale(m)
    seller_user = user_id_of(m, m.seller_h)
    r = m.get(f"/api/v1/audit/users/{seller_user}/events", m.auth)
    assert r.status_code == 200, r.json
    assert [e["type"] for e in r.json["items"]] == [
        "LISTING_CREATED",
        "OFFER_ACCEPTED",
        "TRANSFER_PROPOSED",
    ]
    assert {e["actor"] for e in r.json["items"]} == {f"user:{seller_user}@{m.seller['id']}"}
    assert {e["acted_for"] for e in r.json["items"]} == {m.seller["id"]}
    auditor_h = headers_for(m.client, m.engine, "auditor")
    auditor = m.get(f"/api/v1/audit/users/{seller_user}/events", auditor_h)
    assert auditor.status_code == 200
    assert m.get(f"/api/v1/audit/users/{seller_user}/events", m.buyer_h).status_code == 403
    assert m.get("/api/v1/audit/users/usr_nobody/events", m.auth).status_code == 404


def test_events_written_before_the_party_was_recorded_still_verify_and_list(
    client: Any,
) -> None:
    m = Market(client)
    with m.engine.connect() as conn:
        someone = conn.execute(select(User.__table__.c.id).limit(1)).scalar()  # type: ignore[attr-defined]
    with UnitOfWork(m.engine) as uow:  # as the service recorded events until now
        reminder = ReminderIssued(
            kind="tech_application_deadline",
            party_ids=[],
            due_on="2015-06-30",
            days_before=30,
            as_of="2015-05-31",
            subject="TECH applications close in 30 days",
            body="",
            link="/seller",
        )
        uow.append("reminder-old-style", reminder, f"user:{someone}")
        uow.commit()
    report = verify(m.engine)
    assert report.ok, report
    items = m.get(f"/api/v1/audit/users/{someone}/events", m.auth).json["items"]
    assert items[-1]["actor"] == f"user:{someone}" and items[-1]["type"] == "REMINDER_ISSUED"


def test_the_audit_page_lists_one_users_actions(app: Any, client: Any) -> None:
    m = Market(client)
    sale(m)
    seller_user = user_id_of(m, m.seller_h)
    page = browser(app, "auditor").get(f"/audit?user={seller_user}").get_data(as_text=True)
    assert "LISTING_CREATED" in page and "TRANSFER_PROPOSED" in page and "Seller Co" in page
    assert len(re.findall(r"<tr><td class=\"num\" data-label=\"Seq\">", page)) == 3
    assert browser(app, "participant", m.seller["id"]).get("/audit").status_code == 403
