"""Ed25519 cosignatures, C2SP tlog-cosignature (signature type 0x04, "cosignature/v1").

A cosignature is a note signature line by a witness ("— <witness name> base64(key hash ||
timestamp || signature)"): the key hash is SHA-256(name || 0x0A || 0x04 || public key)[:4],
the timestamp 8 bytes big-endian (POSIX seconds, not zero, at most 2^63 - 1), the
signature 64 bytes of Ed25519 over the message "cosignature/v1\\ntime <timestamp>\\n"
followed by the whole checkpoint body (its lines, not its signatures). The signature
itself is made and checked by the caller (the domain has no Ed25519).
"""

from __future__ import annotations

from dataclasses import dataclass

from market.domain.checkpoint_note import (
    COSIGNATURE_V1,
    NoteError,
    Signature,
    VerifierKey,
    key_hash,
    signed_text,
)

HEADER = "cosignature/v1"
ED25519_SIGNATURE = 64
MAX_TIMESTAMP = 2**63 - 1


def cosigned_message(note: str, timestamp: int) -> bytes:
    """What the witness signs: the header line, the time line, then the checkpoint body."""
    check_timestamp(timestamp)
    return f"{HEADER}\ntime {timestamp}\n{note}".encode()


def check_timestamp(timestamp: int) -> None:
    if not 0 < timestamp <= MAX_TIMESTAMP:
        raise NoteError(f"a cosignature's timestamp is 1 to 2^63-1, not {timestamp}")


@dataclass(frozen=True)
class Cosignature:
    name: str  # the witness's key name
    key_hash: bytes  # 4 bytes, of type 0x04
    timestamp: int
    signature: bytes  # 64 bytes of Ed25519

    @property
    def note_signature(self) -> Signature:
        """As a signed-note signature: its bytes are the timestamped_signature."""
        return Signature(
            self.name, self.key_hash, self.timestamp.to_bytes(8, "big") + self.signature
        )

    @property
    def key_id(self) -> str:
        return self.key_hash.hex()

    @property
    def line(self) -> str:
        """The signature line a witness answers: "— <name> <base64>\\n"."""
        return signed_text("", [self.note_signature])[1:]


def cosigner_key_hash(name: str, public_key: bytes) -> bytes:
    return key_hash(name, public_key, COSIGNATURE_V1)


def from_signature(sig: Signature) -> Cosignature:
    """A signed-note signature read as a cosignature; NoteError unless it is 8 + 64 bytes
    with a valid timestamp."""
    if len(sig.signature) != 8 + ED25519_SIGNATURE:
        raise NoteError(
            f"the cosignature of {sig.name!r} has {len(sig.signature)} bytes, not 8 + 64"
        )
    timestamp = int.from_bytes(sig.signature[:8], "big")
    check_timestamp(timestamp)
    return Cosignature(sig.name, sig.key_hash, timestamp, sig.signature[8:])


def is_from(sig: Signature, witness: VerifierKey) -> bool:
    """The signature line names this witness key (name and key hash); others are ignored."""
    return (
        witness.key_type == COSIGNATURE_V1
        and sig.name == witness.name
        and sig.key_hash == witness.key_hash
    )
