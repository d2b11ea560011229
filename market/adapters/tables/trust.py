"""Trust: the Merkle tree over the events and the signed checkpoints (PRODUCT.md 8.1).

Neither is a projection: replay never touches them, and both are append-only (triggers
in migration 0007; 0015 for the witnesses' cosignatures); `flask verify` recomputes them
from the events and the checkpoint files outside the database.
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    ForeignKey,
    LargeBinary,
    SmallInteger,
    Text,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class MerkleNode(SQLModel, table=True):
    """Every complete subtree of the tree over the events: level 0 is the leaves
    (leaf `idx` = event `seq = idx + 1`), level L index k covers leaves [k*2^L, (k+1)*2^L)."""

    __tablename__ = "merkle_nodes"
    __table_args__ = (CheckConstraint("level >= 0 AND level < 64 AND idx >= 0", name="slot"),)

    level: int = Field(sa_column=Column(SmallInteger, primary_key=True, autoincrement=False))
    idx: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    hash: bytes = Field(sa_column=Column(LargeBinary(32), nullable=False))


class CheckpointRow(SQLModel, table=True):
    """A signed checkpoint (C2SP tlog-checkpoint note signed with Ed25519)."""

    __tablename__ = "checkpoints"
    __table_args__ = (CheckConstraint("tree_size > 0", name="tree_size"),)

    tree_size: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    root_hash: str = Field(max_length=64)
    timestamp: str = Field(max_length=32)
    key_id: str = Field(max_length=16)
    signature: str = Field(max_length=100)
    note: str = Field(sa_column=Column(Text, nullable=False))


class CosignatureRow(SQLModel, table=True):
    """A witness's cosignature of a checkpoint (C2SP tlog-cosignature, type 0x04), checked
    before it was stored: `signature` is base64(8-byte timestamp || 64-byte Ed25519)."""

    __tablename__ = "cosignatures"
    __table_args__ = (CheckConstraint("timestamp > 0", name="timestamp"),)

    tree_size: int = Field(
        sa_column=Column(
            BigInteger, ForeignKey("checkpoints.tree_size"), primary_key=True, autoincrement=False
        )
    )
    witness: str = Field(primary_key=True, max_length=200)  # the witness's key name
    key_id: str = Field(primary_key=True, max_length=8)
    timestamp: int = Field(sa_column=Column(BigInteger, nullable=False))
    signature: str = Field(max_length=100)
    recorded_at: str = Field(max_length=32)
