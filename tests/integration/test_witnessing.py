"""The log and its witnesses (PRODUCT.md 9.3), on SQLite and PostgreSQL: a witness
process cosigns every checkpoint of a run (learning the witness's size from a 409 when
the log has no record of it), the cosignatures are stored and appended to the note in
CHECKPOINT_DIR and in `checkpoints/latest` without changing the log's part; a witness
that is down leaves the checkpoint below quorum (JSON, the ledger page, the readiness
function) until a later tick completes it; a tampered or foreign cosignature is never
stored; the table refuses updates and deletes."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from market.adapters import cosignature_store
from market.adapters.signing import load_signer
from market.adapters.witness_client import add_checkpoint
from market.adapters.witness_state import origin_hash
from market.domain.checkpoint_note import parse_signed, parse_verifier_key
from market.domain.cosignature import cosigned_message, from_signature, is_from
from market.domain.tlog_witness import request_body
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.kernel.uow import ReadOnly
from market.services.parties.parties import NewParty, register_party
from market.services.trust import checkpoints
from market.services.trust.checkpoints import TrustSettings, checkpoint_due, public_key
from market.services.trust.cosigned import witness_quorum_met
from market.services.trust.witness_server import cosigner_vkey
from tests.e2e.test_pages_foundation import sign_in
from tests.witnesses import free_port, witness_process, witness_thread

pytestmark = pytest.mark.storage
NAME = "tax.nj.gov/witness"


def _settings(app: Any) -> TrustSettings:
    return TrustSettings.from_config(app.config, app.instance_path)


def _party(app: Any, i: int) -> None:
    new = NewParty(f"Witnessed Co {i}", f"wc-{i}", "llc", ["CBT"])
    run(app.extensions["market.engine"], lambda uow: register_party(uow, SYSTEM, new))


def _log_vkey(app: Any) -> str:
    return public_key(_settings(app))["verifier_key"]


def _files(app: Any) -> dict[int, str]:
    directory = _settings(app).checkpoint_dir
    return {int(p.name.split("-")[0]): p.read_text() for p in directory.glob("*.checkpoint")}


def _check_cosigned(note: str, vkey: str) -> int:
    """The witness's cosignature in `note` verifies; its timestamp."""
    key = parse_verifier_key(vkey)
    text, sigs = parse_signed(note)
    [mine] = [from_signature(s) for s in sigs if is_from(s, key)]
    Ed25519PublicKey.from_public_bytes(key.public_key).verify(
        mine.signature, cosigned_message(text, mine.timestamp)
    )
    return mine.timestamp


def test_a_witness_process_cosigns_every_checkpoint_of_a_run(
    app: Any, client: Any, tmp_path: Path
) -> None:
    engine = app.extensions["market.engine"]
    with witness_process(tmp_path, NAME, [_log_vkey(app)]) as w:
        _party(app, 0)
        first = checkpoint_due(engine, _settings(app))
        assert first is not None and first["cosignatures"] == []
        # Someone else handed the witness checkpoint 1: the log (no record) learns its size
        # from the 409 and sends the proof from there.
        assert add_checkpoint(w.url, request_body(0, [], first["signed_note"]), 5)[0] == 200
        app.config["WITNESSES"] = w.config_line
        sizes = []
        for i in range(1, 5):
            _party(app, i)
            made = checkpoint_due(engine, _settings(app))
            assert made is not None
            assert made["quorum"] == {"required": 1, "cosigned": 1, "met": True, "missing": []}
            sizes.append(made["tree_size"])
        witnessed = (w.state / f"{origin_hash(_settings(app).origin)}.checkpoint").read_text()
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    assert latest["tree_size"] == sizes[-1] == int(witnessed.split("\n")[1])
    [c] = latest["cosignatures"]
    assert (c["witness"], c["key_id"]) == (NAME, parse_verifier_key(w.vkey).key_hash.hex())
    assert _check_cosigned(latest["signed_note"], w.vkey) == c["timestamp"]
    files = _files(app)
    for size in sizes:
        with ReadOnly(engine) as conn:
            assert len(cosignature_store.for_checkpoint(conn, size)) == 1
        _check_cosigned(files[size], w.vkey)
        # The log's part of the file is what it signed: the note, then its own line first.
        note, sigs = parse_signed(files[size])
        key = base64.b64decode(public_key(_settings(app))["public_key"])
        Ed25519PublicKey.from_public_bytes(key).verify(sigs[0].signature, note.encode())
    assert files[sizes[-1]] == latest["signed_note"]
    assert parse_signed(files[first["tree_size"]])[1] == parse_signed(first["signed_note"])[1]
    assert witness_quorum_met(
        engine, _settings(app).witnesses, checkpoints.latest(engine, _settings(app))
    )
    out = app.test_cli_runner().invoke(args=["verify"])
    assert out.exit_code == 0, out.output


def test_a_witness_down_leaves_the_checkpoint_below_quorum_until_a_tick(
    app: Any, client: Any, tmp_path: Path
) -> None:
    engine = app.extensions["market.engine"]
    port = free_port()  # nothing listens there yet
    signer = load_signer(tmp_path / f"{NAME.replace('/', '_')}.key", NAME, create=True)
    app.config["WITNESSES"] = f"{NAME} http://127.0.0.1:{port} {cosigner_vkey(signer)}"
    _party(app, 1)
    sign_in(client, app, "auditor")  # before the tick: a sign-in is a ledger event too
    runner = app.test_cli_runner()
    first = json.loads(runner.invoke(args=["tick", "--as-of", "2014-09-01"]).output)
    size = first["steps"]["checkpoint"]["tree_size"]  # signed, though the witness is down
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    assert latest["tree_size"] == size
    assert latest["quorum"] == {"required": 1, "cosigned": 0, "met": False, "missing": [NAME]}
    assert not witness_quorum_met(
        engine, _settings(app).witnesses, checkpoints.latest(engine, _settings(app))
    )
    assert "Below quorum" in client.get("/ledger").data.decode()
    with witness_process(tmp_path, NAME, [_log_vkey(app)], port=port) as w:
        again = json.loads(runner.invoke(args=["tick", "--as-of", "2014-09-01"]).output)
    assert again["steps"]["checkpoint"] == "ledger unchanged"
    assert again["steps"]["witnesses"] == {NAME: "cosigned"}
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    assert latest["tree_size"] == size and latest["quorum"]["met"] is True
    _check_cosigned(_files(app)[size], w.vkey)
    assert witness_quorum_met(
        engine, _settings(app).witnesses, checkpoints.latest(engine, _settings(app))
    )
    page = client.get("/ledger").data.decode()
    assert "Below quorum" not in page and "Witnessed: checkpoint" in page


def _tamper(answer: tuple[int, str, bytes]) -> tuple[int, str, bytes]:
    status, kind, body = answer
    dash, name, blob = body.decode().rstrip("\n").split(" ")
    raw = bytearray(base64.b64decode(blob))
    raw[-1] ^= 1
    return status, kind, f"{dash} {name} {base64.b64encode(bytes(raw)).decode()}\n".encode()


def test_a_tampered_or_foreign_cosignature_is_not_stored(app: Any, tmp_path: Path) -> None:
    engine = app.extensions["market.engine"]
    log_key = _log_vkey(app)
    with (
        witness_thread(tmp_path, "tampering.example/w", log_key, _tamper) as bad,
        witness_thread(tmp_path, "impostor.example/w", log_key) as impostor,
    ):
        # The impostor signs with a key other than the one configured for its name.
        other = load_signer(tmp_path / "configured.key", impostor.name, create=True)
        app.config["WITNESSES"] = (
            f"{bad.config_line}\n{impostor.name} {impostor.url} {cosigner_vkey(other)}"
        )
        _party(app, 1)
        made = checkpoint_due(engine, _settings(app))
    assert made is not None and made["cosignatures"] == []
    assert made["quorum"]["met"] is False and made["quorum"]["cosigned"] == 0
    with ReadOnly(engine) as conn:
        assert cosignature_store.for_checkpoint(conn, made["tree_size"]) == []
    # The file keeps the log's signature alone.
    assert len(parse_signed(_files(app)[made["tree_size"]])[1]) == 1


def test_cosignatures_are_append_only(app: Any, tmp_path: Path) -> None:
    engine = app.extensions["market.engine"]
    with witness_thread(tmp_path, NAME, _log_vkey(app)) as w:
        app.config["WITNESSES"] = w.config_line
        _party(app, 1)
        assert checkpoint_due(engine, _settings(app)) is not None
    for statement in ("UPDATE cosignatures SET timestamp = 1", "DELETE FROM cosignatures"):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as conn:
            conn.execute(text(statement))
    with ReadOnly(engine) as conn:
        assert conn.execute(text("SELECT count(*) FROM cosignatures")).scalar() == 1
