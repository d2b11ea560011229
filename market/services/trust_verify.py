"""The ledger checked against its signed checkpoints (PRODUCT.md 8.1).

`check_checkpoints` (full, for `flask verify` and `replay`): every checkpoint file in
CHECKPOINT_DIR and every stored one is parsed and its signature checked with our key; a
file that is not a signed note, or whose signature by our key does not verify, is a
problem; one signed only by another key is reported and not trusted. Then one pass over
the events' hashes recomputes the Merkle root at each trusted checkpoint's size: a
ledger shorter than a checkpoint, or with another root at its size, fails naming it.

The incremental check for requests is `trust_recent.verify_recent`.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, and_, select
from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store, merkle_store
from market.adapters.eventstore import events_t
from market.adapters.signing import verify_signature
from market.domain import merkle
from market.domain.checkpoint_note import (
    Note,
    NoteError,
    Signature,
    key_hash,
    parse_note,
    parse_signed,
)
from market.services.checkpoints import TrustSettings, signer
from market.services.uow import ReadOnly


@dataclass(frozen=True)
class Trusted:
    name: str  # the file's path, or "stored checkpoint <size>"
    note: Note


@dataclass
class CheckpointReport:
    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    untrusted: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "problems": self.problems,
            "untrusted": self.untrusted,
            "first_bad_seq": self.first_bad_seq,
        }


def judge(
    name: str,
    note: str,
    signatures: list[Signature],
    key: tuple[str, bytes],
    report: CheckpointReport,
) -> Trusted | None:
    origin, public = key
    ours = [s for s in signatures if s.name == origin and s.key_hash == key_hash(*key)]
    if not ours:
        ids = ", ".join(f"{s.name} {s.key_hash.hex()}" for s in signatures)
        report.untrusted.append(f"checkpoint {name}: signed by another key ({ids}), not trusted")
        return None
    if not any(verify_signature(public, note.encode("utf-8"), s.signature) for s in ours):
        report.problems.append(f"checkpoint {name}: its signature by our key does not verify")
        return None
    return Trusted(name, parse_note(note))


def trusted_checkpoints(
    conn: Connection, settings: TrustSettings, report: CheckpointReport
) -> list[Trusted]:
    s = signer(settings)
    key = (s.name, s.public_bytes)
    found: list[Trusted] = []
    for path, content, error in checkpoint_store.read_files(settings.checkpoint_dir):
        if content is None:
            report.problems.append(f"checkpoint {path}: {error}")
            continue
        try:
            note, signatures = parse_signed(content)
        except NoteError as e:
            report.problems.append(f"checkpoint {path}: not a valid signed note ({e})")
            continue
        if (t := judge(str(path), note, signatures, key, report)) is not None:
            found.append(t)
    for row in checkpoint_store.iter_all(conn):
        origin = row["note"].split("\n", 1)[0]
        try:
            sig = Signature(
                origin, bytes.fromhex(row["key_id"]), base64.b64decode(row["signature"])
            )
            t = judge(f"stored checkpoint {row['tree_size']}", row["note"], [sig], key, report)
        except (ValueError, NoteError) as e:
            report.problems.append(f"stored checkpoint {row['tree_size']}: malformed ({e})")
            continue
        if t is not None:
            found.append(t)
    return found


def _leaves(conn: Connection, batch: int = 10_000) -> Any:
    """(seq, event hash, stored leaf or None) in seq order, in bounded memory."""
    nodes_t = merkle_store.nodes_t
    last = 0
    while True:
        rows = conn.execute(
            select(events_t.c.seq, events_t.c.hash, nodes_t.c.hash.label("leaf"))
            .outerjoin(nodes_t, and_(nodes_t.c.level == 0, nodes_t.c.idx == events_t.c.seq - 1))
            .where(events_t.c.seq > last)
            .order_by(events_t.c.seq)
            .limit(batch)
        ).all()
        if not rows:
            return
        yield from rows
        last = rows[-1].seq


def check_checkpoints(engine: Engine, settings: TrustSettings) -> CheckpointReport:
    report = CheckpointReport()
    with ReadOnly(engine) as conn:
        trusted = trusted_checkpoints(conn, settings, report)
        by_size: dict[int, list[Trusted]] = {}
        for t in trusted:
            by_size.setdefault(t.note.tree_size, []).append(t)
        frontier = merkle.Frontier()
        for seq, digest, stored in _leaves(conn):
            leaf = merkle.leaf_hash(bytes.fromhex(digest))
            if stored is not None and bytes(stored) != leaf and report.first_bad_seq is None:
                report.first_bad_seq = seq
            frontier.append(leaf)
            for t in by_size.pop(seq, []):
                _compare(t, frontier.root(), report)
        for size in sorted(by_size):
            for t in by_size[size]:
                report.problems.append(
                    f"checkpoint {t.name}: signed a ledger of {size} events; "
                    f"the ledger has only {frontier.size}"
                )
                if report.first_bad_seq is None:
                    report.first_bad_seq = frontier.size + 1
        stored_size = merkle_store.stored_size(conn)
        for t in trusted:
            size = t.note.tree_size
            if size <= stored_size and merkle_store.stored_root(conn, size) != t.note.root:
                report.problems.append(
                    f"checkpoint {t.name}: the stored Merkle tree has another root at size {size}"
                )
    if report.problems and report.first_bad_seq is None:
        report.first_bad_seq = min((t.note.tree_size for t in trusted), default=None)
    return report


def _compare(t: Trusted, root: bytes, report: CheckpointReport) -> None:
    if root == t.note.root:
        report.checked.append(f"{t.name} (tree size {t.note.tree_size})")
    else:
        report.problems.append(
            f"checkpoint {t.name}: the ledger's tree at size {t.note.tree_size} has root "
            f"{root.hex()}, the checkpoint signed {t.note.root.hex()} (history was rewritten)"
        )
