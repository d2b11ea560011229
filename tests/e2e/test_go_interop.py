"""Go's own transparency-log library accepts the service (PRODUCT.md 9.3): the program in
tests/go/tlogcheck, built offline against Debian's golang.org/x/mod (golang-go and
golang-golang-x-mod-dev; scripts/test installs them), runs `note.NewVerifier` over the
served `verifier_key`, `note.Open` over the served signed notes and the files in
CHECKPOINT_DIR, `tlog.CheckRecord` over every inclusion proof and `tlog.CheckTree` over
consistency proofs, for a ledger of a few hundred events and several checkpoints; and it
refuses a tampered note, a wrong proof hash and a wrong key. Under CI=true a missing Go
fails the run instead of skipping."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from market.domain.checkpoint_note import verifier_key
from tests.conftest import IN_CI
from tests.helpers import create_party, events
from tests.trust_world import build

pytestmark = pytest.mark.storage
GO_SOURCE = Path(__file__).resolve().parent.parent / "go" / "tlogcheck"
GOPATH = Path("/usr/share/gocode")  # Debian's golang-golang-x-mod-dev
SUMDB = GOPATH / "src" / "golang.org" / "x" / "mod" / "sumdb"


@pytest.fixture(scope="session")
def tlogcheck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Go program, built once per session with no network (GOPATH mode, GOPROXY off)."""
    go = shutil.which("go")
    if go is None or not SUMDB.is_dir():
        message = "Go or golang.org/x/mod is missing (golang-go, golang-golang-x-mod-dev)"
        if IN_CI:
            pytest.fail(message + "; CI requires them", pytrace=False)
        pytest.skip(message)
    out = tmp_path_factory.mktemp("go")
    env = os.environ | {
        "GO111MODULE": "off",
        "GOPATH": str(GOPATH),
        "GOCACHE": str(out / "cache"),
        "GOPROXY": "off",
        "GOFLAGS": "",
        "CGO_ENABLED": "0",
    }
    built = subprocess.run(
        [go, "build", "-o", str(out / "tlogcheck"), "."],
        cwd=GO_SOURCE,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    return out / "tlogcheck"


@dataclass
class Run:
    code: int
    out: dict[str, Any]
    err: str


def go_check(program: Path, document: dict[str, Any]) -> Run:
    done = subprocess.run(
        [str(program)], input=json.dumps(document), capture_output=True, text=True, timeout=120
    )
    return Run(done.returncode, json.loads(done.stdout) if done.stdout else {}, done.stderr)


def _grow(client: Any, authority: dict[str, str], engine: Any, to: int) -> None:
    while events(engine) < to:
        n = events(engine)
        create_party(client, authority, name=f"Party {n}", tax_id=f"31-{n:07d}")


def _ledger(client: Any, app: Any) -> tuple[list[dict[str, Any]], dict[int, str], Any]:
    """A few hundred events, signed at several sizes (a power of two among them); the
    checkpoints and the event hashes by seq."""
    engine = app.extensions["market.engine"]
    w = build(client, engine)
    for size in (None, 128, 200, 301):
        if size:
            _grow(client, w.authority, engine, size)
        made = client.post("/api/v1/ledger/checkpoints", headers=w.authority)
        assert made.status_code == 201, made.json
    hashes: dict[int, str] = {}
    after = 0
    while True:
        page = client.get(f"/api/v1/events?after={after}&limit=500", headers=w.auditor).json
        hashes |= {e["seq"]: e["hash"] for e in page["items"]}
        if page["next"] is None:
            break
        after = page["next"]
    cps = client.get("/api/v1/ledger/checkpoints").json["items"]
    return cps, hashes, w


def _served(client: Any, app: Any, cps: list[dict[str, Any]], hashes: dict[int, str]) -> dict:
    """Everything from the public endpoints (no token), as an outsider collects it."""
    key = client.get("/api/v1/ledger/public-key").json
    latest = client.get("/api/v1/ledger/checkpoints/latest").json
    files = sorted((Path(app.instance_path) / "checkpoints").glob("*.checkpoint"))
    assert len(files) == len(cps)
    notes = [latest["signed_note"], *(c["signed_note"] for c in cps)]
    notes += [f.read_text(encoding="utf-8") for f in files]
    inclusion = []
    for cp in cps:
        n = cp["tree_size"]
        for seq in range(1, n + 1):
            r = client.get(f"/api/v1/ledger/proofs/inclusion?seq={seq}&tree_size={n}")
            assert r.status_code == 200, r.json
            inclusion.append(r.json | {"event_hash": hashes[seq]})
    sizes = [c["tree_size"] for c in cps]
    consistency = [
        client.get(f"/api/v1/ledger/proofs/consistency?from={a}&to={b}").json
        for a in sizes
        for b in sizes
        if a <= b
    ]
    return {
        "verifier_key": key["verifier_key"],
        "notes": notes,
        "inclusion": inclusion,
        "consistency": consistency,
    }


def _flip(hex_hash: str) -> str:
    return ("1" if hex_hash[0] == "0" else "0") + hex_hash[1:]


def test_go_accepts_the_served_notes_and_proofs_and_refuses_tampering(
    client: Any, app: Any, tlogcheck: Path
) -> None:
    app.config["PROOF_RATE_PER_MINUTE"] = 0  # about a thousand proofs from one address
    cps, hashes, _ = _ledger(client, app)
    assert len(cps) == 4 and cps[-1]["tree_size"] == 301 and 128 in [c["tree_size"] for c in cps]
    doc = _served(client, app, cps, hashes)
    assert len(doc["inclusion"]) == sum(c["tree_size"] for c in cps)

    run = go_check(tlogcheck, doc)
    assert run.code == 0, (run.err, [r for k in run.out.values() for r in k if not r["ok"]])
    signed = {(r["tree_size"], r["root_hash"]) for r in run.out["notes"]}
    assert signed == {(c["tree_size"], c["root_hash"]) for c in cps}
    assert {r["origin"] for r in run.out["notes"]} == {cps[0]["note"].split("\n")[0]}
    assert len(run.out["inclusion"]) == len(doc["inclusion"])
    assert all(r["ok"] for r in run.out["inclusion"] + run.out["consistency"])
    assert len(run.out["consistency"]) == 10

    # A tampered note: another size, another root, a signature line changed.
    note = cps[1]["signed_note"]
    size = cps[1]["tree_size"]
    root_line = note.split("\n")[2]
    tampered = [
        note.replace(f"\n{size}\n", f"\n{size + 1}\n", 1),
        note.replace(root_line, ("A" if root_line[0] != "A" else "B") + root_line[1:], 1),
        note[:-20] + ("A" if note[-20] != "A" else "B") + note[-19:],
    ]
    run = go_check(tlogcheck, doc | {"notes": tampered, "inclusion": [], "consistency": []})
    assert run.code == 1 and [r["ok"] for r in run.out["notes"]] == [False] * 3
    assert all(r["error"].startswith("invalid signature for key") for r in run.out["notes"])

    # A wrong proof hash, a wrong leaf, a size nobody signed: each refused, the rest holds.
    good = doc["inclusion"][size + 5]  # one of the proofs Go accepted above
    bad_proof = good | {"proof": [_flip(good["proof"][0]), *good["proof"][1:]]}
    bad_leaf = good | {"leaf_hash": _flip(good["leaf_hash"]), "event_hash": ""}
    wrong_event = good | {"event_hash": _flip(good["event_hash"])}
    unsigned = good | {"tree_size": good["tree_size"] - 1}
    c = doc["consistency"][1]
    bad_consistency = c | {"proof": [_flip(c["proof"][0]), *c["proof"][1:]]}
    run = go_check(
        tlogcheck,
        doc
        | {
            "inclusion": [good, bad_proof, bad_leaf, wrong_event, unsigned],
            "consistency": [c, bad_consistency],
        },
    )
    assert run.code == 1
    assert [r["ok"] for r in run.out["inclusion"]] == [True, False, False, False, False]
    assert [r["ok"] for r in run.out["consistency"]] == [True, False]
    assert run.out["inclusion"][1]["error"] == "invalid transparency proof"
    assert "RecordHash" in run.out["inclusion"][3]["error"]

    # A wrong key: another Ed25519 key under the same name verifies none of the notes.
    other = (
        Ed25519PrivateKey.generate()
        .public_key()
        .public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    )
    name = doc["verifier_key"].split("+")[0]
    run = go_check(tlogcheck, doc | {"verifier_key": verifier_key(name, other)})
    assert run.code == 1 and not any(r["ok"] for r in run.out["notes"])
    assert {r["error"] for r in run.out["notes"]} == {"note has no verifiable signatures"}
    # ... and a verifier key whose key hash does not match is refused by NewVerifier.
    name, key_hash, blob = doc["verifier_key"].split("+", 2)
    run = go_check(tlogcheck, doc | {"verifier_key": f"{name}+{_flip(key_hash)}+{blob}"})
    assert run.code == 1 and "NewVerifier" in run.err and run.out == {}
