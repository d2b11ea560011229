"""C2SP verifier keys (`name+keyhash+base64(type || key)`), the form Go's
`note.NewVerifier` reads: the example of golang.org/x/mod/sumdb/note's documentation reads
back, and every malformed key is refused with a reason."""

from __future__ import annotations

import base64

import pytest

from market.domain.checkpoint_note import (
    COSIGNATURE_V1,
    ED25519,
    NoteError,
    parse_verifier_key,
    verifier_key,
)

GO_EXAMPLE = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"


def test_the_go_documentation_example_parses_and_reads_back() -> None:
    key = parse_verifier_key(GO_EXAMPLE)
    assert key.name == "PeterNeumann"
    assert key.key_type == ED25519
    assert key.key_hash.hex() == "c74f20a3"
    assert key.text == GO_EXAMPLE
    assert verifier_key(key.name, key.public_key) == GO_EXAMPLE


def test_a_cosignature_key_has_its_own_type_and_hash() -> None:
    public = bytes(range(32))
    ed = parse_verifier_key(verifier_key("w.example/witness", public))
    cosign = parse_verifier_key(verifier_key("w.example/witness", public, COSIGNATURE_V1))
    assert cosign.key_type == COSIGNATURE_V1
    assert cosign.key_hash != ed.key_hash


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("PeterNeumann", "not a verifier key"),
        ("+c74f20a3+ARpc", "not a verifier key"),
        ("Peter Neumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "not a verifier"),
        ("PeterNeumann+zz+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "not hex and base64"),
        ("PeterNeumann+c74f20a3+!!!", "not hex and base64"),
        ("PeterNeumann+c74f20a3+" + base64.b64encode(b"\x01" + b"k" * 31).decode(), "Ed25519"),
        ("PeterNeumann+c74f20a3+" + base64.b64encode(b"\x02" + b"k" * 32).decode(), "Ed25519"),
        ("PeterNeumann+c74f20+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "Ed25519"),
        ("PeterNeumann+c74f20a4+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW", "wrong key hash"),
    ],
)
def test_a_malformed_verifier_key_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(NoteError, match=reason):
        parse_verifier_key(text)
