"""Signed checkpoints and Merkle proofs over HTTP (PRODUCT.md 8.1), on both databases."""

from __future__ import annotations

import base64
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from market.domain import merkle
from market.domain.checkpoint_note import key_hash, parse_note, parse_signed
from tests.helpers import events
from tests.trust_world import build

pytestmark = pytest.mark.storage


def _error(r: Any, status: int) -> str:
    assert r.status_code == status, r.json
    assert set(r.json["error"]) == {"code", "message", "details"}
    return str(r.json["error"]["code"])


def test_a_checkpoint_is_signed_stored_and_written_to_the_checkpoint_dir(
    client: Any, app: Any
) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    assert _error(client.get("/api/v1/ledger/checkpoints/latest"), 404) == "not_found"
    assert client.post("/api/v1/ledger/checkpoints", headers=w.auditor).status_code == 403
    made = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert made.status_code == 201, made.json
    cp = made.json
    assert cp["tree_size"] == events(engine)
    # No sign-in needed to read the key and the checkpoints.
    key = client.get("/api/v1/ledger/public-key").json
    assert key["algorithm"] == "ed25519"
    raw = base64.b64decode(key["public_key"])
    assert key["key_id"] == key_hash(key["name"], raw).hex()
    Ed25519PublicKey.from_public_bytes(raw).verify(
        base64.b64decode(cp["signature"]), cp["note"].encode()
    )
    note = parse_note(cp["note"])
    assert cp["note"].count("\n") == 3 and note.tree_size == cp["tree_size"]
    assert note.root.hex() == cp["root_hash"]
    assert client.get("/api/v1/ledger/checkpoints/latest").json == cp
    # The file in CHECKPOINT_DIR is the signed note.
    files = list((Path(app.instance_path) / "checkpoints").glob("*.checkpoint"))
    assert len(files) == 1
    text, sigs = parse_signed(files[0].read_text())
    assert text == cp["note"] and sigs[0].key_hash.hex() == cp["key_id"]
    key_file = Path(app.instance_path) / "signing_key"
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    # Nothing new: the latest is answered, nothing written.
    again = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert again.status_code == 200 and again.json == cp
    client.post("/api/v1/parties", json={"name": "x"}, headers=w.authority)  # refused: no event
    r = client.post(
        "/api/v1/parties",
        json={"name": "Newark Ne", "tax_id": "22-1", "entity_type": "llc", "tax_types": ["CBT"]},
        headers=w.authority,
    )
    assert r.status_code == 201
    second = client.post("/api/v1/ledger/checkpoints", headers=w.authority).json
    assert second["tree_size"] == cp["tree_size"] + 1
    page = client.get("/api/v1/ledger/checkpoints?limit=1").json
    assert page["items"] == [cp] and page["next"] == cp["tree_size"]
    rest = client.get(f"/api/v1/ledger/checkpoints?after={page['next']}").json
    assert rest == {"items": [second], "next": None}
    # The consistency proof links the two signed roots.
    c = client.get(
        f"/api/v1/ledger/proofs/consistency?from={cp['tree_size']}&to={second['tree_size']}",
        headers=w.auditor,
    ).json
    assert merkle.verify_consistency(
        cp["tree_size"],
        second["tree_size"],
        [bytes.fromhex(h) for h in c["proof"]],
        bytes.fromhex(cp["root_hash"]),
        bytes.fromhex(second["root_hash"]),
    )


def test_inclusion_proofs_verify_and_bad_requests_write_nothing(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    n = events(engine)
    for seq in (1, n // 2, n):
        r = client.get(
            f"/api/v1/ledger/proofs/inclusion?seq={seq}&tree_size={n}", headers=w.auditor
        )
        assert r.status_code == 200, r.json
        p = r.json
        ev = client.get(f"/api/v1/events?after={seq - 1}&limit=1", headers=w.auditor).json
        leaf = merkle.leaf_hash(bytes.fromhex(ev["items"][0]["hash"]))
        assert p["leaf_hash"] == leaf.hex()
        proof = [bytes.fromhex(h) for h in p["proof"]]
        assert len(proof) <= n.bit_length()
        assert merkle.verify_inclusion(leaf, seq - 1, n, proof, bytes.fromhex(p["root_hash"]))
    before = events(engine)
    bad = [
        (f"/api/v1/ledger/proofs/inclusion?seq={n + 1}&tree_size={n}", 400),
        (f"/api/v1/ledger/proofs/inclusion?seq=1&tree_size={n + 5}", 404),
        ("/api/v1/ledger/proofs/inclusion?seq=0", 400),
        ("/api/v1/ledger/proofs/inclusion?seq=abc", 400),
        ("/api/v1/ledger/proofs/consistency?from=3&to=2", 400),
        (f"/api/v1/ledger/proofs/consistency?from=1&to={n + 1}", 404),
        ("/api/v1/ledger/proofs/consistency?from=1", 400),
    ]
    for url, status in bad:
        _error(client.get(url, headers=w.auditor), status)
    assert events(engine) == before
    assert client.get("/api/v1/ledger/checkpoints").json["items"] == []


def test_the_incremental_verify_starts_at_the_last_checkpoint(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    v = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert v["ok"] and v["checkpoint"] is None and v["checked_events"] == events(engine)
    cp = client.post("/api/v1/ledger/checkpoints", headers=w.authority).json
    client.post(
        "/api/v1/parties",
        json={"name": "Late Co", "tax_id": "22-9", "entity_type": "llc", "tax_types": ["CBT"]},
        headers=w.authority,
    )
    v = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    assert v["ok"] is True and v["first_bad_seq"] is None
    assert v["events"] == cp["tree_size"] + 1 and len(v["head_hash"]) == 64
    assert v["checkpoint"]["tree_size"] == cp["tree_size"]
    assert v["checked_from_seq"] == cp["tree_size"] and v["checked_events"] == 2
    assert client.get("/api/v1/ledger/verify", headers=w.seller).status_code == 403


def test_a_missing_configured_key_file_is_a_clear_error(client: Any, app: Any) -> None:
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    app.config["SIGNING_KEY_FILE"] = str(Path(app.instance_path) / "nowhere" / "key")
    assert _error(client.get("/api/v1/ledger/public-key"), 503) == "signing_key_unavailable"
    r = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert _error(r, 503) == "signing_key_unavailable"
    assert "nowhere" in r.json["error"]["message"]
    assert client.get("/api/v1/ledger/checkpoints").json["items"] == []


def test_a_tree_far_behind_is_built_by_the_cli_not_in_a_request(
    client: Any, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from market.services.trust import checkpoints, proofs

    engine = app.extensions["market.engine"]
    w = build(client, engine)
    monkeypatch.setattr(checkpoints, "REQUEST_BACKLOG", 2)
    monkeypatch.setattr(proofs, "REQUEST_BACKLOG", 2)
    r = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
    assert _error(r, 409) == "merkle_tree_behind"
    r = client.get("/api/v1/ledger/proofs/inclusion?seq=1", headers=w.auditor)
    assert _error(r, 409) == "merkle_tree_behind"
    assert app.test_cli_runner().invoke(args=["checkpoint"]).exit_code == 0
    assert client.get("/api/v1/ledger/proofs/inclusion?seq=1", headers=w.auditor).status_code == 200


def test_before_any_checkpoint_a_long_ledger_is_checked_at_its_end_only(
    client: Any, app: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from market.services.trust import trust_recent

    engine = app.extensions["market.engine"]
    w = build(client, engine)
    monkeypatch.setattr(trust_recent, "REQUEST_BACKLOG", 3)
    v = client.get("/api/v1/ledger/verify", headers=w.auditor).json
    n = events(engine)
    assert v["ok"] is True and v["checked_events"] == 3 and v["checked_from_seq"] == n - 2
    assert "no checkpoint yet" in v["checked"][0]
