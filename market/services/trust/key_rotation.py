"""Rotating the log's signing key without disarming what the old key signed (issue 23).

A rotation is a statement, published beside the checkpoints in CHECKPOINT_DIR (a file
`key-rotation-<size>.note`): a signed note whose body is

    <origin>
    key rotation
    old <old verifier key>
    new <new verifier key>
    from <tree size when it was made>

signed by both keys (the old one vouches for its successor, the new one shows it is held).
It can never be read as a checkpoint (its second line is no tree size). The trusted keys
are then the pinned ones (TRUSTED_LOG_KEYS, else the key file's) together with every key
a valid statement links to them, in either direction: forwards, a pinned old key vouches
for its successor; backwards, a current key inherits the keys that vouched for it. An
attacker with only a new key cannot write a statement the old key signed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from market.adapters.files import write_once
from market.adapters.signing import Signer, verify_signature
from market.domain.checkpoint_note import (
    NoteError,
    VerifierKey,
    parse_signed,
    parse_verifier_key,
    signed_text,
)
from market.domain.checkpoint_note import Signature as NoteSignature

PREFIX = "key-rotation-"
SUFFIX = ".note"


@dataclass(frozen=True)
class Rotation:
    old: VerifierKey
    new: VerifierKey
    tree_size: int
    text: str  # the signed note, as published


def statement(origin: str, old: Signer, new: Signer, tree_size: int) -> str:
    body = (
        f"{origin}\nkey rotation\nold {old.verifier_key}\nnew {new.verifier_key}\n"
        f"from {tree_size}\n"
    )
    sigs = [NoteSignature(k.name, k.key_hash, k.sign(body.encode())) for k in (old, new)]
    return signed_text(body, sigs)


def publish(directory: Path, origin: str, old: Signer, new: Signer, tree_size: int) -> Path:
    if old.public_bytes == new.public_bytes:
        raise ValueError("the new key is the current key")
    path = directory / f"{PREFIX}{tree_size:012d}-{new.key_id}{SUFFIX}"
    write_once(path, statement(origin, old, new, tree_size).encode(), 0o644)
    return path


def parse(text: str, origin: str) -> Rotation:
    """NoteError unless `text` is a rotation statement of `origin` both keys signed."""
    body, signatures = parse_signed(text, checkpoint=False)
    lines = body[:-1].split("\n")
    if len(lines) != 5 or lines[0] != origin or lines[1] != "key rotation":
        raise NoteError("not a key rotation statement of this log")
    fields = dict(line.split(" ", 1) for line in lines[2:] if " " in line)
    from_size = fields.get("from", "")
    if set(fields) != {"old", "new", "from"} or not from_size.isdigit():
        raise NoteError("a rotation statement names old, new and from")
    old, new = parse_verifier_key(fields["old"]), parse_verifier_key(fields["new"])
    for key in (old, new):
        if not any(
            s.name == key.name
            and s.key_hash == key.key_hash
            and verify_signature(key.public_key, body.encode(), s.signature)
            for s in signatures
        ):
            raise NoteError(f"the rotation statement is not signed by {key.text}")
    return Rotation(old, new, int(from_size), text)


def read_all(directory: Path, origin: str) -> tuple[list[Rotation], list[str]]:
    """Every valid statement in the folder, and what was wrong with the others."""
    found: list[Rotation] = []
    problems: list[str] = []
    paths = sorted(directory.glob(f"{PREFIX}*{SUFFIX}")) if directory.is_dir() else []
    for path in paths:
        try:
            found.append(parse(path.read_text(encoding="utf-8"), origin))
        except (OSError, UnicodeDecodeError, NoteError, ValueError) as e:
            problems.append(f"key rotation {path}: {e}")
    return found, problems


def linked(pinned: list[VerifierKey], rotations: list[Rotation]) -> list[VerifierKey]:
    """The pinned keys and every key a statement links to them, either way."""
    keys = {k.text: k for k in pinned}
    grew = True
    while grew:
        grew = False
        for r in rotations:
            for have, other in ((r.old, r.new), (r.new, r.old)):
                if have.text in keys and other.text not in keys:
                    keys[other.text] = other
                    grew = True
    return list(keys.values())
