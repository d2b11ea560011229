"""The ledger checked against its signed checkpoints (PRODUCT.md 8.1).

`check_checkpoints` (full, for `flask verify` and `replay`): every checkpoint file in
CHECKPOINT_DIR and every stored one is parsed and its signature checked under the pinned
keys (`published`): a file that is not a signed note, whose signature does not verify, or
that names our origin under a key nobody trusts is a problem, and so are two checkpoints
of one size with different roots; another log's is reported and ignored. Then one pass over
the events' hashes recomputes the Merkle root at each trusted checkpoint's size: a
ledger shorter than a checkpoint, or with another root at its size, fails naming it.

The incremental check for requests is `trust_recent.verify_recent`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from sqlalchemy import Engine, and_, select
from sqlalchemy.engine import Connection

from market.adapters import merkle_store
from market.adapters.eventstore import events_t
from market.domain import merkle
from market.services.kernel.uow import ReadOnly
from market.services.trust import key_rotation, published
from market.services.trust.checkpoints import TrustSettings, trusted_keys


class CheckpointReportJson(TypedDict):
    ok: bool
    checked: list[str]
    problems: list[str]
    untrusted: list[str]
    first_bad_seq: int | None


@dataclass
class CheckpointReport:
    checked: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    untrusted: list[str] = field(default_factory=list)
    first_bad_seq: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> CheckpointReportJson:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "problems": self.problems,
            "untrusted": self.untrusted,
            "first_bad_seq": self.first_bad_seq,
        }


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


def published_record(
    conn: Connection, settings: TrustSettings, report: CheckpointReport
) -> published.Record:
    """Every checkpoint this log published, under the pinned keys; what is wrong with the
    rest (forged or foreign files and rows, two roots of one size, a rotation statement
    the old key did not sign) goes into `report`. The full and the incremental verify
    both start here."""
    keys = trusted_keys(settings)
    record = published.gather(conn, settings.checkpoint_dir, settings.origin, keys)
    report.problems += record.all_problems + published.forks(record)
    report.problems += key_rotation.read_all(settings.checkpoint_dir, settings.origin)[1]
    report.untrusted += record.untrusted
    return record


def check_checkpoints(engine: Engine, settings: TrustSettings) -> CheckpointReport:
    report = CheckpointReport()
    with ReadOnly(engine) as conn:
        record = published_record(conn, settings, report)
        trusted = record.checkpoints
        by_size = record.by_size()
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
                    f"checkpoint {t.source}: signed a ledger of {size} events; "
                    f"the ledger has only {frontier.size}"
                )
                if report.first_bad_seq is None:
                    report.first_bad_seq = frontier.size + 1
        stored_size = merkle_store.stored_size(conn)
        for t in trusted:
            size = t.note.tree_size
            if size <= stored_size and merkle_store.stored_root(conn, size) != t.note.root:
                report.problems.append(
                    f"checkpoint {t.source}: the stored Merkle tree has another root at size {size}"
                )
    if report.problems and report.first_bad_seq is None:
        report.first_bad_seq = min((t.note.tree_size for t in trusted), default=None)
    return report


def _compare(t: published.Published, root: bytes, report: CheckpointReport) -> None:
    if root == t.note.root:
        report.checked.append(f"{t.source} (tree size {t.note.tree_size})")
    else:
        report.problems.append(
            f"checkpoint {t.source}: the ledger's tree at size {t.note.tree_size} has root "
            f"{root.hex()}, the checkpoint signed {t.note.root.hex()} (history was rewritten)"
        )
