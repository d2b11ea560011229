"""The two attacks of issue 13, as an attacker with the owner's rights would make them
(append-only triggers switched off): a rewrite that re-chains every later event, fixes the
head and replays; a truncation of the last three events with the head fixed. Both are
caught by `flask verify` naming the signed checkpoint they contradict, `replay` refuses,
and the incremental verify of `GET /ledger/verify` fails too."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

from market.adapters.eventstore import compute_hash, events_t, head_t
from tests.trust_world import build

pytestmark = pytest.mark.storage

SQLITE_TRIGGERS = ("events_no_update", "events_no_delete")


@pytest.fixture
def unguarded(app: Any) -> Iterator[Engine]:
    """The append-only triggers off, as the schema's owner can; back on afterwards."""
    engine: Engine = app.extensions["market.engine"]
    sqlite = engine.dialect.name == "sqlite"
    with engine.begin() as conn:
        if sqlite:
            for name in SQLITE_TRIGGERS:
                conn.execute(text(f"DROP TRIGGER {name}"))
        else:
            conn.execute(text("ALTER TABLE events DISABLE TRIGGER events_no_update_delete"))
    yield engine
    with engine.begin() as conn:
        if sqlite:
            for name in SQLITE_TRIGGERS:
                action = name.rsplit("_", 1)[1].upper()
                conn.execute(
                    text(
                        f"CREATE TRIGGER {name} BEFORE {action} ON events "
                        "BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
                    )
                )
        else:
            conn.execute(text("ALTER TABLE events ENABLE TRIGGER events_no_update_delete"))


def _rewrite(engine: Engine, seq: int) -> None:
    """Change one payload, recompute every later hash and the head."""
    with engine.begin() as conn:
        rows = [
            dict(r)
            for r in conn.execute(
                select(events_t).where(events_t.c.seq >= seq).order_by(events_t.c.seq)
            ).mappings()
        ]
        prev = rows[0]["prev_hash"]
        for i, r in enumerate(rows):
            if i == 0:
                r["payload"] = {**r["payload"], "name": "Forged Holdings"}
            r["prev_hash"] = prev
            r["hash"] = compute_hash(
                r["seq"],
                r["stream"],
                r["version"],
                r["type"],
                r["payload"],
                r["actor"],
                r["recorded_at"],
                prev,
            )
            conn.execute(
                events_t.update()
                .where(events_t.c.seq == r["seq"])
                .values(payload=r["payload"], prev_hash=prev, hash=r["hash"])
            )
            prev = r["hash"]
        conn.execute(head_t.update().values(hash=prev))


def _truncate(engine: Engine, count: int) -> None:
    with engine.begin() as conn:
        last = conn.execute(select(head_t.c.seq)).scalar_one()
        conn.execute(events_t.delete().where(events_t.c.seq > last - count))
        new_head = conn.execute(
            select(events_t.c.seq, events_t.c.hash).order_by(events_t.c.seq.desc()).limit(1)
        ).one()
        conn.execute(head_t.update().values(seq=new_head.seq, hash=new_head.hash))


def _first_party_seq(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(
            conn.execute(
                select(events_t.c.seq).where(events_t.c.type == "PARTY_REGISTERED").limit(1)
            ).scalar_one()
        )


def _checkpoint(app: Any) -> str:
    result = app.test_cli_runner().invoke(args=["checkpoint"])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_rewrite_that_rechains_and_replays_is_caught(
    app: Any, client: Any, unguarded: Engine
) -> None:
    w = build(client, unguarded)
    runner = app.test_cli_runner()
    assert "checkpoint" in _checkpoint(app)
    ok = runner.invoke(args=["verify"])
    assert ok.exit_code == 0 and "2 checkpoint copies (files and stored) agree" in ok.output, (
        ok.output
    )
    _rewrite(unguarded, _first_party_seq(unguarded))
    replay = runner.invoke(args=["replay"])
    assert replay.exit_code != 0
    assert "contradicts a signed checkpoint" in replay.output and ".checkpoint" in replay.output
    verify = runner.invoke(args=["verify", "--json"])
    assert verify.exit_code == 1
    assert "history was rewritten" in verify.output and ".checkpoint" in verify.output
    # The chain itself is consistent: only the checkpoint shows the rewrite.
    assert "hash does not match" not in verify.output
    v = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert v["ok"] is False and "checkpoint" in " ".join(v["problems"])
    # And no new checkpoint is signed over it.
    r = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert r.status_code == 409 and r.json["error"]["code"] == "ledger_contradicts_tree"


def test_a_truncation_with_the_head_fixed_is_caught(
    app: Any, client: Any, unguarded: Engine
) -> None:
    w = build(client, unguarded)
    _checkpoint(app)
    _truncate(unguarded, 3)
    runner = app.test_cli_runner()
    verify = runner.invoke(args=["verify"])
    assert verify.exit_code == 1
    assert "the ledger has only" in verify.output and ".checkpoint" in verify.output
    assert "contradicts a signed checkpoint" in runner.invoke(args=["replay"]).output
    v = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert v["ok"] is False and v["first_bad_seq"] == v["events"] + 1
