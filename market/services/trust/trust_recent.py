"""The fast, incremental verify that `GET /api/v1/ledger/verify` and the /ledger page run
(never the whole ledger inside a request; the full check is `flask verify`).

From the last checkpoint we signed (the newest file in CHECKPOINT_DIR or the newest stored
row, whichever is larger) it checks: the signature; that the stored Merkle tree has the
checkpoint's root at its size (log2 n reads); that the event at that seq is the leaf the
checkpoint signed; and every later event's hash and link to its predecessor, up to the
ledger head. The cost is the events since that checkpoint, which a regular checkpoint
(`tick`, cron) keeps small. Before the first checkpoint it checks the whole chain.
What it does not check (the events before the checkpoint one by one, the projections)
the full `flask verify` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters import invariant_rows, merkle_store
from market.adapters.eventstore import GENESIS_HASH, Event, compute_hash, head, iter_events
from market.domain import merkle
from market.services.kernel.actor import AUDITOR, AUTHORITY, Actor
from market.services.kernel.uow import ReadOnly
from market.services.trust import published
from market.services.trust.checkpoints import REQUEST_BACKLOG, TrustSettings
from market.services.trust.trust_verify import CheckpointReport, published_record

CHECK_BUDGET = 2_000  # published checkpoints compared with the tree in one request
_AGREED: set[tuple[int, bytes]] = set()  # (size, root) found equal to the stored tree


class AnchorShown(TypedDict):
    name: str
    tree_size: int
    root_hash: str


class RecentVerify(TypedDict):
    """The answer of `GET /api/v1/ledger/verify` and the /ledger page's check."""

    mode: str
    events: int
    head_hash: str
    checkpoint: AnchorShown | None
    checkpoints: dict[str, int]
    ok: bool
    first_bad_seq: int | None
    problems: list[str]
    checked_from_seq: int
    checked_events: int
    checked: list[str]


@dataclass(frozen=True)
class ChainStart:
    """Where the chain check begins: the last checkpoint (None before the first), the seq
    and the hash the event there must link to (None: not checked)."""

    anchor: published.Published | None
    start: int
    prev: str | None


def verify_recent(engine: Engine, settings: TrustSettings) -> RecentVerify:
    """Fast: every published checkpoint (files and rows, pinned keys) against the stored
    tree and each other, then the events after the last one against the chain; the full
    check is `flask verify`."""
    report = CheckpointReport()
    with ReadOnly(engine) as conn:
        record = published_record(conn, settings, report)
        anchor = max(record.checkpoints, key=lambda p: p.note.tree_size, default=None)
        head_seq, head_hash = head(conn)
        checkpoints = _check_all(conn, record, head_seq, report)
        chain = _chain_start(anchor, head_seq)
        bad = _first_bad(report, record, head_seq)
        checked = 0
        if bad is None and (anchor is None or anchor.note.tree_size <= head_seq):
            touched: set[str] = set()
            checked, bad, last = _check_chain(conn, chain, report, touched)
            # The projections those events touched must still keep their invariants: a
            # certificate row raised by hand, a listing over the real balance.
            report.problems += [str(b) for b in invariant_rows.breaches(conn, touched)]
            if bad is None and head_seq > 0 and last != head_hash:
                report.problems.append(
                    f"the ledger head does not match the chain at seq {head_seq}"
                )
                bad = head_seq
    return {
        "mode": "incremental",
        "events": head_seq,
        "head_hash": head_hash,
        "checkpoint": None if anchor is None else _anchor_shown(anchor),
        "checkpoints": checkpoints,
        "ok": not report.problems,
        "first_bad_seq": bad,
        "problems": report.problems + report.untrusted,
        "checked_from_seq": chain.start,
        "checked_events": checked,
        "checked": _checked_what(chain),
    }


def _chain_start(anchor: published.Published | None, head_seq: int) -> ChainStart:
    """From the last checkpoint; before the first, the whole chain, or its last
    REQUEST_BACKLOG events (their links to one another) when it is longer than a request
    should read."""
    if anchor is not None:
        return ChainStart(anchor, anchor.note.tree_size, None)
    start = max(1, head_seq - REQUEST_BACKLOG + 1)
    return ChainStart(None, start, GENESIS_HASH if start == 1 else None)


def _anchor_shown(anchor: published.Published) -> AnchorShown:
    return {
        "name": anchor.source,
        "tree_size": anchor.note.tree_size,
        "root_hash": anchor.note.root.hex(),
    }


def _checked_what(chain: ChainStart) -> list[str]:
    if chain.anchor is not None:
        return [
            "every published checkpoint's signature by a trusted key (TRUSTED_LOG_KEYS), "
            "files in CHECKPOINT_DIR and stored rows alike; no two of one size disagree",
            "the stored Merkle tree has each checkpoint's root at its size",
            "the event at the last checkpoint's size is the leaf it signed",
            "every later event's hash and link to its predecessor, up to the head",
            "the invariants of every certificate those events name (conservation, "
            "commitments within the balance)",
        ]
    if chain.start == 1:
        return ["every event's hash and link (no checkpoint yet)"]
    return [
        f"the last {REQUEST_BACKLOG} events' hashes and links only: no checkpoint yet "
        "(run flask --app market checkpoint; flask verify checks everything)"
    ]


def certificates_named(event: Event) -> set[str]:
    """The certificates an event names: its stream's, and any `*certificate_id` field."""
    found = {str(v) for k, v in event.payload.items() if k.endswith("certificate_id") and v}
    if event.stream.startswith("certificate-"):
        found.add(event.stream.removeprefix("certificate-"))
    return found


def _first_bad(report: CheckpointReport, record: published.Record, head_seq: int) -> int | None:
    if not report.problems:
        return None
    sizes = [p.note.tree_size for p in record.checkpoints]
    return min([*sizes, head_seq + 1]) if sizes else head_seq + 1


def _check_all(
    conn: Connection, record: published.Record, head_seq: int, report: CheckpointReport
) -> dict[str, int]:
    """Each published (size, root) against the stored tree: an equal root at every size
    means every pair is consistent. A pair once found equal stays so (both are append-only
    and signed), so each process checks it once; at most CHECK_BUDGET new ones a request."""
    stored = merkle_store.stored_size(conn)
    distinct = {(p.note.tree_size, p.note.root): p for p in record.checkpoints}
    pending = 0
    budget = CHECK_BUDGET
    newest = max((size for size, _ in distinct), default=0)  # never taken from the memo
    for (size, root), p in sorted(distinct.items(), reverse=True):
        if size > head_seq or size > stored:
            report.problems.append(
                f"checkpoint {p.source}: signed a ledger of {size} events; "
                f"the ledger has {head_seq} and its tree {stored}"
            )
        elif (size, root) in _AGREED and size != newest:
            continue
        elif budget == 0:
            pending += 1
        elif merkle_store.stored_root(conn, size) != root:
            budget -= 1
            report.problems.append(
                f"checkpoint {p.source}: the stored Merkle tree has another root at size "
                f"{size} (history was rewritten)"
            )
        else:
            budget -= 1
            _AGREED.add((size, root))
    return {"published": len(record.checkpoints), "distinct": len(distinct), "pending": pending}


def _check_chain(
    conn: Connection, chain: ChainStart, report: CheckpointReport, touched: set[str]
) -> tuple[int, int | None, str | None]:
    """Events from `start` to the head: (how many, first bad seq, the last hash). With an
    anchor, the event at `start` must be the leaf its checkpoint signed."""
    anchor, start, prev = chain.anchor, chain.start, chain.prev
    checked = 0
    for e in iter_events(conn, after=start - 1):
        checked += 1
        touched.update(certificates_named(e))
        if anchor is not None and e.seq == start:
            leaf = merkle_store.NodeReader(conn).run(lambda n: n(0, start - 1))
            if merkle.leaf_hash(bytes.fromhex(e.hash)) != leaf:
                report.problems.append(
                    f"seq {e.seq} is not the event checkpoint {anchor.source} signed"
                )
                return checked, e.seq, prev
        elif e.seq != start + checked - 1 or (prev is not None and e.prev_hash != prev):
            report.problems.append(f"seq {e.seq}: does not follow seq {e.seq - 1}")
            return checked, e.seq, prev
        elif e.hash != compute_hash(
            e.seq, e.stream, e.version, e.type, e.payload, e.actor, e.recorded_at, e.prev_hash
        ):
            report.problems.append(f"seq {e.seq}: hash does not match its contents")
            return checked, e.seq, prev
        prev = e.hash
    return checked, None, prev


def verify_recent_for(engine: Engine, actor: Actor, settings: TrustSettings) -> RecentVerify:
    actor.require(AUTHORITY, AUDITOR)
    return verify_recent(engine, settings)
