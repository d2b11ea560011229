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

import base64
from pathlib import Path
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.engine import Connection

from market.adapters import checkpoint_store, merkle_store
from market.adapters.eventstore import GENESIS_HASH, compute_hash, head, iter_events
from market.domain import merkle
from market.domain.checkpoint_note import NoteError, Signature, parse_signed
from market.services.actor import AUDITOR, AUTHORITY, Actor
from market.services.checkpoints import REQUEST_BACKLOG, TrustSettings, signer
from market.services.trust_verify import CheckpointReport, Trusted, judge
from market.services.uow import ReadOnly


def verify_recent(engine: Engine, settings: TrustSettings) -> dict[str, Any]:
    """Fast: the last trusted checkpoint (file or stored) against the stored tree, and the
    events after it against the chain; the full check is `flask verify`."""
    report = CheckpointReport()
    with ReadOnly(engine) as conn:
        anchor = _latest_trusted(conn, settings, report)
        head_seq, head_hash = head(conn)
        out: dict[str, Any] = {
            "mode": "incremental",
            "events": head_seq,
            "head_hash": head_hash,
            "checkpoint": None,
        }
        # Before the first checkpoint: the whole chain, or its last REQUEST_BACKLOG events
        # (their links to one another) when it is longer than a request should read.
        start = max(1, head_seq - REQUEST_BACKLOG + 1)
        prev: str | None = GENESIS_HASH if start == 1 else None
        bad = None
        if anchor is not None:
            size = anchor.note.tree_size
            out["checkpoint"] = {
                "name": anchor.name,
                "tree_size": size,
                "root_hash": anchor.note.root.hex(),
            }
            bad = _check_anchor(conn, anchor, head_seq, report)
            start, prev = size, None
        checked = 0
        if bad is None:
            checked, bad, last = _check_chain(conn, anchor, start, prev, report)
            if bad is None and head_seq > 0 and last != head_hash:
                report.problems.append(
                    f"the ledger head does not match the chain at seq {head_seq}"
                )
                bad = head_seq
    if anchor is not None:
        checked_what = [
            "the last checkpoint's signature by the ledger key",
            "the stored Merkle tree has the checkpoint's root at its size",
            "the event at the checkpoint's size is the leaf it signed",
            "every later event's hash and link to its predecessor, up to the head",
        ]
    elif start == 1:
        checked_what = ["every event's hash and link (no checkpoint yet)"]
    else:
        checked_what = [
            f"the last {REQUEST_BACKLOG} events' hashes and links only: no checkpoint yet "
            "(run flask --app market checkpoint; flask verify checks everything)"
        ]
    out.update(
        ok=not report.problems,
        first_bad_seq=bad,
        problems=report.problems + report.untrusted,
        checked_from_seq=start,
        checked_events=checked,
        checked=checked_what,
    )
    return out


def _check_chain(
    conn: Connection, anchor: Trusted | None, start: int, prev: str | None, report: CheckpointReport
) -> tuple[int, int | None, str | None]:
    """Events from `start` to the head: (how many, first bad seq, the last hash). With an
    anchor, the event at `start` must be the leaf its checkpoint signed."""
    checked = 0
    for e in iter_events(conn, after=start - 1):
        checked += 1
        if anchor is not None and e.seq == start:
            leaf = merkle_store.NodeReader(conn).run(lambda n: n(0, start - 1))
            if merkle.leaf_hash(bytes.fromhex(e.hash)) != leaf:
                report.problems.append(
                    f"seq {e.seq} is not the event checkpoint {anchor.name} signed"
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


def _latest_trusted(
    conn: Connection, settings: TrustSettings, report: CheckpointReport
) -> Trusted | None:
    """The largest checkpoint we signed: the newest file or the newest stored row."""
    s = signer(settings)
    key = (s.name, s.public_bytes)
    found: list[Trusted] = []
    files = sorted(Path(p) for p, _, _ in checkpoint_store.read_files(settings.checkpoint_dir))
    if files:
        try:
            note, sigs = parse_signed(files[-1].read_text(encoding="utf-8"))
            if (t := judge(str(files[-1]), note, sigs, key, report)) is not None:
                found.append(t)
        except (OSError, UnicodeDecodeError, NoteError) as e:
            report.problems.append(f"checkpoint {files[-1]}: not a valid signed note ({e})")
    row = checkpoint_store.latest(conn)
    if row is not None:
        sig = Signature(s.name, bytes.fromhex(row["key_id"]), base64.b64decode(row["signature"]))
        if t := judge(f"stored checkpoint {row['tree_size']}", row["note"], [sig], key, report):
            found.append(t)
    return max(found, key=lambda t: t.note.tree_size, default=None)


def _check_anchor(
    conn: Connection, anchor: Trusted, head_seq: int, report: CheckpointReport
) -> int | None:
    size = anchor.note.tree_size
    if head_seq < size:
        report.problems.append(
            f"checkpoint {anchor.name}: signed a ledger of {size} events; "
            f"the ledger has only {head_seq}"
        )
        return head_seq + 1
    if (
        merkle_store.stored_size(conn) < size
        or merkle_store.stored_root(conn, size) != anchor.note.root
    ):
        report.problems.append(
            f"checkpoint {anchor.name}: the stored Merkle tree lacks its root at size {size}"
        )
        return size
    return None


def verify_recent_for(engine: Engine, actor: Actor, settings: TrustSettings) -> dict[str, Any]:
    actor.require(AUTHORITY, AUDITOR)
    return verify_recent(engine, settings)
