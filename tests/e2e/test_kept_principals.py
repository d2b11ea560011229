"""Bearer principals kept per process (issue 25, the statement diet), on SQLite and
PostgreSQL: a ledger command takes the principal it kept without a statement, and the
write checks it against the auth epoch read with the ledger head. Any change that could
alter a principal, through the API or written by hand into the database, moves the epoch
(migration 0024), so a revoked token or a deactivated user is refused at the next
request and nothing is written; the epoch itself only moves forward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from tests.e2e.test_trading_api import Market
from tests.helpers import events, selects_naming

M = 100_000_000


def _token_reads(engine: Engine, run: Callable[[], Any]) -> tuple[Any, int]:
    return selects_naming(engine, "api_tokens", run)


def market_with_a_sale(client: Any) -> tuple[Market, dict[str, Any]]:
    m = Market(client)
    cert = m.issue(program="BRRAG", face_cents=4 * M, fiscal_year=2014)
    first = m.negotiate(cert["id"], M // 10, 8 * M // 100)  # reads and keeps the principal
    assert first.status_code == 201, first.json
    return m, cert


def _by_hand(engine: Engine, sql: str, **params: Any) -> None:
    with engine.begin() as conn:
        conn.execute(text(sql), params)


def test_a_kept_principal_writes_without_reading_its_token(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    made, reads = _token_reads(m.engine, lambda: m.negotiate(cert["id"], M // 10, 8 * M // 100))
    assert made.status_code == 201, made.json
    assert reads == 0
    # A read is not a ledger command: it reads its principal every time.
    listed, reads = _token_reads(m.engine, lambda: m.get("/api/v1/transfers", m.seller_h))
    assert listed.status_code == 200 and reads == 1


@pytest.mark.parametrize(
    "change",
    [
        "UPDATE api_tokens SET revoked_at = '2026-01-01T00:00:00Z'"
        " WHERE user_id IN (SELECT id FROM users WHERE party_id = :party)",
        "UPDATE users SET active = false WHERE party_id = :party",
        "UPDATE users SET role = 'auditor' WHERE party_id = :party",
        "DELETE FROM api_tokens WHERE user_id IN (SELECT id FROM users WHERE party_id = :party)",
    ],
)
def test_a_change_written_by_hand_is_refused_at_the_next_write(client: Any, change: str) -> None:
    m, cert = market_with_a_sale(client)
    _by_hand(m.engine, change, party=m.seller["id"])
    before = events(m.engine)
    refused = m.negotiate(cert["id"], M // 10, 8 * M // 100)
    assert refused.status_code == 401, refused.json
    assert refused.json["error"]["code"] == "unauthorized"
    assert events(m.engine) == before


def test_a_token_revoked_through_the_api_is_refused_at_the_next_write(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    assert m.post("/api/v1/auth/revoke", m.seller_h).status_code == 200
    before = events(m.engine)
    assert m.negotiate(cert["id"], M // 10, 8 * M // 100).status_code == 401
    assert events(m.engine) == before


def test_another_users_change_costs_one_read_and_the_write_goes_on(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    assert m.post("/api/v1/auth/revoke", m.buyer_h).status_code == 200  # the epoch moves
    made, reads = _token_reads(m.engine, lambda: m.negotiate(cert["id"], M // 10, 8 * M // 100))
    assert made.status_code == 201, made.json
    assert reads == 1  # read again under the ledger head, found unchanged
    again, reads = _token_reads(m.engine, lambda: m.negotiate(cert["id"], M // 10, 8 * M // 100))
    assert again.status_code == 201 and reads == 0


def test_a_refusal_before_the_command_is_401_for_a_revoked_token(client: Any) -> None:
    """The request never reaches its unit of work (an unknown transfer): the kept
    principal is read before the answer leaves, and a revoked token learns nothing."""
    m, _cert = market_with_a_sale(client)
    known = m.post("/api/v1/transfers/trf_unknown/decline", m.seller_h, {"reason": "x"})
    assert known.status_code == 404, known.json
    _by_hand(
        m.engine,
        "UPDATE api_tokens SET revoked_at = '2026-01-01T00:00:00Z'"
        " WHERE user_id IN (SELECT id FROM users WHERE party_id = :party)",
        party=m.seller["id"],
    )
    refused = m.post("/api/v1/transfers/trf_unknown/decline", m.seller_h, {"reason": "x"})
    assert refused.status_code == 401, refused.json


def test_an_idempotent_replay_by_a_revoked_token_is_refused(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    body = {
        "certificate_id": cert["id"],
        "buyer_party_id": m.buyer["id"],
        "amount_cents": M // 10,
        "consideration_cents": 8 * M // 100,
    }
    keyed = {**m.seller_h, "Idempotency-Key": "kept-1"}
    first = client.post("/api/v1/transfers", json=body, headers=keyed)
    assert first.status_code == 201, first.json
    assert client.post("/api/v1/transfers", json=body, headers=keyed).json == first.json
    assert m.post("/api/v1/auth/revoke", m.seller_h).status_code == 200
    assert client.post("/api/v1/transfers", json=body, headers=keyed).status_code == 401


@pytest.mark.parametrize(
    "attempt",
    ["UPDATE auth_epoch SET n = n - 1", "UPDATE auth_epoch SET n = n", "DELETE FROM auth_epoch"],
)
def test_the_auth_epoch_only_moves_forward(engine: Engine, attempt: str) -> None:
    with pytest.raises(DBAPIError, match="auth_epoch"):
        _by_hand(engine, attempt)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM auth_epoch")).scalar() == 1
