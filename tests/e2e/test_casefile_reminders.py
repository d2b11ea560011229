"""ADM-11: the worker reminds a party 30 and 7 days before its tax clearance lapses, while
an application of its is open; once each (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest
from sqlalchemy import Engine

from market.domain.rulesets import A1178
from market.services.jobs import reminders
from market.services.kernel.uow import UnitOfWork
from tests.e2e.test_casefile_transfer_api import FACTS, tech_certificate_2024
from tests.helpers import confirm_as_buyer, create_party, headers_for

pytestmark = pytest.mark.storage


def tick(engine: Engine, on: date) -> list[str]:
    with UnitOfWork(engine) as uow:
        issued = reminders.issue_due(uow, on, A1178)
        uow.commit()
    return [k for k in issued if k.startswith("tax-clearance-")]


def test_reminders_30_and_7_days_before_lapse_while_open(
    client: Any, engine: Engine, market_today: Any
) -> None:
    market_today("2025-03-03")
    authority = headers_for(client, engine, "authority")
    seller = create_party(client, authority, name="Reminded Bio", **FACTS)
    idle = create_party(client, authority, name="Idle Bio", **FACTS)
    buyer = create_party(client, authority, name="Buyer", tax_types=["CBT"])
    for party in (seller, idle):
        r = client.post(
            f"/api/v1/parties/{party['id']}/tax-clearances",
            json={
                "certificate_number": f"TCC-{party['id']}",
                "issued_on": "2025-02-01",
                "program": "TECH",
            },
            headers=authority,
        )
        assert r.status_code == 201 and r.json["valid_until"] == "2025-05-01"
    cert = tech_certificate_2024(engine, seller["id"], 1_000_000)
    seller_h = headers_for(client, engine, "participant", seller["id"])
    r = client.post(
        "/api/v1/transfers",
        json={
            "certificate_id": cert,
            "buyer_party_id": buyer["id"],
            "amount_cents": 100_000,
            "consideration_cents": 90_000,
        },
        headers=seller_h,
    )
    confirm_as_buyer(client, r.json)
    assert tick(engine, date(2025, 4, 1)) == []  # 31 days before the lapse on May 2
    issued = tick(engine, date(2025, 4, 2))
    assert len(issued) == 1 and issued[0].endswith("-d30")  # the idle party is not reminded
    assert tick(engine, date(2025, 4, 3)) == []  # once
    assert [k[-3:] for k in tick(engine, date(2025, 4, 25))] == ["-d7"]
    assert tick(engine, date(2025, 5, 2)) == []  # lapsed: nothing more


def test_no_reminders_in_the_bills_era(client: Any, engine: Engine) -> None:
    assert tick(engine, date(2014, 9, 1)) == []
