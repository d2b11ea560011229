"""Checkpoint notes (C2SP tlog-checkpoint) and their signed-note envelope (C2SP signed-note).

The note is three lines, each ending in "\\n": the origin, the tree size in decimal, the
root hash in standard base64. A signed note is the note, an empty line, and one line per
signature: "— <key name> <base64(key hash || signature)>". The key hash (the key id,
written as 8 lowercase hex digits where a field says `key_id`) is the first 4 bytes of
SHA-256(key name || 0x0A || 0x01 || the 32-byte Ed25519 public key): 0x01 names Ed25519.
The signature itself is checked by the caller (the domain has no Ed25519).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass

ED25519 = b"\x01"
COSIGNATURE_V1 = b"\x04"  # C2SP tlog-cosignature: Ed25519 over a timestamped message
DASH = "\u2014"  # the em dash that starts a signature line


class NoteError(ValueError):
    """Text that is not a valid checkpoint or signed note; the message says why."""


@dataclass(frozen=True)
class Note:
    origin: str
    tree_size: int
    root: bytes

    @property
    def text(self) -> str:
        return f"{self.origin}\n{self.tree_size}\n{base64.b64encode(self.root).decode()}\n"


@dataclass(frozen=True)
class Signature:
    name: str
    key_hash: bytes
    signature: bytes


def key_hash(name: str, public_key: bytes, key_type: bytes = ED25519) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + key_type + public_key).digest()[:4]


@dataclass(frozen=True)
class VerifierKey:
    """A C2SP signed-note verifier key: `name+hex(key hash)+base64(type || public key)`,
    the form Go's `note.NewVerifier` accepts."""

    name: str
    key_type: bytes
    public_key: bytes

    @property
    def key_hash(self) -> bytes:
        return key_hash(self.name, self.public_key, self.key_type)

    @property
    def text(self) -> str:
        blob = base64.b64encode(self.key_type + self.public_key).decode()
        return f"{self.name}+{self.key_hash.hex()}+{blob}"


def verifier_key(name: str, public_key: bytes, key_type: bytes = ED25519) -> str:
    return VerifierKey(name, key_type, public_key).text


def parse_verifier_key(text: str) -> VerifierKey:
    """NoteError unless `text` is a well-formed Ed25519 or cosignature/v1 verifier key."""
    name, sep1, rest = text.strip().partition("+")
    hash_hex, sep2, blob = rest.partition("+")
    if not (sep1 and sep2) or not name or any(c in name for c in " +\n\t"):
        raise NoteError(f"not a verifier key (name+hash+key): {text[:80]!r}")
    try:
        raw = base64.b64decode(blob, validate=True)
        claimed = bytes.fromhex(hash_hex)
    except (binascii.Error, ValueError) as e:
        raise NoteError(f"the verifier key {name!r} is not hex and base64") from e
    if len(raw) != 33 or raw[:1] not in (ED25519, COSIGNATURE_V1) or len(claimed) != 4:
        raise NoteError(f"the verifier key {name!r} is not an Ed25519 key")
    found = VerifierKey(name, raw[:1], raw[1:])
    if found.key_hash != claimed:
        raise NoteError(f"the verifier key {name!r} has a wrong key hash")
    return found


def parse_note(text: str) -> Note:
    if not text.endswith("\n"):
        raise NoteError("the note does not end in a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3:
        raise NoteError(
            f"a checkpoint has at least 3 lines (origin, size, root); found {len(lines)}"
        )
    origin, size, root = lines[:3]
    if not origin or origin != origin.strip():
        raise NoteError("the origin line is empty or padded")
    if not size.isdigit() or (len(size) > 1 and size[0] == "0"):
        raise NoteError(f"the tree size {size!r} is not a decimal number")
    try:
        digest = base64.b64decode(root, validate=True)
    except binascii.Error as e:
        raise NoteError(f"the root hash {root!r} is not base64") from e
    if len(digest) != 32:
        raise NoteError(f"the root hash has {len(digest)} bytes, not 32")
    return Note(origin, int(size), digest)


def signed_text(note: str, signatures: list[Signature]) -> str:
    lines = [
        f"{DASH} {s.name} {base64.b64encode(s.key_hash + s.signature).decode()}\n"
        for s in signatures
    ]
    return note + "\n" + "".join(lines)


def parse_signed(text: str, *, checkpoint: bool = True) -> tuple[str, list[Signature]]:
    """The note text and its signatures; NoteError if the envelope is malformed (or, with
    `checkpoint`, the body is not a checkpoint)."""
    note, sep, block = text.rpartition("\n\n")
    if not sep:
        raise NoteError("no empty line separates the note from its signatures")
    note += "\n"
    if not block.endswith("\n"):
        raise NoteError("the last signature line does not end in a newline")
    signatures = []
    for line in block[:-1].split("\n"):
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH:
            raise NoteError(f"not a signature line: {line[:80]!r}")
        try:
            raw = base64.b64decode(parts[2], validate=True)
        except binascii.Error as e:
            raise NoteError(f"the signature of {parts[1]!r} is not base64") from e
        if len(raw) < 5:
            raise NoteError(f"the signature of {parts[1]!r} is too short")
        signatures.append(Signature(parts[1], raw[:4], raw[4:]))
    if checkpoint:
        parse_note(note)
    return note, signatures
