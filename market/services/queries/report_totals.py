"""The transfers report's totals, kept up to date incrementally instead of summed over
every transfer at each request.

An approved transfer never changes again (no event reopens one), and events commit in
seq order, so the approved transfers' sums by program and month of exchange as of seq
S, plus those decided after S, are the sums now. Each process keeps, per database, the
sums as of some S with the hash of event S; a request adds what was decided since (an
index range on `decided_seq`). If event S no longer has that hash (another ledger at the
same address: a test database, a restore), the sums start again from nothing: the hash
chain makes an equal hash at S mean an equal ledger up to S.
"""

from __future__ import annotations

import threading
from typing import TypedDict

from sqlalchemy import func, select
from sqlalchemy.engine import Connection

from market.adapters.eventstore import head
from market.adapters.tables import EventRow, Transfer

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
events_t = EventRow.__table__  # type: ignore[attr-defined]

Sums = dict[tuple[str, str | None], tuple[int, int, int]]  # count, amount, consideration
_kept: dict[str, tuple[int, str, Sums]] = {}
_lock = threading.Lock()


class MonthlySum(TypedDict):
    """The approved transfers of a program in a month of exchange (None: no date)."""

    program: str
    month: str | None
    transfers: int
    amount_cents: int
    consideration_cents: int


def _decided_between(conn: Connection, after: int, upto: int) -> Sums:
    t = transfers_t
    month = func.substr(t.c.exchange_date, 1, 7)
    rows = conn.execute(
        select(
            t.c.program,
            month,
            func.count(),
            func.sum(t.c.amount_cents),
            func.sum(t.c.consideration_cents),
        )
        .where(t.c.status == "approved", t.c.decided_seq > after, t.c.decided_seq <= upto)
        .group_by(t.c.program, month)
    ).all()
    return {(r[0], r[1]): (int(r[2]), int(r[3] or 0), int(r[4] or 0)) for r in rows}


def _hash_at(conn: Connection, seq: int) -> str | None:
    found = conn.execute(select(events_t.c.hash).where(events_t.c.seq == seq)).scalar()
    return str(found) if found is not None else None


def monthly_sums(conn: Connection) -> list[MonthlySum]:
    """Per program and month of exchange (None when a transfer has no exchange date), the
    approved transfers' count, face and price paid, as of the ledger's head."""
    key = str(conn.engine.url)
    head_seq, head_hash = head(conn)
    with _lock:
        seq, seq_hash, sums = _kept.get(key, (0, "", {}))
    if seq > head_seq or (seq and _hash_at(conn, seq) != seq_hash):
        seq, sums = 0, {}
    merged = dict(sums)
    for slot, (n, amount, paid) in _decided_between(conn, seq, head_seq).items():
        was = merged.get(slot, (0, 0, 0))
        merged[slot] = (was[0] + n, was[1] + amount, was[2] + paid)
    with _lock:
        _kept[key] = (head_seq, head_hash, merged)
    return [
        {
            "program": program,
            "month": month,
            "transfers": n,
            "amount_cents": amount,
            "consideration_cents": paid,
        }
        for (program, month), (n, amount, paid) in sorted(
            merged.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")
        )
    ]


def approved_totals(conn: Connection) -> tuple[int, int]:
    """(face, price paid) of every approved transfer."""
    sums = monthly_sums(conn)
    return sum(s["amount_cents"] for s in sums), sum(s["consideration_cents"] for s in sums)
