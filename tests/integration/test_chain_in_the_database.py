"""The database keeps the hash chain linked and moves the ledger head (migration 0027): a
row written by hand that does not follow the last event is refused and changes nothing;
one that follows it moves the head, as the service's own appends do. Its own hash is not
the database's to recompute: `verify` still catches a row that links but lies."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import Engine, insert
from sqlalchemy.exc import DBAPIError

from market.adapters.eventstore import GENESIS_HASH, event_count, events_t, head
from market.adapters.migrate import downgrade, upgrade
from market.domain.rulesets import get_ruleset
from market.services import demo
from market.services.trust import ledger

pytestmark = pytest.mark.storage


def _row(seq: int, prev_hash: str, digest: str | None = None) -> dict[str, Any]:
    return {
        "seq": seq,
        "stream": f"hand-{seq}",
        "version": 1,
        "type": "HAND_WRITTEN",
        "payload": {"n": seq},
        "actor": "someone",
        "recorded_at": "2014-09-01T00:00:00.000000Z",
        "prev_hash": prev_hash,
        "hash": digest or f"{seq:064x}",
    }


def _state(engine: Engine) -> tuple[int, tuple[int, str]]:
    with engine.connect() as conn:
        return event_count(conn), head(conn)


def _refused(engine: Engine, *rows: dict[str, Any]) -> None:
    before = _state(engine)
    refusal = "an event must follow the last event of the chain"
    with pytest.raises(DBAPIError, match=refusal), engine.begin() as conn:
        conn.execute(insert(events_t), list(rows))
    assert _state(engine) == before


def test_an_event_that_does_not_follow_the_last_is_refused(engine: Engine) -> None:
    demo.seed(engine, get_ruleset())
    count, (seq, last) = _state(engine)
    assert count == seq > 0
    _refused(engine, _row(seq + 1, "f" * 64))  # a wrong link
    _refused(engine, _row(seq + 2, last))  # a gap
    _refused(engine, _row(0, GENESIS_HASH))  # before the first
    _refused(engine, _row(seq + 1, last), _row(seq + 2, "e" * 64))  # the second breaks
    # A fork at an old seq is the primary key's to refuse; a fresh ledger starts at 1.
    with pytest.raises(DBAPIError), engine.begin() as conn:
        conn.execute(insert(events_t), [_row(1, GENESIS_HASH)])
    assert ledger.verify(engine).ok


def test_an_event_that_follows_moves_the_head_and_verify_still_checks_its_hash(
    engine: Engine,
) -> None:
    demo.seed(engine, get_ruleset())
    _, (seq, last) = _state(engine)
    # Two rows in one statement: each follows the one before it; the head is the last.
    with engine.begin() as conn:
        conn.execute(insert(events_t), [_row(seq + 1, last), _row(seq + 2, f"{seq + 1:064x}")])
    assert _state(engine) == (seq + 2, (seq + 2, f"{seq + 2:064x}"))
    report = ledger.verify(engine)
    assert not report.ok and report.first_bad_seq == seq + 1  # the hash is not its content's


def test_the_first_event_follows_the_genesis_hash(engine: Engine) -> None:
    _refused(engine, _row(1, "a" * 64))
    with engine.begin() as conn:
        conn.execute(insert(events_t), [_row(1, GENESIS_HASH)])
    assert _state(engine) == (1, (1, f"{1:064x}"))


def test_0027_goes_down_and_up(engine: Engine) -> None:
    """Down, the writer of 0026 moves the head itself and nothing checks the link; up
    again, the check and the move are back."""
    demo.seed(engine, get_ruleset())
    downgrade(engine, "0026")
    _, (seq, _last) = _state(engine)
    with engine.begin() as conn:
        conn.execute(insert(events_t), [_row(seq + 1, "f" * 64)])
    assert _state(engine)[1][0] == seq  # no trigger moved the head
    upgrade(engine)
    _refused(engine, _row(seq + 2, "f" * 64))
