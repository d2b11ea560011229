"""The witness protocol, C2SP tlog-witness `add-checkpoint`: the request body and what a
witness decides from it.

The body is a line `old <size>`, zero to 63 lines of one base64 hash each (the RFC 6962
consistency proof from the old size), an empty line, then the signed checkpoint. The
witness answers 400 to a malformed body (or an old size above the checkpoint's), 404 to an
origin it does not know, 403 when no trusted log key signed it (or a trusted key's
signature fails), 409 with its latest size when `old` is not that size, 422 when the
checkpoint is not consistent with the latest it cosigned (a rollback or a split view);
each refusal is a class here, and the service maps it to its status.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from market.domain import merkle
from market.domain.checkpoint_note import Note, NoteError, Signature, parse_note, parse_signed

MAX_PROOF_LINES = 63
SIZE_CONTENT_TYPE = "text/x.tlog.size"


class WitnessRefusal(Exception):
    """Why a witness does not cosign; `status` is the spec's HTTP status for it."""

    status = 400


class MalformedRequest(WitnessRefusal):
    status = 400


class UnknownOrigin(WitnessRefusal):
    status = 404


class NotSignedByLog(WitnessRefusal):
    status = 403


class SizeConflict(WitnessRefusal):
    status = 409

    def __init__(self, latest_size: int) -> None:
        super().__init__(f"the witness's latest checkpoint has size {latest_size}")
        self.latest_size = latest_size


class InconsistentCheckpoint(WitnessRefusal):
    status = 422


@dataclass(frozen=True)
class AddCheckpoint:
    old: int
    proof: list[bytes]
    note_text: str  # the checkpoint body, signatures excluded
    note: Note
    signatures: list[Signature]


def _decimal(text: str, what: str) -> int:
    if not text.isascii() or not text.isdigit() or (len(text) > 1 and text[0] == "0"):
        raise MalformedRequest(f"{what} {text[:40]!r} is not a decimal without leading zeroes")
    return int(text)


def parse_add_checkpoint(body: bytes) -> AddCheckpoint:
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise MalformedRequest("the body is not UTF-8") from e
    head, sep, checkpoint = text.partition("\n\n")
    if not sep:
        raise MalformedRequest("no empty line ends the old size and proof lines")
    first, *proof_lines = head.split("\n")
    if not first.startswith("old "):
        raise MalformedRequest("the first line is not `old <size>`")
    old = _decimal(first[4:], "the old size")
    if len(proof_lines) > MAX_PROOF_LINES:
        raise MalformedRequest(f"{len(proof_lines)} proof lines; at most {MAX_PROOF_LINES}")
    proof = []
    for line in proof_lines:
        try:
            digest = base64.b64decode(line, validate=True)
        except binascii.Error as e:
            raise MalformedRequest(f"the proof line {line[:60]!r} is not base64") from e
        if len(digest) != 32:
            raise MalformedRequest(f"a proof line has {len(digest)} bytes, not 32")
        proof.append(digest)
    try:
        note_text, signatures = parse_signed(checkpoint)
        note = parse_note(note_text)
    except NoteError as e:
        raise MalformedRequest(f"the checkpoint is not a signed note: {e}") from e
    return AddCheckpoint(old, proof, note_text, note, signatures)


def check_extension(latest: Note | None, request: AddCheckpoint) -> None:
    """Refuse unless `request` extends `latest` (the last checkpoint cosigned, if any)."""
    new = request.note
    if request.old > new.tree_size:
        raise MalformedRequest(f"old size {request.old} is above the checkpoint's {new.tree_size}")
    have = latest.tree_size if latest is not None else 0
    if request.old != have:
        raise SizeConflict(have)
    if new.tree_size == 0 and new.root != merkle.EMPTY_ROOT:
        raise InconsistentCheckpoint("a checkpoint of size 0 must have the empty tree's root")
    if latest is None or have == 0:
        if request.proof:
            raise InconsistentCheckpoint("from size 0 the consistency proof must be empty")
        return
    if not merkle.verify_consistency(have, new.tree_size, request.proof, latest.root, new.root):
        if have == new.tree_size:
            raise InconsistentCheckpoint(
                f"size {have} was cosigned with another root hash (a split view)"
            )
        raise InconsistentCheckpoint(
            f"the consistency proof from {have} to {new.tree_size} does not verify"
        )


def request_body(old: int, proof: list[bytes], signed_checkpoint: str) -> bytes:
    """The body a log sends (the inverse of `parse_add_checkpoint`)."""
    lines = [f"old {old}\n", *(base64.b64encode(p).decode() + "\n" for p in proof), "\n"]
    return ("".join(lines) + signed_checkpoint).encode("utf-8")


def parse_size(body: str) -> int:
    """A 409's body: the witness's latest size in decimal and a newline."""
    if not body.endswith("\n"):
        raise MalformedRequest("the size does not end in a newline")
    return _decimal(body[:-1], "the size")
