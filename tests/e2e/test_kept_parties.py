"""Party rows kept per process (issue 25, the statement diet), on SQLite and PostgreSQL: a
write takes the parties it kept without a statement while the party epoch, read with the
ledger head, stays. Any change of a party, through the API or written by hand, moves the
epoch (migration 0025); a change that commits while a write waits for the head is seen by
that write; a unit of work after one that wrote a party in the same batch reads it afresh.
The epoch itself only moves forward."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError

from market.adapters.db import WRITE_OPTION
from market.adapters.eventstore import EventStore
from market.services.kernel.uow import UnitOfWork
from market.services.kernel.write_batch import WriteBatch
from tests.e2e.test_kept_principals import market_with_a_sale
from tests.e2e.test_trading_api import Market
from tests.helpers import events, selects_naming

M = 100_000_000


def _party_reads(engine: Engine, run: Callable[[], Any]) -> tuple[Any, int]:
    return selects_naming(engine, "FROM parties", run)


def _sell(m: Market, cert: dict[str, Any]) -> Any:
    return m.negotiate(cert["id"], M // 10, 8 * M // 100)


def test_a_write_takes_the_parties_it_kept_without_a_statement(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    made, reads = _party_reads(m.engine, lambda: _sell(m, cert))
    assert made.status_code == 201, made.json
    assert reads == 0


def test_a_party_changed_by_hand_is_read_again_and_decides(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    with m.engine.begin() as conn:
        no_taxes = "UPDATE parties SET tax_types = '[]' WHERE id = :b"
        conn.execute(text(no_taxes), {"b": m.buyer["id"]})
    before = events(m.engine)
    refused, reads = _party_reads(m.engine, lambda: _sell(m, cert))
    assert refused.json["error"]["code"] == "tax_type_not_allowed", refused.json
    assert reads == 1
    assert events(m.engine) == before


def test_a_party_changed_through_the_api_is_read_again_once(client: Any) -> None:
    m, cert = market_with_a_sale(client)
    facts = {"naics_code": "512110", "employees": {"2013": 12}, "us_employees": 40}
    changed = client.patch(f"/api/v1/parties/{m.buyer['id']}", json=facts, headers=m.auth)
    assert changed.status_code == 200, changed.json
    made, reads = _party_reads(m.engine, lambda: _sell(m, cert))
    assert made.status_code == 201 and reads == 1
    again, reads = _party_reads(m.engine, lambda: _sell(m, cert))
    assert again.status_code == 201 and reads == 0


REVOKE = (
    "UPDATE api_tokens SET revoked_at = '2026-01-01T00:00:00Z'"
    " WHERE user_id IN (SELECT id FROM users WHERE party_id = :seller)"
)


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ("UPDATE parties SET tax_types = '[]' WHERE id = :buyer", "tax_type_not_allowed"),
        (REVOKE, "unauthorized"),
    ],
)
def test_a_change_committed_while_a_write_waits_for_the_head_is_seen(
    client: Any, change: str, code: str
) -> None:
    """Another transaction holds the head and changes a party (or revokes the seller's
    tokens); a write queued behind it must decide on the change. On PostgreSQL an epoch
    read by a subquery would be the one of its statement's snapshot, before the wait."""
    m, cert = market_with_a_sale(client)
    before = events(m.engine)
    answer: dict[str, Any] = {}
    with m.engine.connect() as holder:
        holder.execution_options(**{WRITE_OPTION: True})
        tx = holder.begin()
        EventStore(holder).lock_head()
        holder.execute(text(change), {"buyer": m.buyer["id"], "seller": m.seller["id"]})
        writer = threading.Thread(target=lambda: answer.update(r=_sell(m, cert)))
        writer.start()
        time.sleep(0.5)  # the write is queued behind the head by now
        assert writer.is_alive()
        tx.commit()
    writer.join(30)
    assert answer["r"].json["error"]["code"] == code, answer["r"].json
    assert events(m.engine) == before


def test_a_unit_after_one_that_wrote_a_party_in_its_batch_reads_it_afresh(client: Any) -> None:
    m, _cert = market_with_a_sale(client)
    buyer = m.buyer["id"]
    with WriteBatch(m.engine) as batch:
        with UnitOfWork(m.engine, batch) as first:
            first.store.update("parties", buyer, {"name": "Renamed In The Batch"})
            first.commit()
        with UnitOfWork(m.engine, batch) as second:
            row = second.store.get("parties", buyer)
            assert row is not None and row["name"] == "Renamed In The Batch"
            second.commit()
        # the batch does not commit: the rename is rolled back with it
    with UnitOfWork(m.engine) as after:
        row = after.store.get("parties", buyer)
        assert row is not None and row["name"] == "Buyer Co"


@pytest.mark.parametrize(
    "attempt",
    ["UPDATE party_epoch SET n = n - 1", "UPDATE party_epoch SET n = n", "DELETE FROM party_epoch"],
)
def test_the_party_epoch_only_moves_forward(engine: Engine, attempt: str) -> None:
    with pytest.raises(DBAPIError, match="party_epoch"), engine.begin() as conn:
        conn.execute(text(attempt))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM party_epoch")).scalar() == 1
