"""The witnesses' cosignatures, one row per (checkpoint, witness key), append-only."""

from __future__ import annotations

from typing import TypedDict

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, RowMapping

from market.adapters.tables import CosignatureRow

cosignatures_t = CosignatureRow.__table__  # type: ignore[attr-defined]


class StoredCosignature(TypedDict):
    """A row of `cosignatures`: one witness key's cosignature of one checkpoint."""

    tree_size: int
    witness: str
    key_id: str
    timestamp: int
    signature: str
    recorded_at: str


def for_checkpoint(conn: Connection, tree_size: int) -> list[StoredCosignature]:
    return for_checkpoints(conn, [tree_size]).get(tree_size, [])


def for_checkpoints(conn: Connection, sizes: list[int]) -> dict[int, list[StoredCosignature]]:
    """Each checkpoint's cosignatures by witness name (a page of checkpoints at once)."""
    found: dict[int, list[StoredCosignature]] = {}
    for start in range(0, len(sizes), 500):
        stmt = (
            select(cosignatures_t)
            .where(cosignatures_t.c.tree_size.in_(sizes[start : start + 500]))
            .order_by(cosignatures_t.c.witness, cosignatures_t.c.key_id)
        )
        for r in conn.execute(stmt).mappings():
            found.setdefault(int(r["tree_size"]), []).append(_cosignature(r))
    return found


def _cosignature(r: RowMapping) -> StoredCosignature:
    return {
        "tree_size": int(r["tree_size"]),
        "witness": r["witness"],
        "key_id": r["key_id"],
        "timestamp": int(r["timestamp"]),
        "signature": r["signature"],
        "recorded_at": r["recorded_at"],
    }


def last_cosigned_size(conn: Connection, witness: str, key_id: str) -> int:
    """The largest checkpoint this witness key cosigned for us (0: none)."""
    found = conn.execute(
        select(func.max(cosignatures_t.c.tree_size)).where(
            cosignatures_t.c.witness == witness, cosignatures_t.c.key_id == key_id
        )
    ).scalar()
    return int(found or 0)


def insert_new(conn: Connection, row: StoredCosignature) -> bool:
    """Store `row` unless this witness key's cosignature of that checkpoint is stored
    already (the caller holds the trust lock, so the check and the insert are one step)."""
    there = conn.execute(
        select(cosignatures_t.c.tree_size).where(
            cosignatures_t.c.tree_size == row["tree_size"],
            cosignatures_t.c.witness == row["witness"],
            cosignatures_t.c.key_id == row["key_id"],
        )
    ).first()
    if there is not None:
        return False
    conn.execute(cosignatures_t.insert().values(**row))
    return True
