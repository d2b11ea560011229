"""A TECH application's life: received, then allocated, on its timeline, in the seller's
inbox with its own allocation in dollars, on its public status with the June 30
deadline; and the deadline's reminders from `tick`."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_tech_api import apply, seller
from tests.e2e.test_tick import notices, tick
from tests.helpers import headers_for


def test_application_timeline_inbox_and_public_status(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    party = seller(client, auth, name="Princeton Qubits")
    own = headers_for(client, engine, "participant", party["id"])
    application = apply(client, auth, party["id"]).json
    assert client.post("/api/v1/tech/allocations/2013", json={}, headers=auth).status_code == 201
    got = client.get(f"/api/v1/tech/applications/{application['id']}", headers=own).json
    # The Authority sent `received_on` (a paper filing), so its receipt is its own step.
    assert [(s["status"], s["by"]) for s in got["timeline"]] == [
        ("received", "the Authority"),
        ("tech receipt recorded", "the Authority"),
        ("allocated", "the Authority"),
    ]
    assert got["next_step"].startswith("None: a certificate")
    note = next(n for n in notices(client, own) if n["type"] == "FY_ALLOCATION_RUN")
    assert "Your allocation: $100,000.00." in note["body"]
    public = client.get(f"/api/v1/public/status/{got['reference']}").json
    assert public["kind"] == "tech_application" and public["deadline"] == "2013-06-30"
    assert public["status"] == "allocated" and "Princeton" not in str(public)


def test_the_june_30_deadline_is_reminded_30_and_7_days_ahead(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    party = seller(client, auth)
    own = headers_for(client, engine, "participant", party["id"])
    apply(client, auth, party["id"])  # a TECH seller: it hears of the next deadline
    assert tick(app, "2013-05-31")["steps"]["reminders"] == ["tech-deadline-2013-d30"]
    assert tick(app, "2013-06-23")["steps"]["reminders"] == ["tech-deadline-2013-d7"]
    assert tick(app, "2013-06-30")["steps"]["reminders"] == []  # both went already
    subjects = [n["subject"] for n in notices(client, own) if n["type"] == "REMINDER_ISSUED"]
    assert subjects == [
        "TECH applications for FY 2013 close in 7 days",
        "TECH applications for FY 2013 close in 30 days",
    ]
