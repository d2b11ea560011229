"""Party rows a process keeps between its write transactions (issue 25, the statement diet).

A write transaction reads the party epoch with the ledger head it locks, in the statement
it sends anyway (market/adapters/eventstore.py; on PostgreSQL that statement also locks
the epoch's row FOR SHARE, so the value read is the one committed when the lock was
granted, and no party can change until the write commits). The database moves the epoch
forward whenever a `parties` row is inserted, changed or deleted, by hand too (migration
0025), so while the epoch a write reads equals the one a row was kept at, the kept row is
the row, and the write needs no statement to read it.

Who keeps and who uses (market/adapters/projections/store.py, `DbStore`):
- a row is kept only as read from the database under the head lock, at the epoch that
  lock read;
- once a write transaction has written a party, nothing more in it is kept or used (its
  change moves the epoch only when it commits: until then the old epoch would vouch for
  rows the transaction itself changed, and a rollback would leave them kept).
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict

from sqlalchemy import Engine

from market.adapters.projections.store import Row

KEPT_TABLE = "parties"


class KeptRows:
    """Rows of one table by primary key, all read at one epoch; at most `size`, the least
    recently used dropped first. Thread-safe: one per engine per process."""

    def __init__(self, table: str = KEPT_TABLE, size: int = 10_000) -> None:
        self.table = table
        self.size = size
        self._lock = threading.Lock()
        self._epoch: int | None = None
        self._rows: OrderedDict[str, Row] = OrderedDict()

    def get(self, epoch: int, key: str) -> Row | None:
        """A copy of the row kept at `epoch`, or None."""
        with self._lock:
            if epoch != self._epoch:
                return None
            row = self._rows.get(key)
            if row is None:
                return None
            self._rows.move_to_end(key)
            return dict(row)

    def keep(self, epoch: int, key: str, row: Row) -> None:
        """Keep a copy of `row`, read at `epoch`; rows kept at another epoch are dropped."""
        with self._lock:
            if epoch != self._epoch:
                # Write transactions hold the head one at a time, so this is the newest
                # epoch (a lower one only after the database was replaced): start over.
                self._epoch = epoch
                self._rows.clear()
            self._rows[key] = dict(row)
            self._rows.move_to_end(key)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)


_BY_ENGINE: weakref.WeakKeyDictionary[Engine, KeptRows] = weakref.WeakKeyDictionary()
_GUARD = threading.Lock()


def kept_parties(engine: Engine) -> KeptRows:
    """The party rows this process keeps for `engine`'s database."""
    with _GUARD:
        kept = _BY_ENGINE.get(engine)
        if kept is None:
            kept = _BY_ENGINE[engine] = KeptRows()
        return kept
