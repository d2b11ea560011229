"""The Merkle tree over the events, kept as its complete subtrees (`merkle_nodes`).

The tree is extended from its last stored leaf: each new event adds its leaf and the
complete subtrees it finishes (`merkle.Frontier`), about two rows per event, so the cost
of bringing the tree up to date depends only on the events since the last time. Before
a leaf is added its event is checked against what the tree already holds: the event at
the tree's last leaf still has the hash that leaf was made from, and every new event's
`prev_hash` and `hash` follow from it. A ledger rewritten or cut under the tree is refused
(`TreeContradiction`), so nothing is ever signed over it.

Extenders are serialised (an advisory lock on PostgreSQL, BEGIN IMMEDIATE on SQLite).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from sqlalchemy import Engine, and_, func, or_, select, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from market.adapters.db import WRITE_OPTION, is_sqlite
from market.adapters.eventstore import GENESIS_HASH, compute_hash, head, iter_events
from market.adapters.tables import MerkleNode
from market.domain import merkle

nodes_t = MerkleNode.__table__  # type: ignore[attr-defined]
_TRUST_LOCK = 0x4E4A_0007
T = TypeVar("T")


class TreeContradiction(Exception):
    def __init__(self, seq: int, message: str) -> None:
        super().__init__(message)
        self.seq = seq


@contextmanager
def trust_transaction(engine: Engine) -> Iterator[Connection]:
    """A write transaction that only one extender (or checkpoint maker) holds at a time."""
    with engine.connect() as conn:
        if is_sqlite(conn):
            conn = conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            if not is_sqlite(conn):
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _TRUST_LOCK})
            yield conn


def stored_size(conn: Connection) -> int:
    """Leaves stored for events that exist: a row past the ledger head (written by hand;
    the service only adds leaves for events it has read) is not part of the tree."""
    head_seq = head(conn)[0]
    last = conn.execute(
        select(func.max(nodes_t.c.idx)).where(nodes_t.c.level == 0, nodes_t.c.idx < head_seq)
    ).scalar()
    return 0 if last is None else int(last) + 1


def _insert(conn: Connection, rows: list[dict[str, object]]) -> None:
    try:
        with conn.begin_nested():
            conn.execute(nodes_t.insert(), rows)
    except IntegrityError as e:
        first = rows[0]
        raise TreeContradiction(
            int(str(first["idx"])) + 1,
            "merkle_nodes already holds a subtree the tree had not reached (a row written "
            f"by hand, near level {first['level']} index {first['idx']}); the schema owner "
            "must remove it",
        ) from e


class NodeReader:
    """`merkle.Nodes` over the table, one query per proof: `run` first asks the function
    which subtrees it needs (with placeholder hashes), fetches them together, then runs it."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.cache: dict[tuple[int, int], bytes] = {}

    def __call__(self, level: int, index: int) -> bytes:
        return self.cache[level, index]

    def run(self, fn: Callable[[merkle.Nodes], T]) -> T:
        wanted: list[tuple[int, int]] = []

        def record(level: int, index: int) -> bytes:
            wanted.append((level, index))
            return b"\x00" * 32

        fn(record)
        self.fetch(wanted)
        return fn(self)

    def fetch(self, slots: list[tuple[int, int]]) -> None:
        missing = sorted({s for s in slots if s not in self.cache})
        # `(level = ? AND idx = ?) OR ...`: one primary-key lookup per slot on both
        # databases (SQLite scans the table for a row-value IN).
        for start in range(0, len(missing), 100):
            part = missing[start : start + 100]
            rows = self.conn.execute(
                select(nodes_t.c.level, nodes_t.c.idx, nodes_t.c.hash).where(
                    or_(*(and_(nodes_t.c.level == lv, nodes_t.c.idx == ix) for lv, ix in part))
                )
            )
            for r in rows:
                self.cache[r.level, r.idx] = bytes(r.hash)
        absent = [s for s in missing if s not in self.cache]
        if absent:
            raise LookupError(f"merkle_nodes lacks the subtrees {absent[:5]}")


def stored_root(conn: Connection, size: int) -> bytes:
    return NodeReader(conn).run(lambda nodes: merkle.root(nodes, size))


def extend(conn: Connection, upto: int | None = None, limit: int | None = None) -> int:
    """Add the leaves for events after the stored tree, up to `upto` (default: the ledger
    head), at most `limit` of them; returns the new size. Raises TreeContradiction."""
    size = stored_size(conn)
    head_seq, _ = head(conn)
    target = head_seq if upto is None else upto
    if head_seq < size:
        raise TreeContradiction(
            head_seq + 1, f"the ledger ends at seq {head_seq} but the tree holds {size} events"
        )
    if limit is not None:
        target = min(target, size + limit)
    reader = NodeReader(conn)
    reader.fetch([*merkle.frontier_slots(size), *([(0, size - 1)] if size else [])])
    target = max(target, size)  # with nothing new, the last leaf is still checked
    frontier = merkle.Frontier.load(size, reader)
    prev = GENESIS_HASH
    rows: list[dict[str, object]] = []
    expected = max(size, 1)
    for e in iter_events(conn, after=max(size - 1, 0)):
        if e.seq > target:
            break
        if e.seq != expected:
            raise TreeContradiction(expected, f"seq {expected} is missing (next is {e.seq})")
        expected += 1
        digest = bytes.fromhex(e.hash)
        if e.seq == size:  # the last leaf already in the tree
            if merkle.leaf_hash(digest) != reader(0, size - 1):
                raise TreeContradiction(
                    e.seq, f"seq {e.seq} is not the event the Merkle tree holds at that leaf"
                )
            prev = e.hash
            continue
        if e.prev_hash != prev:
            raise TreeContradiction(e.seq, f"seq {e.seq}: prev_hash does not match seq {e.seq - 1}")
        if (
            compute_hash(
                e.seq, e.stream, e.version, e.type, e.payload, e.actor, e.recorded_at, e.prev_hash
            )
            != e.hash
        ):
            raise TreeContradiction(e.seq, f"seq {e.seq}: hash does not match its contents")
        prev = e.hash
        for level, index, h in frontier.append(merkle.leaf_hash(digest)):
            rows.append({"level": level, "idx": index, "hash": h})
        if len(rows) >= 5000:
            _insert(conn, rows)
            rows = []
    if rows:
        _insert(conn, rows)
    if frontier.size != target:
        raise TreeContradiction(
            frontier.size + 1, f"the ledger has events only to seq {frontier.size}, not {target}"
        )
    return frontier.size


def extend_all(engine: Engine, chunk: int = 5_000) -> int:
    """Bring the stored tree up to the ledger head, `chunk` leaves per transaction (a first
    build over a large ledger never holds the lock for long)."""
    while True:
        with trust_transaction(engine) as conn:
            before = stored_size(conn)
            size = extend(conn, limit=chunk)
            if size - before < chunk:
                return size
