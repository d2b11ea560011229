"""`tick [--as-of DATE]`: the fiscal-year roll, carryforward expiry and reminders 30 and 7
days ahead, once per day, never two at a time."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import insert

from market.adapters.tables import WorkerLease
from tests.e2e.test_certificates_api import _caps, _issue, _setup
from tests.e2e.test_returns_api import cert_row, held_certificate
from tests.helpers import create_party, events, headers_for

M = 100_000_000


def tick(app: Any, as_of: str) -> dict[str, Any]:
    r = app.test_cli_runner().invoke(args=["tick", "--as-of", as_of])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)  # type: ignore[no-any-return]


def notices(client: Any, headers: dict[str, str]) -> list[dict[str, Any]]:
    return client.get("/api/v1/notifications", headers=headers).json["items"]  # type: ignore[no-any-return]


def test_reminders_30_and_7_days_before_a_carryforward_expires_then_expiry(
    app: Any, client: Any
) -> None:
    engine = app.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    seller = create_party(client, auth, name="Studio", tax_types=["GIT"])
    buyer = create_party(client, auth, name="Buyer", tax_types=["GIT"])
    cert = held_certificate(engine, buyer["id"], seller["id"], 70_000)  # usable through 2020
    holder = headers_for(client, engine, "participant", buyer["id"])
    assert tick(app, "2021-12-01")["steps"]["reminders"] == []  # 31 days ahead: nothing yet
    first = tick(app, "2021-12-02")
    assert first["steps"]["reminders"] == [f"carryforward-{cert}-2020-d30"]
    assert tick(app, "2021-12-02")["steps"] == {
        "roll_fiscal_year": "already done",
        "expire_carryforwards": "already done",
        "reminders": "already done",
        "checkpoint": "ledger unchanged",  # signed after the first tick's reminders
    }
    assert tick(app, "2021-12-20")["steps"]["reminders"] == []  # the 30-day one went already
    assert tick(app, "2021-12-25")["steps"]["reminders"] == [f"carryforward-{cert}-2020-d7"]
    got = [n for n in notices(client, holder) if n["type"] == "REMINDER_ISSUED"]
    assert [n["subject"].split(" expires in ")[1] for n in got] == ["7 days", "30 days"]
    assert "$700.00" in got[0]["subject"] and "December 31, 2021" in got[0]["body"]
    assert tick(app, "2021-12-31")["steps"]["expire_carryforwards"] == []
    assert cert_row(engine, cert).expired_cents == 0  # still usable on December 31
    done = tick(app, "2022-01-01")["steps"]["expire_carryforwards"]
    assert done == [{"certificate_id": cert, "amount_cents": 70_000}]
    assert cert_row(engine, cert).expired_cents == 70_000
    assert tick(app, "2022-01-02")["steps"]["expire_carryforwards"] == []


def test_tick_rolls_the_digital_media_queue_into_the_new_fiscal_year(app: Any, client: Any) -> None:
    _, auth, seller = _setup(client)
    body = {"program": "DM_CBT", "holder_party_id": seller["id"], "fiscal_year": 2014}
    assert _issue(client, auth, face_cents=4 * M, **body).status_code == 201
    assert _issue(client, auth, face_cents=2 * M, **body).status_code == 201
    assert tick(app, "2014-06-30")["steps"]["roll_fiscal_year"] == []
    rolled = tick(app, "2014-07-01")["steps"]["roll_fiscal_year"]
    assert [r["allowed_cents"] for r in rolled] == [M]
    assert _caps(client, auth, 2015)["DM_CBT"]["used_cents"] == M


def test_two_ticks_never_overlap(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    with engine.begin() as conn:  # another machine's tick holds the lease
        conn.execute(
            insert(WorkerLease.__table__).values(  # type: ignore[attr-defined]
                name="tick", holder="elsewhere:1", expires_at="2999-01-01T00:00:00.000000Z"
            )
        )
    out = tick(app, "2021-12-02")
    assert out["skipped"] == "another tick is running" and out["steps"] == {}


def test_tick_signs_a_checkpoint_whenever_the_ledger_grew(app: Any, client: Any) -> None:
    engine = app.extensions["market.engine"]
    auth = headers_for(client, engine, "authority")
    create_party(client, auth, name="Studio", tax_types=["GIT"])
    first = tick(app, "2014-09-01")["steps"]["checkpoint"]
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    assert first["tree_size"] == latest["tree_size"] == events(engine)
    assert first["root_hash"] == latest["root_hash"]
    assert tick(app, "2014-09-01")["steps"]["checkpoint"] == "ledger unchanged"
    create_party(client, auth, name="Buyer", tax_types=["GIT"])
    again = tick(app, "2014-09-01")["steps"]["checkpoint"]  # same day: the steps are done
    assert again["tree_size"] == events(engine) > first["tree_size"]
