"""Issue 23, attack 3 on the projections: the runtime role may UPDATE certificates. Face,
allowed and balance raised by $1bn together pass the table's checks; a listing over the
real balance is then accepted, and today it survived `replay` (which re-applies the
events without the checks that admitted them) and, once the row was put back, `verify`.
Both now re-check the invariants over the tables and name the certificate and the rule."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from market.adapters.tables import Certificate
from market.domain.invariants import COMMITTED
from market.services.trust import ledger
from tests.trust_world import M, build

pytestmark = pytest.mark.storage

certs_t = Certificate.__table__  # type: ignore[attr-defined]
BILLION = 100_000_000_000  # $1bn in cents


def _raise_by(engine: Engine, certificate_id: str, cents: int) -> None:
    """What the runtime role may do: every figure the checks compare, moved together."""
    with engine.begin() as conn:
        conn.execute(
            update(certs_t)
            .where(certs_t.c.id == certificate_id)
            .values(
                face_cents=certs_t.c.face_cents + cents,
                allowed_cents=certs_t.c.allowed_cents + cents,
                balance_cents=certs_t.c.balance_cents + cents,
            )
        )


def test_a_raised_balance_and_an_over_balance_listing_fail_verify_and_replay(app: Any) -> None:
    engine: Engine = app.extensions["market.engine"]
    client = app.test_client()
    w = build(client, engine)  # the seller's $2m certificate, $1m of it sold: $1m left
    with engine.connect() as conn:
        number = conn.execute(
            select(certs_t.c.number).where(certs_t.c.id == w.certificate_id)
        ).scalar_one()
    _raise_by(engine, w.certificate_id, BILLION)
    listed = client.post(
        "/api/v1/listings",
        headers=w.seller,
        json={
            "certificate_id": w.certificate_id,
            "amount_cents": 3 * M // 2,
            "ask_cents": 3 * M // 2,
        },
    )
    assert listed.status_code == 201, listed.json  # the attack: over the real $1m
    runner = app.test_cli_runner()
    found = runner.invoke(args=["verify"])
    assert found.exit_code == 1
    assert f"certificates {w.certificate_id} differs from the events" in found.output
    refused = runner.invoke(args=["replay"])
    assert refused.exit_code != 0, refused.output
    assert f"certificate {number} ({w.certificate_id}) breaks {COMMITTED}" in refused.output
    assert "not replayed" in refused.output
    with pytest.raises(ledger.InvariantBrokenError) as caught:
        ledger.replay(engine)
    assert caught.value.code == "ledger_invariant_broken"
    assert [b.rule for b in caught.value.breaches] == [COMMITTED]
    with engine.connect() as conn:  # nothing was changed: the raised row is still there
        balance = conn.execute(
            select(certs_t.c.balance_cents).where(certs_t.c.id == w.certificate_id)
        ).scalar_one()
    assert balance == M + BILLION
    # The row put back by hand: the projections match the events again, and the listing
    # over the balance is what verify names.
    _raise_by(engine, w.certificate_id, -BILLION)
    again = runner.invoke(args=["verify"])
    assert again.exit_code == 1
    assert f"certificate {number} ({w.certificate_id}) breaks {COMMITTED}" in again.output
    assert "over the balance of $1,000,000.00" in again.output
    report = ledger.verify(engine)
    assert not report.ok and report.first_bad_seq is None
    # Withdrawn through the service, the ledger keeps its invariants and replays.
    withdrawn = client.post(
        f"/api/v1/listings/{listed.json['id']}/withdraw", json={}, headers=w.authority
    )
    assert withdrawn.status_code == 200, withdrawn.json
    assert runner.invoke(args=["replay"]).exit_code == 0
    assert runner.invoke(args=["verify"]).exit_code == 0


def test_the_request_verify_names_an_over_balance_listing_made_after_the_checkpoint(
    app: Any,
) -> None:
    """GET /ledger/verify re-checks the invariants of every certificate the events since
    the last checkpoint name, so the attack shows without waiting for `flask verify`."""
    engine: Engine = app.extensions["market.engine"]
    client = app.test_client()
    w = build(client, engine)
    made = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert made.status_code == 201, made.json
    assert client.get("/api/v1/ledger/verify", headers=w.auditor).json["ok"] is True
    _raise_by(engine, w.certificate_id, BILLION)
    listed = client.post(
        "/api/v1/listings",
        headers=w.seller,
        json={
            "certificate_id": w.certificate_id,
            "amount_cents": 3 * M // 2,
            "ask_cents": 3 * M // 2,
        },
    )
    assert listed.status_code == 201, listed.json
    _raise_by(engine, w.certificate_id, -BILLION)  # the row put back: only the listing shows
    found = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert found["ok"] is False, found
    assert any(f"({w.certificate_id}) breaks {COMMITTED}" in p for p in found["problems"])
