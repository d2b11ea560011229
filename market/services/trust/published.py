"""What this log has published, under pinned keys (issue 23; PRODUCT.md 9.3).

Every checkpoint the log ever signed is in CHECKPOINT_DIR (a place outside the database)
and, normally, in the `checkpoints` table too. Either copy may be tampered with, so
neither is believed on its own: a checkpoint counts as *published* when its note carries
a valid signature by a trusted key, wherever it was found. The trusted keys are
configuration (`TRUSTED_LOG_KEYS`, C2SP verifier keys, one a line), not whatever key file
is present; unset, the key in SIGNING_KEY_FILE is the one trusted. A checkpoint of our
origin that no trusted key signed is a problem, not a curiosity: it is how a new key
would otherwise disarm every old checkpoint.

`check_against` is the rule the signer follows before it signs a tree (size, root): no
published checkpoint is larger; one of the same size has the same root; the tree is
consistent with the largest smaller one (an RFC 9162 consistency proof, verified). So the
log never signs what contradicts what it published: a restored old backup, a cut tail
or a rewritten history is refused, and a split view can only come from someone holding
the key itself.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store
from market.adapters.checkpoint_store import StoredCheckpoint
from market.adapters.signing import verify_signature
from market.domain import merkle
from market.domain.checkpoint_note import (
    Note,
    NoteError,
    Signature,
    VerifierKey,
    parse_note,
    parse_signed,
    parse_verifier_key,
)

# Verified (key hash, signature, note) triples: a signature, once checked, stays valid.
_VERIFIED: set[tuple[bytes, bytes, str]] = set()
_VERIFIED_MAX = 500_000


@dataclass(frozen=True)
class Published:
    source: str  # the file's path, or "stored checkpoint <size>"
    note: Note
    text: str  # the note as signed


@dataclass
class Record:
    """The published checkpoints found, and what was wrong with the rest."""

    checkpoints: list[Published] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # in the files: they block signing
    row_problems: list[str] = field(default_factory=list)  # rows nobody we trust signed
    untrusted: list[str] = field(default_factory=list)

    @property
    def all_problems(self) -> list[str]:
        return self.problems + self.row_problems

    def by_size(self) -> dict[int, list[Published]]:
        found: dict[int, list[Published]] = {}
        for p in self.checkpoints:
            found.setdefault(p.note.tree_size, []).append(p)
        return found


def parse_keys(configured: Iterable[str]) -> list[VerifierKey]:
    """TRUSTED_LOG_KEYS' lines (NoteError for a malformed one)."""
    return [parse_verifier_key(line) for line in configured if line.strip()]


def _signed_by_trusted(
    text: str, signatures: list[Signature], origin: str, keys: list[VerifierKey]
) -> bool | None:
    """True: a trusted key signed it; False: a trusted key's signature is bad; None: no
    trusted key signed it at all."""
    verdict: bool | None = None
    for s in signatures:
        for k in keys:
            if s.name != k.name or s.key_hash != k.key_hash or k.name != origin:
                continue
            memo = (s.key_hash, s.signature, text)
            if memo in _VERIFIED or verify_signature(k.public_key, text.encode(), s.signature):
                if len(_VERIFIED) >= _VERIFIED_MAX:
                    _VERIFIED.clear()
                _VERIFIED.add(memo)
                return True
            verdict = False
    return verdict


@dataclass(frozen=True)
class Candidate:
    """A signed note found somewhere (a file, a row), not judged yet."""

    source: str
    text: str
    signatures: list[Signature]


def judge(
    candidate: Candidate, origin: str, keys: list[VerifierKey], record: Record
) -> Published | None:
    """Add the checkpoint to `record` if a trusted key signed it; say why not otherwise."""
    source, text, signatures = candidate.source, candidate.text, candidate.signatures
    try:
        note = parse_note(text)
    except NoteError as e:
        record.problems.append(f"checkpoint {source}: not a checkpoint note ({e})")
        return None
    verdict = _signed_by_trusted(text, signatures, origin, keys)
    if verdict:
        found = Published(source, note, text)
        record.checkpoints.append(found)
        return found
    ids = ", ".join(f"{s.name} {s.key_hash.hex()}" for s in signatures) or "none"
    if verdict is False:
        record.problems.append(f"checkpoint {source}: its signature by our key does not verify")
    elif note.origin == origin:
        record.problems.append(
            f"checkpoint {source}: signed for our origin by a key that is not trusted "
            f"({ids}); the trusted keys are TRUSTED_LOG_KEYS"
        )
    else:
        record.untrusted.append(f"checkpoint {source}: another log's ({note.origin}), ignored")
    return None


def row_signature(row: StoredCheckpoint) -> Signature:
    origin = row["note"].split("\n", 1)[0]
    return Signature(origin, bytes.fromhex(row["key_id"]), base64.b64decode(row["signature"]))


def judge_row(
    row: StoredCheckpoint, origin: str, keys: list[VerifierKey], record: Record
) -> Published | None:
    source = f"stored checkpoint {row['tree_size']}"
    try:
        sig = row_signature(row)
    except ValueError as e:
        record.row_problems.append(f"{source}: malformed ({e})")
        return None
    mine = Record()
    found = judge(Candidate(source, row["note"], [sig]), origin, keys, mine)
    if found is not None and found.note.tree_size != row["tree_size"]:
        mine.problems.append(f"{source}: its note signs size {found.note.tree_size}")
        mine.checkpoints, found = [], None
    record.checkpoints += mine.checkpoints
    record.row_problems += mine.problems
    record.untrusted += mine.untrusted
    return found


def read_files(
    directory: Path, origin: str, keys: list[VerifierKey], record: Record, min_size: int = 0
) -> None:
    """Every checkpoint file whose name says a size >= min_size (and every file whose name
    is not ours: it is read, never skipped); a name that lies about its size is a problem."""
    for path, content, error in checkpoint_store.read_files(directory, min_size):
        if content is None:
            record.problems.append(f"checkpoint {path}: {error}")
            continue
        try:
            text, signatures = parse_signed(content)
        except NoteError as e:
            record.problems.append(f"checkpoint {path}: not a valid signed note ({e})")
            continue
        found = judge(Candidate(str(path), text, signatures), origin, keys, record)
        named = checkpoint_store.named_size(path)
        if found is not None and named is not None and named != found.note.tree_size:
            record.problems.append(f"checkpoint {path}: its name disagrees with its size")


def gather(
    conn: Connection,
    directory: Path,
    origin: str,
    keys: list[VerifierKey],
    below: int | None = None,
) -> Record:
    """The published checkpoints, files and rows. With `below` (the size about to be
    signed), only those the signing rule needs: from the largest one at or under it up."""
    floor = 0
    if below is not None:
        named = (checkpoint_store.named_size(p) for p in checkpoint_store.file_paths(directory))
        sizes = [n for n in named if n is not None and n <= below]
        sizes += [n for n in checkpoint_store.sizes(conn) if n <= below]
        floor = max(sizes, default=0)
    record = Record()
    read_files(directory, origin, keys, record, floor)
    for row in checkpoint_store.iter_all(conn, after=max(floor - 1, 0)):
        judge_row(row, origin, keys, record)
    return record


def forks(record: Record) -> list[str]:
    """Two published checkpoints of one size with different roots: a split view."""
    out = []
    for size, found in sorted(record.by_size().items()):
        roots = {p.note.root for p in found}
        if len(roots) > 1:
            names = ", ".join(f"{p.source} ({p.note.root.hex()[:16]})" for p in found)
            out.append(f"two checkpoints of size {size} with different roots: {names}")
    return out


def check_against(
    record: Record, size: int, root: bytes, proof: Callable[[int], list[bytes]]
) -> list[str]:
    """Why the tree (size, root) contradicts what was published; empty if it does not.
    `proof(m)` is the consistency proof from size m to `size` from the stored tree."""
    problems = forks(record)
    smaller: Published | None = None
    for p in record.checkpoints:
        n = p.note.tree_size
        if n > size:
            problems.append(
                f"checkpoint {p.source} signed {n} events; the ledger's tree has only {size}"
            )
        elif n == size and p.note.root != root:
            problems.append(
                f"checkpoint {p.source} signed size {size} with root {p.note.root.hex()}; "
                f"the tree now has {root.hex()}"
            )
        elif n < size and (smaller is None or n > smaller.note.tree_size):
            smaller = p
    if smaller is not None:
        m = smaller.note.tree_size
        if not merkle.verify_consistency(m, size, proof(m), smaller.note.root, root):
            problems.append(
                f"the tree of {size} events is not consistent with checkpoint "
                f"{smaller.source} (size {m}): history before it was rewritten"
            )
    return problems
