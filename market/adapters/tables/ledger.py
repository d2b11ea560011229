"""The ledger itself: the hash-chained events and the one head row writers lock.

Written directly, never rebuilt: everything else is derived from `events`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    String,
    UniqueConstraint,
)
from sqlmodel import Field

from market.adapters.tables.base import SQLModel


class EventRow(SQLModel, table=True):
    __tablename__ = "events"
    __table_args__ = (UniqueConstraint("stream", "version", name="stream_version"),)

    seq: int = Field(sa_column=Column(BigInteger, primary_key=True, autoincrement=False))
    stream: str = Field(max_length=120)  # stream_version leads with it (0026)
    version: int
    type: str = Field(max_length=64)
    payload: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    actor: str = Field(max_length=120)
    recorded_at: str = Field(max_length=32)
    prev_hash: str = Field(max_length=64)
    hash: str = Field(sa_column=Column(String(64), nullable=False, unique=True))


class LedgerHead(SQLModel, table=True):
    """One row: the last seq and hash. Writers lock it, which orders commits by seq."""

    __tablename__ = "ledger_head"
    __table_args__ = (CheckConstraint("id = 1", name="single_row"),)

    id: int = Field(primary_key=True)
    seq: int = Field(sa_column=Column(BigInteger, nullable=False))
    hash: str = Field(max_length=64)
