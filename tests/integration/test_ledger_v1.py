"""A ledger written by the code before typed events (tests/fixtures/ledger_v1.jsonl),
loaded with today's code on both databases: every event upcasts, the replay folds it
into the very tables the old code had projected, and the chain verifies."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, insert, update

from market.adapters.eventstore import events_t, head_t, iter_events
from market.domain.events import event_types
from market.services.trust import ledger
from tests import ledger_v1
from tests.helpers import projection_rows
from tests.unit.later_event_samples import LATER_SAMPLES


def _load(engine: Engine, rows: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The events stored as they are (no service runs), the ledger head on the last."""
    rows = ledger_v1.events() if rows is None else rows
    last = {"seq": rows[-1]["seq"], "hash": rows[-1]["hash"]}
    with engine.begin() as conn:
        conn.execute(insert(events_t), rows)
        if conn.execute(update(head_t).where(head_t.c.id == 1).values(last)).rowcount == 0:
            conn.execute(insert(head_t).values(id=1, **last))
    return rows


def test_an_old_ledger_upcasts_replays_into_the_old_tables_and_verifies(engine: Engine) -> None:
    rows = _load(engine)
    with engine.connect() as conn:
        typed = [e.typed() for e in iter_events(conn)]
    assert [t.TYPE for t in typed] == [r["type"] for r in rows]
    # Every type older than the fixture; the newer ones have samples of their own.
    assert {t.TYPE for t in typed} == event_types() - set(LATER_SAMPLES)
    assert ledger.replay(engine) == len(rows)
    tables, old = projection_rows(engine), ledger_v1.tables()
    assert {name: tables[name] for name in old} == old
    assert not any(tables[name] for name in tables.keys() - old.keys())  # newer tables
    report = ledger.verify(engine)
    assert report.ok, report.problems
    assert (report.events, report.head_hash) == (len(rows), rows[-1]["hash"])


def test_a_changed_byte_in_the_old_ledger_still_fails_verify(engine: Engine) -> None:
    rows = ledger_v1.events()
    cert = next(r for r in rows if r["type"] == "CERT_ISSUED")
    cert["payload"]["face_cents"] += 1
    _load(engine, rows)
    report = ledger.verify(engine)
    assert not report.ok and report.first_bad_seq == cert["seq"]
