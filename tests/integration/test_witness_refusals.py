"""A running witness process (`flask --app market witness serve`) speaks C2SP
tlog-witness: it cosigns a first checkpoint and a consistent larger one, answers 409 with
its size (text/x.tlog.size) when `old` is not its latest, and refuses a rollback, a split
view at the same size and a fork (422), an unknown origin (404), a checkpoint not signed
by the log's key (403) and a malformed body (400); nothing refused is stored."""

from __future__ import annotations

import base64
import hashlib
import stat
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from market.adapters.signing import Signer, load_signer
from market.adapters.witness_state import origin_hash
from market.domain import merkle
from market.domain.checkpoint_note import (
    Note,
    Signature,
    parse_signed,
    parse_verifier_key,
    signed_text,
)
from market.domain.cosignature import cosigned_message, from_signature
from market.domain.tlog_witness import request_body
from tests.witnesses import Running, witness_process

ORIGIN = "nj-transfer-certificates/ledger"


def _leaves(n: int, salt: bytes = b"") -> list[bytes]:
    return [
        merkle.leaf_hash(hashlib.sha256(salt + i.to_bytes(4, "big")).digest()) for i in range(n)
    ]


def _nodes(leaves: list[bytes]) -> merkle.Nodes:
    def mth(part: list[bytes]) -> bytes:
        if len(part) == 1:
            return part[0]
        k = 1 << ((len(part) - 1).bit_length() - 1)
        return merkle.node_hash(mth(part[:k]), mth(part[k:]))

    return lambda level, index: mth(leaves[index << level : (index + 1) << level])


def _signed(log: Signer, nodes: merkle.Nodes, size: int) -> str:
    note = Note(log.name, size, merkle.root(nodes, size)).text
    return signed_text(note, [Signature(log.name, log.key_hash, log.sign(note.encode()))])


def _post(w: Running, body: bytes) -> tuple[int, str, str]:
    request = urllib.request.Request(w.url + "/add-checkpoint", data=body, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as r:
            return r.status, r.headers["Content-Type"], r.read().decode()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.headers["Content-Type"], e.read().decode()


TESTS = ("cosigns", "conflict", "rollback", "split", "refusals")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Signer]:
    """One log (origin and key) per test: the one witness process trusts them all."""
    tmp = tmp_path_factory.mktemp("logs")
    return {t: load_signer(tmp / t, f"{ORIGIN}/{t}", create=True) for t in TESTS}


@pytest.fixture(scope="module")
def witness(tmp_path_factory: pytest.TempPathFactory, logs: dict[str, Signer]) -> Iterator[Running]:
    keys = [s.verifier_key for s in logs.values()]  # --log-key, repeated
    with witness_process(tmp_path_factory.mktemp("witness"), "tax.nj.gov/witness", keys) as w:
        yield w


def _state(w: Running, log: Signer) -> Path:
    return w.state / f"{origin_hash(log.name)}.checkpoint"


def _stored_size(w: Running, log: Signer) -> int:
    return int(_state(w, log).read_text().split("\n")[1])


def test_it_cosigns_a_first_and_a_consistent_larger_checkpoint(
    witness: Running, logs: dict[str, Signer]
) -> None:
    log = logs["cosigns"]
    nodes = _nodes(_leaves(12))
    first = _signed(log, nodes, 5)
    status, _, answer = _post(witness, request_body(0, [], first))
    assert status == 200, answer
    key = parse_verifier_key(witness.vkey)
    note, sigs = parse_signed(first + answer)
    cosig = from_signature(sigs[-1])
    assert (cosig.name, cosig.key_hash) == (key.name, key.key_hash)
    Ed25519PublicKey.from_public_bytes(key.public_key).verify(
        cosig.signature, cosigned_message(note, cosig.timestamp)
    )
    proof = merkle.consistency_proof(nodes, 5, 12)
    status, _, answer = _post(witness, request_body(5, proof, _signed(log, nodes, 12)))
    assert status == 200, answer
    assert _stored_size(witness, log) == 12
    state_file = _state(witness, log)
    assert stat.S_IMODE(state_file.stat().st_mode) == 0o644
    assert stat.S_IMODE(witness.key_file.stat().st_mode) == 0o600
    # The monitoring path serves it with the log's signature and the cosignature.
    with urllib.request.urlopen(f"{witness.url}/{origin_hash(log.name)}/checkpoint") as r:
        served = r.read().decode()
    assert served == state_file.read_text() and served.endswith(answer)


def test_a_wrong_old_size_is_a_409_with_the_witness_size(
    witness: Running, logs: dict[str, Signer]
) -> None:
    log = logs["conflict"]
    nodes = _nodes(_leaves(9))
    assert _post(witness, request_body(0, [], _signed(log, nodes, 5)))[0] == 200
    status, kind, answer = _post(witness, request_body(0, [], _signed(log, nodes, 9)))
    assert (status, kind, answer) == (409, "text/x.tlog.size", "5\n")


def test_a_rollback_is_refused(witness: Running, logs: dict[str, Signer]) -> None:
    log = logs["rollback"]
    nodes = _nodes(_leaves(9))
    assert _post(witness, request_body(0, [], _signed(log, nodes, 9)))[0] == 200
    older = _signed(log, nodes, 4)
    assert _post(witness, request_body(9, [], older))[0] == 400  # old above the size
    assert _post(witness, request_body(4, [], older))[:3:2] == (409, "9\n")
    assert _stored_size(witness, log) == 9


def test_a_split_view_and_a_fork_are_refused(witness: Running, logs: dict[str, Signer]) -> None:
    log = logs["split"]
    honest = _nodes(_leaves(6))
    assert _post(witness, request_body(0, [], _signed(log, honest, 6)))[0] == 200
    fork = _nodes(_leaves(10, b"another history"))
    status, _, answer = _post(witness, request_body(6, [], _signed(log, fork, 6)))
    assert status == 422 and "split view" in answer
    proof = merkle.consistency_proof(fork, 6, 10)
    status, _, answer = _post(witness, request_body(6, proof, _signed(log, fork, 10)))
    assert status == 422 and "does not verify" in answer
    assert _stored_size(witness, log) == 6


def test_unknown_origins_unsigned_checkpoints_and_malformed_bodies(
    witness: Running, logs: dict[str, Signer], tmp_path: Path
) -> None:
    log = logs["refusals"]
    nodes = _nodes(_leaves(3))
    other_log = load_signer(tmp_path / "other.key", "someone-else/log", create=True)
    assert _post(witness, request_body(0, [], _signed(other_log, nodes, 3)))[0] == 404
    impostor = load_signer(tmp_path / "impostor.key", log.name, create=True)  # not its key
    status, _, answer = _post(witness, request_body(0, [], _signed(impostor, nodes, 3)))
    assert status == 403 and "no signature by a log key" in answer
    real = _signed(log, nodes, 3)
    line = real.rsplit(" ", 1)
    raw = bytearray(base64.b64decode(line[1]))
    raw[-1] ^= 1  # our key hash, a signature that fails
    forged = line[0] + " " + base64.b64encode(bytes(raw)).decode() + "\n"
    status, _, answer = _post(witness, request_body(0, [], forged))
    assert status == 403 and "does not verify" in answer
    assert _post(witness, b"old 0\n" + real.encode())[0] == 400  # no empty line after old
    assert _post(witness, b"old 00\n\n" + real.encode())[0] == 400
    assert not _state(witness, log).exists()
