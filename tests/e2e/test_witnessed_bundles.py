"""scripts/verify-proof --witness VKEY (repeatable) --quorum K: a certificate's bundle
whose checkpoint carries the cosignatures of its witnesses is accepted; one short of the
quorum, or with a cosignature altered, is refused (PRODUCT.md 9.3)."""

from __future__ import annotations

import base64
import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from market.adapters.signing import load_signer
from market.services.trust.checkpoints import TrustSettings, public_key
from market.services.trust.witness_server import cosigner_vkey
from tests.trust_world import build
from tests.witnesses import witness_thread

pytestmark = pytest.mark.storage
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify-proof"


def _verify(tmp: Path, bundle: dict[str, Any], *args: str) -> subprocess.CompletedProcess[str]:
    path = tmp / "bundle.json"
    path.write_text(json.dumps(bundle))
    key = tmp / "key.json"
    return subprocess.run(
        [sys.executable, "-I", str(SCRIPT), str(path), "--public-key", str(key), *args],
        capture_output=True,
        text=True,
        cwd=tmp,
        check=False,
    )


def test_verify_proof_counts_valid_cosignatures_against_the_quorum(
    app: Any, client: Any, tmp_path: Path
) -> None:
    log = public_key(TrustSettings.from_config(app.config, app.instance_path))
    (tmp_path / "key.json").write_text(json.dumps(log))
    with (
        witness_thread(tmp_path, "tax.nj.gov/w1", log["verifier_key"]) as a,
        witness_thread(tmp_path, "auditor.example/w2", log["verifier_key"]) as b,
    ):
        app.config["WITNESSES"] = f"{a.config_line}\n{b.config_line}"
        w = build(client, app.extensions["market.engine"])
        r = client.get(f"/api/v1/certificates/{w.buyer_certificate_id}/proof", headers=w.buyer)
    assert r.status_code == 200, r.json
    bundle = r.json
    assert bundle["checkpoint"]["quorum"]["met"] is True
    assert len(bundle["checkpoint"]["cosignatures"]) == 2

    ok = _verify(tmp_path, bundle, "--witness", a.vkey, "--witness", b.vkey)
    assert ok.returncode == 0, ok.stderr
    assert "cosigned by 2 witnesses" in ok.stdout and "quorum 2" in ok.stdout
    assert _verify(tmp_path, bundle, "--witness", a.vkey, "--quorum", "1").returncode == 0

    stranger = cosigner_vkey(load_signer(tmp_path / "c.key", "stranger.example/w3", create=True))
    short = _verify(tmp_path, bundle, "--witness", a.vkey, "--witness", stranger)
    assert short.returncode == 1
    assert "from 1 of the given witnesses (tax.nj.gov/w1); 2 are required" in short.stderr
    too_many = _verify(tmp_path, bundle, "--witness", a.vkey, "--quorum", "2")
    assert too_many.returncode == 1 and "cannot be met" in too_many.stderr

    uncosigned = copy.deepcopy(bundle)  # the log's note and signature alone
    note, _, block = bundle["checkpoint"]["signed_note"].rpartition("\n\n")
    uncosigned["checkpoint"]["signed_note"] = f"{note}\n\n{block.split(chr(10))[0]}\n"
    refused = _verify(tmp_path, uncosigned, "--witness", a.vkey)
    assert refused.returncode == 1 and "from 0 of the given witnesses" in refused.stderr

    altered = copy.deepcopy(bundle)
    lines = altered["checkpoint"]["signed_note"].split("\n")
    i = next(n for n, line in enumerate(lines) if line.startswith(f"— {a.name} "))
    dash, name, blob = lines[i].split(" ")
    raw = bytearray(base64.b64decode(blob))
    raw[20] ^= 1
    lines[i] = f"{dash} {name} {base64.b64encode(bytes(raw)).decode()}"
    altered["checkpoint"]["signed_note"] = "\n".join(lines)
    bad = _verify(tmp_path, altered, "--witness", a.vkey, "--quorum", "1")
    assert (
        bad.returncode == 1 and f"the cosignature by witness {a.name} does not verify" in bad.stderr
    )

    other_note = copy.deepcopy(bundle)  # cosignatures of some other note do not count
    other_note["checkpoint"]["signed_note"] = bundle["checkpoint"]["signed_note"].replace(
        bundle["checkpoint"]["note"].split("\n")[1], "1", 1
    )
    assert _verify(tmp_path, other_note, "--witness", a.vkey).returncode == 1
