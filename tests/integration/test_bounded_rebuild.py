"""Replay, verify and export in bounded memory, on SQLite and PostgreSQL: the fold spills
to a file past its cache, verify compares a batch at a time, exports stream in batches,
and each gives what the whole-in-memory version gave."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest
from sqlalchemy import Engine, text

from market.adapters import rebuild
from market.adapters.eventstore import iter_events
from market.adapters.spill_store import SpillStore
from market.domain.commands.parties import RecordOwnership
from market.services.kernel.actor import SYSTEM
from market.services.kernel.uow import ReadOnly, UnitOfWork
from market.services.parties.parties import NewParty, record_ownership, register_party
from market.services.queries import exports, transfer_report
from market.services.trust import ledger
from tests.e2e.test_pages_support import make_market
from tests.e2e.test_reads_at_scale import sell_many
from tests.helpers import projection_rows, replay_equals_live_and_verifies


def _market(engine: Engine, parties: int = 12) -> list[str]:
    """Parties and ownership stakes rewritten many times: rows written, then changed."""
    ids = []
    with UnitOfWork(engine) as uow:
        for i in range(parties):
            new = NewParty(name=f"P{i}", tax_id=f"T{i}", entity_type="llc", tax_types=["GIT"])
            ids.append(register_party(uow, SYSTEM, new)["id"])
        for k in range(60):
            j = k % (parties - 1)
            record_ownership(uow, SYSTEM, RecordOwnership(ids[j + 1], ids[j], 100 + k, 100))
        uow.commit()
    return ids


def _tiny_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache of 3 rows and batches of 2: every path that spills or pages is taken."""
    monkeypatch.setattr(rebuild, "SpillStore", partial(SpillStore, cache_rows=3))
    monkeypatch.setattr(rebuild, "BATCH", 2)


def test_a_spilling_fold_equals_the_fold_in_memory(engine: Engine) -> None:
    _market(engine)
    with ReadOnly(engine) as conn:
        in_memory = rebuild.fold(iter_events(conn))
        with SpillStore(cache_rows=3) as spilled:
            rebuild.fold(iter_events(conn), store=spilled)
            for name, rows in in_memory.tables.items():
                assert list(spilled.iter_rows(name)) == list(rows.values()), name
                assert spilled.count(name) == len(rows)
                for key in rows:
                    assert spilled.last_seq_of(name, key) == in_memory.last_seq[(name, key)]


def test_replay_and_verify_with_a_tiny_cache_give_the_live_tables(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _market(engine)
    _tiny_cache(monkeypatch)
    replay_equals_live_and_verifies(engine)


@pytest.mark.parametrize("change", ["update", "delete"])
def test_verify_in_batches_finds_a_changed_or_missing_row(
    engine: Engine, monkeypatch: pytest.MonkeyPatch, change: str
) -> None:
    ids = _market(engine)
    _tiny_cache(monkeypatch)
    assert ledger.verify(engine).ok
    owned = ids[-1]
    with engine.begin() as conn:
        if change == "update":
            conn.execute(text("UPDATE parties SET name = 'Forged' WHERE id = :id"), {"id": owned})
        else:
            conn.execute(text("DELETE FROM ownerships WHERE owned_party_id = :id"), {"id": owned})
    report = ledger.verify(engine)
    assert not report.ok
    table = "parties" if change == "update" else "ownerships"
    assert any(p.startswith(f"{table} ") and "differs" in p for p in report.problems)
    assert report.first_bad_seq is not None
    ledger.replay(engine)
    assert ledger.verify(engine).ok


def test_exports_stream_in_batches_and_say_what_the_whole_said(engine: Engine) -> None:
    _market(engine)
    with ReadOnly(engine) as conn:
        events = list(exports.event_rows(conn))
        json_text = "".join(exports.export_chunks(conn, "events", "json"))
        csv_chunks = list(exports.iter_csv(exports.EVENT_COLUMNS, iter(events), batch=5))
        empty = "".join(exports.export_chunks(conn, "transfers", "json"))
    assert json.loads(json_text) == events and len(events) == 72
    assert json_text == json.dumps(events, indent=2, ensure_ascii=False) + "\n"
    assert empty == "[]\n"
    assert len(csv_chunks) == 72 // 5 + 1
    assert "".join(csv_chunks) == exports.to_csv(exports.EVENT_COLUMNS, events)


def test_the_transfer_rows_come_in_keyset_batches(app: Any) -> None:
    m = make_market(app)
    sell_many(m, 7, [m.buyer["id"]], approve=False)
    engine = app.extensions["market.engine"]
    with ReadOnly(engine) as conn:
        whole = transfer_report.transfer_rows(conn)
        batched = list(transfer_report.iter_transfer_rows(conn, batch=2))
    assert batched == whole and len(whole) == 7
    body = m.api.get("/api/v1/reports/transfers.csv", headers=m.eda)
    with ReadOnly(engine) as conn:
        assert body.get_data(as_text=True) == exports.transfers_report_csv(conn, SYSTEM)
    assert projection_rows(engine)["transfers"]
