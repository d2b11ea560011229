"""A certificate's proof bundle, checked offline by scripts/verify-proof with only the
public key; tampering with any part of it fails the check."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from market.adapters.eventstore import compute_hash
from tests.e2e.test_pages_foundation import sign_in
from tests.trust_world import build

pytestmark = pytest.mark.storage

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify-proof"


def _check(tmp: Path, bundle: dict[str, Any], key: str) -> subprocess.CompletedProcess[str]:
    path = tmp / "bundle.json"
    path.write_text(json.dumps(bundle))
    # -I: isolated, so nothing of this repository is importable; cwd elsewhere too.
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path), "--public-key", key],
        capture_output=True,
        text=True,
        cwd=tmp,
        check=False,
    )


def test_a_bundle_checks_offline_and_any_tampering_fails(
    client: Any, app: Any, tmp_path: Path
) -> None:
    w = build(client, app.extensions["market.engine"])
    r = client.get(f"/api/v1/certificates/{w.buyer_certificate_id}/proof", headers=w.buyer)
    assert r.status_code == 200, r.json
    bundle = r.json
    # None covered it, so one was made; it is the latest.
    assert bundle["checkpoint"] == client.get("/api/v1/ledger/checkpoints/latest").json
    types = [e["type"] for e in bundle["events"]]
    assert "CERT_ISSUED" in types and "TRANSFER_APPROVED" in types
    assert [p["seq"] for p in bundle["inclusion"]] == [e["seq"] for e in bundle["events"]]
    key_file = tmp_path / "key.json"
    key_file.write_text(json.dumps(client.get("/api/v1/ledger/public-key").json))
    ok = _check(tmp_path, bundle, str(key_file))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith("OK:") and w.buyer_certificate_id in ok.stdout

    forged = copy.deepcopy(bundle)
    forged["events"][-1]["payload"]["amount_cents"] = 1
    assert "altered" in _check(tmp_path, forged, str(key_file)).stderr

    rehashed = copy.deepcopy(bundle)  # an attacker re-hashes the event: not in the tree
    e = rehashed["events"][0]
    e["actor"] = "user:someone-else"
    e["hash"] = compute_hash(
        e["seq"],
        e["stream"],
        e["version"],
        e["type"],
        e["payload"],
        e["actor"],
        e["recorded_at"],
        e["prev_hash"],
    )
    bad = _check(tmp_path, rehashed, str(key_file))
    assert bad.returncode == 1 and "is not in the tree" in bad.stderr

    wrong_proof = copy.deepcopy(bundle)
    wrong_proof["inclusion"][0]["proof"][0] = "00" * 32
    assert _check(tmp_path, wrong_proof, str(key_file)).returncode == 1

    resigned = copy.deepcopy(bundle)
    resigned["checkpoint"]["note"] = resigned["checkpoint"]["note"].replace(
        f"\n{bundle['checkpoint']['tree_size']}\n", f"\n{bundle['checkpoint']['tree_size'] + 1}\n"
    )
    failed = _check(tmp_path, resigned, str(key_file))
    assert failed.returncode == 1 and "not signed by this public key" in failed.stderr

    other = Ed25519PrivateKey.generate().public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    stranger_key = _check(tmp_path, bundle, base64.b64encode(other).decode())
    assert stranger_key.returncode == 1 and "not signed by this public key" in stranger_key.stderr
    assert _check(tmp_path, bundle, "not-a-key").returncode == 1
    (tmp_path / "junk.json").write_text("{")
    junk = subprocess.run(
        [
            sys.executable,
            "-I",
            str(SCRIPT),
            str(tmp_path / "junk.json"),
            "--public-key",
            str(key_file),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert junk.returncode == 1 and "cannot be read" in junk.stderr
    assert "import market" not in SCRIPT.read_text()


def test_only_the_holder_authority_and_auditor_see_a_bundle(client: Any, app: Any) -> None:
    w = build(client, app.extensions["market.engine"])
    url = f"/api/v1/certificates/{w.certificate_id}/proof"
    for who in (w.seller, w.authority, w.auditor):
        assert client.get(url, headers=who).status_code == 200
    stranger = client.get(url, headers=w.stranger)
    unknown = client.get("/api/v1/certificates/crt_nope/proof", headers=w.stranger)
    assert stranger.status_code == unknown.status_code == 404
    assert stranger.json["error"]["code"] == unknown.json["error"]["code"] == "not_found"
    assert client.get(url).status_code == 401
    # The existing checkpoint covers it: no second one is made.
    assert len(client.get("/api/v1/ledger/checkpoints").json["items"]) == 1


def test_the_certificate_page_links_to_its_bundle(client: Any, app: Any) -> None:
    w = build(client, app.extensions["market.engine"])
    client.get(f"/api/v1/certificates/{w.certificate_id}/proof", headers=w.authority)
    sign_in(client, app, "authority")
    page = client.get(f"/certificates/{w.certificate_id}")
    assert page.status_code == 200
    assert f"/certificates/{w.certificate_id}/proof.json".encode() in page.data
    cp = client.get("/api/v1/ledger/checkpoints/latest").json
    assert f"checkpoint {cp['tree_size']}".encode() in page.data
    bundle = client.get(f"/certificates/{w.certificate_id}/proof.json")
    assert bundle.status_code == 200 and bundle.json["certificate_id"] == w.certificate_id


def _extend_check(tmp: Path, bundle: dict[str, Any], key: Path, old: Path) -> Any:
    path = tmp / "bundle.json"
    path.write_text(json.dumps(bundle))
    return subprocess.run(
        [
            sys.executable,
            "-I",
            str(SCRIPT),
            str(path),
            "--public-key",
            str(key),
            "--since-checkpoint",
            str(old),
        ],
        capture_output=True,
        text=True,
        cwd=tmp,
        check=False,
    )


def test_a_holder_of_an_old_checkpoint_sees_the_new_one_extends_it(
    client: Any, app: Any, tmp_path: Path
) -> None:
    w = build(client, app.extensions["market.engine"])
    old = client.post("/api/v1/ledger/checkpoints", headers=w.authority).json
    kept = tmp_path / "kept.checkpoint"  # the signed-note file, as CHECKPOINT_DIR has it
    kept.write_text(old["signed_note"])
    kept_json = tmp_path / "kept.json"
    kept_json.write_text(json.dumps(old))
    key = tmp_path / "key.json"
    key.write_text(json.dumps(client.get("/api/v1/ledger/public-key").json))
    # The seller's certificate moves on: a new event after the old checkpoint.
    r = client.post(
        "/api/v1/listings",
        json={"certificate_id": w.certificate_id, "amount_cents": 1000, "ask_cents": 900},
        headers=w.seller,
    )
    assert r.status_code == 201, r.json
    url = f"/api/v1/certificates/{w.certificate_id}/proof"
    bundle = client.get(f"{url}?since={old['tree_size']}", headers=w.seller).json
    assert bundle["checkpoint"]["tree_size"] > old["tree_size"]
    for kept_file in (kept, kept_json):
        ok = _extend_check(tmp_path, bundle, key, kept_file)
        assert ok.returncode == 0, ok.stderr
        assert f"extends your checkpoint of {old['tree_size']}" in ok.stdout
    bad = copy.deepcopy(bundle)
    bad["consistency"]["proof"][0] = "11" * 32
    refused = _extend_check(tmp_path, bad, key, kept)
    assert refused.returncode == 1 and "does not extend your checkpoint" in refused.stderr
    plain = client.get(url, headers=w.seller).json
    missing = _extend_check(tmp_path, plain, key, kept)
    assert missing.returncode == 1 and f"?since={old['tree_size']}" in missing.stderr
    assert client.get(f"{url}?since=999999", headers=w.seller).status_code == 400
