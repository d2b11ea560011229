"""Ed25519 cosignatures as C2SP tlog-cosignature writes them: the spec's example line
reads back with the timestamp of its example message, the signed message is the spec's
text byte for byte, and a line made here has the spec's layout (key hash of type 0x04,
8-byte big-endian timestamp, 64-byte signature)."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from market.domain.checkpoint_note import (
    COSIGNATURE_V1,
    ED25519,
    NoteError,
    Signature,
    VerifierKey,
    parse_signed,
)
from market.domain.cosignature import (
    MAX_TIMESTAMP,
    Cosignature,
    check_timestamp,
    cosigned_message,
    cosigner_key_hash,
    from_signature,
    is_from,
)

# c2sp.org/tlog-cosignature, "Format": a checkpoint that contains a cosignature.
SPEC_CHECKPOINT = (
    "example.com/behind-the-sofa\n"
    "20852163\n"
    "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    "\n"
    "— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5"
    "/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n"
    "— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlr"
    "DJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n"
)
# "Ed25519 signed message": the example message.
SPEC_MESSAGE = (
    "cosignature/v1\n"
    "time 1679315147\n"
    "example.com/behind-the-sofa\n"
    "20852163\n"
    "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
)


def _key() -> tuple[Ed25519PrivateKey, bytes]:
    private = Ed25519PrivateKey.generate()
    return private, private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def test_the_spec_example_cosignature_reads_back_with_the_example_message_time() -> None:
    note, sigs = parse_signed(SPEC_CHECKPOINT)
    c = from_signature(sigs[1])
    assert c.name == "witness.example.com/w1"
    assert c.timestamp == 1679315147
    assert len(c.signature) == 64 and c.key_id == "8d66cf3f"
    # The message it signs is the spec's example, byte for byte.
    assert cosigned_message(note, c.timestamp) == SPEC_MESSAGE.encode()
    assert c.line == SPEC_CHECKPOINT.splitlines(keepends=True)[-1]


def test_a_cosignature_made_here_has_the_spec_layout_and_verifies() -> None:
    private, public = _key()
    note = "\n".join(SPEC_MESSAGE.split("\n")[2:])
    name = "tax.nj.gov/witness"
    stamp = 1_800_000_000
    c = Cosignature(
        name, cosigner_key_hash(name, public), stamp, private.sign(cosigned_message(note, stamp))
    )
    dash, who, blob = c.line.rstrip("\n").split(" ")
    raw = base64.b64decode(blob)
    assert (dash, who, len(raw)) == ("—", name, 4 + 8 + 64)
    assert raw[:4] == hashlib.sha256(name.encode() + b"\n\x04" + public).digest()[:4]
    assert raw[4:12] == stamp.to_bytes(8, "big")
    private.public_key().verify(raw[12:], b"cosignature/v1\ntime 1800000000\n" + note.encode())
    assert from_signature(c.note_signature) == c


@pytest.mark.parametrize("stamp", [0, MAX_TIMESTAMP + 1, -1])
def test_a_timestamp_of_zero_or_past_2_63_is_refused(stamp: int) -> None:
    with pytest.raises(NoteError, match="timestamp"):
        check_timestamp(stamp)
    with pytest.raises(NoteError):
        cosigned_message("o\n1\nAA==\n", stamp)


def test_the_largest_timestamp_is_accepted() -> None:
    check_timestamp(MAX_TIMESTAMP)


def test_a_signature_of_another_length_or_a_zero_timestamp_is_no_cosignature() -> None:
    with pytest.raises(NoteError, match="not 8 \\+ 64"):
        from_signature(Signature("w", b"1234", b"\x00" * 64))  # a plain Ed25519 note signature
    with pytest.raises(NoteError, match="timestamp"):
        from_signature(Signature("w", b"1234", b"\x00" * 72))


def test_only_lines_naming_the_witness_key_are_its_own() -> None:
    _, public = _key()
    witness = VerifierKey("w.example/1", COSIGNATURE_V1, public)
    own = Signature("w.example/1", witness.key_hash, b"")
    assert is_from(own, witness)
    assert not is_from(Signature("w.example/2", witness.key_hash, b""), witness)
    assert not is_from(Signature("w.example/1", b"\x00" * 4, b""), witness)
    as_log_key = VerifierKey("w.example/1", ED25519, public)  # the same key of type 0x01
    assert not is_from(Signature("w.example/1", as_log_key.key_hash, b""), as_log_key)
