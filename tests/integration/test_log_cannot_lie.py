"""Issue 23, attacks 1, 2 and 4, as an attacker with the schema owner's rights makes them:
the log must never sign what contradicts what it published (the files in CHECKPOINT_DIR
outlive whatever is done to the database), a new key must not disarm the old
checkpoints, and a row written by hand into the trust tables is never served or built on.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, text

from market.adapters.eventstore import events_t, head_t
from market.adapters.signing import create_key_file, load_signer
from market.domain.checkpoint_note import Note, Signature, signed_text
from market.services.trust.checkpoints import TrustSettings
from tests.helpers import create_party
from tests.trust_world import World, build

pytestmark = pytest.mark.storage

TABLES = ("events", "merkle_nodes", "checkpoints")
# The chain's own triggers (migration 0027) stay on: a cut needs only the append-only
# ones off, and the service appending afterwards moves the head through them.
CHAIN_TRIGGERS = ("events_follow_the_chain", "events_move_the_head")


@pytest.fixture
def owner(app: Any) -> Iterator[Engine]:
    """Every append-only trigger off, as the schema's owner can; back on afterwards."""
    engine: Engine = app.extensions["market.engine"]
    sqlite = engine.dialect.name == "sqlite"
    saved: list[str] = []
    with engine.begin() as conn:
        if sqlite:
            saved = list(
                conn.execute(
                    text(
                        "SELECT sql FROM sqlite_master WHERE type='trigger' AND tbl_name IN "
                        "('events', 'merkle_nodes', 'checkpoints') AND name NOT IN "
                        f"{CHAIN_TRIGGERS}"
                    )
                ).scalars()
            )
            names = conn.execute(
                text(
                    "SELECT name FROM sqlite_master WHERE type='trigger' AND tbl_name IN "
                    f"('events', 'merkle_nodes', 'checkpoints') AND name NOT IN {CHAIN_TRIGGERS}"
                )
            ).scalars()
            for name in list(names):
                conn.execute(text(f"DROP TRIGGER {name}"))
        else:
            for table, trigger in _pg_guards():
                conn.execute(text(f"ALTER TABLE {table} DISABLE TRIGGER {trigger}"))
    yield engine
    with engine.begin() as conn:
        if sqlite:
            for sql in saved:
                conn.execute(text(sql))
        else:
            for table, trigger in _pg_guards():
                conn.execute(text(f"ALTER TABLE {table} ENABLE TRIGGER {trigger}"))


def _pg_guards() -> list[tuple[str, str]]:
    """PostgreSQL: each table's triggers but the chain's (USER would take those too)."""
    events = [("events", "events_no_update_delete"), ("events", "events_no_truncate")]
    return events + [(table, "USER") for table in TABLES if table != "events"]


def _settings(app: Any) -> TrustSettings:
    return TrustSettings.from_config(app.config, app.instance_path)


def _checkpoint(client: Any, w: World) -> Any:
    return client.post("/api/v1/ledger/checkpoints", headers=w.authority)


def _cut_and_erase(engine: Engine, keep: int) -> None:
    """Events after `keep` gone, the head moved back, the tree and the stored checkpoints
    erased: what restoring an old backup and tidying up looks like from inside."""
    with engine.begin() as conn:
        conn.execute(events_t.delete().where(events_t.c.seq > keep))
        last = conn.execute(select(events_t.c.hash).where(events_t.c.seq == keep)).scalar_one()
        conn.execute(head_t.update().values(seq=keep, hash=last))
        conn.execute(text("DELETE FROM merkle_nodes"))
        conn.execute(text("DELETE FROM checkpoints"))


def _head(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(head_t.c.seq)).scalar_one())


def test_a_cut_ledger_grown_past_a_published_checkpoint_is_never_signed(
    app: Any, client: Any, owner: Engine
) -> None:
    w = build(client, owner)
    first = _checkpoint(client, w)
    assert first.status_code == 201, first.json
    published = first.json["tree_size"]
    _cut_and_erase(owner, published - 3)
    # The ledger grows again, past the size that was published, along another history.
    for i in range(5):
        create_party(client, w.authority, name=f"Fork Holdings {i}")
    assert _head(owner) > published
    r = _checkpoint(client, w)
    assert r.status_code == 409, r.json
    assert r.json["error"]["code"] == "ledger_contradicts_checkpoint"
    assert "not consistent with checkpoint" in r.json["error"]["message"]
    # Nothing was signed: one file, as before.
    assert len(list(_settings(app).checkpoint_dir.glob("*.checkpoint"))) == 1
    verify = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert verify["ok"] is False, verify
    assert any("000000000" in p for p in verify["problems"]), verify["problems"]
    # tick does not sign it either, and says so.
    out = app.test_cli_runner().invoke(args=["tick"])
    assert out.exit_code != 0
    assert "ledger_contradicts_checkpoint" in out.output or "contradicts" in out.output


def test_a_cut_ledger_shorter_than_a_published_checkpoint_is_never_signed(
    app: Any, client: Any, owner: Engine
) -> None:
    w = build(client, owner)
    published = _checkpoint(client, w).json["tree_size"]
    _cut_and_erase(owner, published - 6)
    create_party(client, w.authority, name="Second History")
    r = _checkpoint(client, w)
    assert r.status_code == 409 and r.json["error"]["code"] == "ledger_contradicts_checkpoint"
    assert f"signed {published} events" in r.json["error"]["message"]
    verify = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert verify["ok"] is False and verify["first_bad_seq"] is not None


def test_the_same_size_with_another_root_is_never_signed(
    app: Any, client: Any, owner: Engine
) -> None:
    w = build(client, owner)
    published = _checkpoint(client, w).json["tree_size"]
    _cut_and_erase(owner, published - 1)
    create_party(client, w.authority, name="Same Size Other Root")
    assert _head(owner) == published
    r = _checkpoint(client, w)
    assert r.status_code == 409 and r.json["error"]["code"] == "ledger_contradicts_checkpoint"
    assert "the tree now has" in r.json["error"]["message"]


def test_two_published_checkpoints_of_one_size_are_flagged(
    app: Any, client: Any, owner: Engine
) -> None:
    """A split view that did get out (two signed roots for one size) is reported by the
    request's verify, not only by the CLI."""
    w = build(client, owner)
    made = _checkpoint(client, w).json
    key = load_signer(_settings(app).key_file, _settings(app).origin, create=False)
    other = Note(_settings(app).origin, made["tree_size"], b"\x05" * 32).text
    sig = Signature(key.name, key.key_hash, key.sign(other.encode()))
    path = _settings(app).checkpoint_dir / f"{made['tree_size']:012d}-0505050505050505.checkpoint"
    path.write_text(signed_text(other, [sig]))
    verify = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert verify["ok"] is False
    assert any("two checkpoints of size" in p for p in verify["problems"]), verify
    assert _checkpoint(client, w).status_code == 409


def test_a_new_key_does_not_disarm_the_old_checkpoints(
    app: Any, client: Any, owner: Engine, tmp_path: Path
) -> None:
    """Attack 2: the key file replaced and the stored checkpoints deleted. The old files
    name our origin under a key that is no longer the file's: verify fails, replay
    refuses, and with TRUSTED_LOG_KEYS pinned the new key signs nothing."""
    w = build(client, owner)
    old = client.get("/api/v1/ledger/public-key").json["verifier_key"]
    assert _checkpoint(client, w).status_code == 201
    with owner.begin() as conn:
        conn.execute(text("DELETE FROM checkpoints"))
    key_file = _settings(app).key_file
    key_file.unlink()
    create_key_file(key_file)
    runner = app.test_cli_runner()
    out = runner.invoke(args=["verify"])
    assert out.exit_code != 0
    assert "signed for our origin by a key that is not trusted" in out.output
    assert runner.invoke(args=["replay"]).exit_code != 0
    app.config["TRUSTED_LOG_KEYS"] = old
    create_party(client, w.authority, name="After The Swap")
    r = _checkpoint(client, w)
    assert r.status_code == 503 and r.json["error"]["code"] == "signing_key_not_trusted"


def test_pinned_keys_let_a_reader_check_without_the_key_file(
    app: Any, client: Any, owner: Engine
) -> None:
    w = build(client, owner)
    vkey = client.get("/api/v1/ledger/public-key").json["verifier_key"]
    assert _checkpoint(client, w).status_code == 201
    app.config["TRUSTED_LOG_KEYS"] = f"\n{vkey}\n"
    assert client.get("/api/v1/ledger/verify", headers=w.auditor).json["ok"] is True
    assert app.test_cli_runner().invoke(args=["verify"]).exit_code == 0


def test_a_forged_checkpoint_row_is_never_served_or_built_on(
    app: Any, client: Any, owner: Engine
) -> None:
    """Attack 4: one INSERT into checkpoints with a bad signature, larger than any real
    one. It is not the latest, breaks no proof bundle, and the next checkpoint is made."""
    w = build(client, owner)
    real = _checkpoint(client, w).json
    size = real["tree_size"] + 1
    forged_note = Note(_settings(app).origin, size, b"\x09" * 32).text
    with owner.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO checkpoints (tree_size, root_hash, timestamp, key_id, signature, "
                "note) VALUES (:s, :r, '2026-01-01T00:00:00Z', :k, :sig, :n)"
            ),
            {
                "s": size + 100,
                "r": "09" * 32,
                "k": real["key_id"],
                "sig": base64.b64encode(b"\x00" * 64).decode(),
                "n": Note(_settings(app).origin, size + 100, b"\x09" * 32).text,
            },
        )
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    assert latest["tree_size"] == real["tree_size"], latest
    listed = client.get("/api/v1/ledger/checkpoints").json["items"]
    assert [c["tree_size"] for c in listed] == [real["tree_size"]]
    bundle = client.get(f"/api/v1/certificates/{w.certificate_id}/proof", headers=w.seller)
    assert bundle.status_code == 200, bundle.json
    create_party(client, w.authority, name="After The Forgery")
    again = _checkpoint(client, w)
    assert again.status_code == 201, again.json
    assert forged_note  # the forged row's note never reaches a reader
    out = app.test_cli_runner().invoke(args=["verify", "--json"])
    report = json.loads(out.output.splitlines()[-1])
    assert any("does not verify" in p for p in report["checkpoints"]["problems"]), report


def test_a_merkle_row_past_the_head_does_not_stop_checkpoints(
    app: Any, client: Any, owner: Engine
) -> None:
    w = build(client, owner)
    head_seq = _head(owner)
    with owner.begin() as conn:
        conn.execute(
            text("INSERT INTO merkle_nodes (level, idx, hash) VALUES (0, :i, :h)"),
            {"i": head_seq + 500, "h": b"\x01" * 32},
        )
    r = _checkpoint(client, w)
    assert r.status_code == 201, r.json
    assert r.json["tree_size"] == head_seq


def test_a_rotation_signed_by_the_old_key_keeps_every_checkpoint_trusted(
    app: Any, client: Any, owner: Engine, tmp_path: Path
) -> None:
    w = build(client, owner)
    old_vkey = client.get("/api/v1/ledger/public-key").json["verifier_key"]
    assert _checkpoint(client, w).status_code == 201
    new_file = tmp_path / "next_key"
    runner = app.test_cli_runner()
    out = runner.invoke(args=["rotate-key", "--new-key-file", str(new_file)])
    assert out.exit_code == 0, out.output
    statements = list(_settings(app).checkpoint_dir.glob("key-rotation-*.note"))
    assert len(statements) == 1 and "key rotation" in statements[0].read_text()
    # The old key stays pinned; the new one is trusted through the statement.
    app.config["TRUSTED_LOG_KEYS"] = old_vkey
    app.config["SIGNING_KEY_FILE"] = str(new_file)
    create_party(client, w.authority, name="After The Rotation")
    r = _checkpoint(client, w)
    assert r.status_code == 201, r.json
    assert r.json["key_id"] == load_signer(new_file, _settings(app).origin, create=False).key_id
    assert runner.invoke(args=["verify"]).exit_code == 0
    assert client.get("/api/v1/ledger/verify", headers=w.auditor).json["ok"] is True


def test_a_rotation_the_old_key_did_not_sign_links_nothing(
    app: Any, client: Any, owner: Engine, tmp_path: Path
) -> None:
    w = build(client, owner)
    old_vkey = client.get("/api/v1/ledger/public-key").json["verifier_key"]
    assert _checkpoint(client, w).status_code == 201
    s = _settings(app)
    new = load_signer(tmp_path / "attacker", s.origin, create=True)
    body = f"{s.origin}\nkey rotation\nold {old_vkey}\nnew {new.verifier_key}\nfrom 1\n"
    forged = signed_text(body, [Signature(new.name, new.key_hash, new.sign(body.encode()))])
    (s.checkpoint_dir / "key-rotation-000000000001-forged.note").write_text(forged)
    app.config["TRUSTED_LOG_KEYS"] = old_vkey
    app.config["SIGNING_KEY_FILE"] = str(tmp_path / "attacker")
    create_party(client, w.authority, name="Attacker's Party")
    r = _checkpoint(client, w)
    assert r.status_code == 503 and r.json["error"]["code"] == "signing_key_not_trusted"
    out = app.test_cli_runner().invoke(args=["verify"])
    assert out.exit_code != 0 and "is not signed by" in out.output
