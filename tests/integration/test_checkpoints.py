"""Checkpoints as a job makes them, the signing key made once under concurrent workers,
and what verify says of checkpoint files that are not ours or not checkpoints at all."""

from __future__ import annotations

import base64
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from market.adapters.signing import load_signer
from market.domain.checkpoint_note import Note, Signature, key_hash, signed_text
from market.services.kernel.actor import SYSTEM
from market.services.kernel.runner import run
from market.services.parties.parties import NewParty, register_party
from market.services.trust.checkpoints import TrustSettings, checkpoint_due
from tests.helpers import events

pytestmark = pytest.mark.storage


def _settings(app: Any) -> TrustSettings:
    return TrustSettings.from_config(app.config, app.instance_path)


def _party(engine: Any, i: int) -> None:
    new = NewParty(f"Job Co {i}", f"jc-{i}", "llc", ["CBT"])
    run(engine, lambda uow: register_party(uow, SYSTEM, new))


def test_checkpoint_due_signs_only_a_grown_ledger(app: Any) -> None:
    engine = app.extensions["market.engine"]
    assert checkpoint_due(engine, _settings(app)) is None  # empty: nothing to sign
    _party(engine, 1)
    made = checkpoint_due(engine, _settings(app))
    assert made is not None and made["tree_size"] == 1
    assert checkpoint_due(engine, _settings(app)) is None
    _party(engine, 2)
    again = checkpoint_due(engine, _settings(app))
    assert again is not None and again["tree_size"] == 2
    out = app.test_cli_runner().invoke(args=["checkpoint", "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["created"] is False


def test_workers_starting_together_share_one_key(tmp_path: Path) -> None:
    path = tmp_path / "keys" / "signing_key"
    found: list[bytes] = []
    lock = threading.Lock()

    def start() -> None:
        s = load_signer(path, "o", create=True)
        with lock:
            found.append(s.public_bytes)

    threads = [threading.Thread(target=start) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(found)) == 1 and len(found) == 8
    assert (path.stat().st_mode & 0o777) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["signing_key"]


def test_verify_reports_foreign_and_malformed_checkpoint_files(app: Any) -> None:
    engine = app.extensions["market.engine"]
    _party(engine, 1)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["checkpoint"]).exit_code == 0
    directory = _settings(app).checkpoint_dir
    # Another log's checkpoint (another origin, another key): reported, ignored.
    other = Ed25519PrivateKey.generate()
    raw = other.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    elsewhere = "example.org/another-log"
    theirs = Note(elsewhere, 1, b"\x07" * 32).text
    sig = Signature(elsewhere, key_hash(elsewhere, raw), other.sign(theirs.encode()))
    (directory / "000000000001-foreign.checkpoint").write_text(signed_text(theirs, [sig]))
    out = runner.invoke(args=["verify"])
    assert out.exit_code == 0, out.output
    assert "another log's (example.org/another-log), ignored" in out.output
    # Our origin under a key nobody pinned (issue 23: a new key must not disarm the old
    # checkpoints, nor an unknown one add its own): a failure, naming the key.
    origin = "nj-transfer-certificates/ledger"
    note = Note(origin, 1, b"\x07" * 32).text
    sig = Signature(origin, key_hash(origin, raw), other.sign(note.encode()))
    unknown = directory / "000000000001-unknown.checkpoint"
    unknown.write_text(signed_text(note, [sig]))
    out = runner.invoke(args=["verify"])
    assert out.exit_code == 1, out.output
    assert "signed for our origin by a key that is not trusted" in out.output
    unknown.unlink()
    # Our key hash with a signature that does not verify: a forgery, a failure.
    ours = load_signer(_settings(app).key_file, origin, create=False)
    forged = Signature(origin, ours.key_hash, base64.b64decode(base64.b64encode(b"\x00" * 64)))
    forged_path = directory / "000000000001-forged.checkpoint"
    forged_path.write_text(signed_text(note, [forged]))
    out = runner.invoke(args=["verify"])
    assert out.exit_code == 1 and "does not verify" in out.output and "forged" in out.output
    forged_path.unlink()
    # Not a signed note at all: named clearly.
    (directory / "000000000002-junk.checkpoint").write_text("hello\n")
    out = runner.invoke(args=["verify", "--json"])
    assert out.exit_code == 1
    assert "junk.checkpoint: not a valid signed note" in out.output
    report = json.loads(out.output.splitlines()[-1])
    assert report["ok"] is False and report["checkpoints"]["ok"] is False


def test_checkpoints_made_while_writes_go_on_all_verify(app: Any) -> None:
    engine = app.extensions["market.engine"]
    _party(engine, 0)
    stop = threading.Event()

    def write() -> None:
        i = 1
        while not stop.is_set():
            _party(engine, i)
            i += 1

    writer = threading.Thread(target=write)
    writer.start()
    sizes = []
    try:
        for _ in range(4):
            grown = events(engine) + 3
            while events(engine) < grown:
                stop.wait(0.005)
            made = checkpoint_due(engine, _settings(app))
            assert made is not None
            sizes.append(made["tree_size"])
    finally:
        stop.set()
        writer.join()
    assert sizes == sorted(set(sizes)) and len(sizes) == 4
    out = app.test_cli_runner().invoke(args=["verify"])
    assert out.exit_code == 0, out.output


def test_a_missing_or_broken_key_file_is_a_clear_cli_message(app: Any, tmp_path: Path) -> None:
    _party(app.extensions["market.engine"], 1)
    runner = app.test_cli_runner()
    app.config["SIGNING_KEY_FILE"] = str(tmp_path / "absent")
    out = runner.invoke(args=["checkpoint"])
    assert out.exit_code != 0 and "cannot read the signing key file" in out.output
    broken = tmp_path / "broken"
    broken.write_text("not a key")
    app.config["SIGNING_KEY_FILE"] = str(broken)
    out = runner.invoke(args=["checkpoint"])
    assert out.exit_code != 0 and "is not a PEM private key" in out.output
    assert not (tmp_path / "absent").exists()
    assert not list(_settings(app).checkpoint_dir.glob("*.checkpoint"))
