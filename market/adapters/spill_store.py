"""A projection `Store` for replay and verify whose rows live in a temporary SQLite file,
with the most recently used rows in memory: folding a ledger of any size takes memory
bounded by the cache, not by the number of rows the projections hold.

Rows are the plain values the projection handlers write (str, int, bool, None, and the
lists and dicts of JSON columns), kept with `pickle` (a file this process wrote and alone reads).
Each row also keeps the seq of the event that last wrote it, as `MemoryStore` does.
"""

from __future__ import annotations

import os
import pickle
import sqlite3
import tempfile
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from market.adapters.projections.store import primary_key, projection_table, row_defaults
from market.adapters.tables import PROJECTION_TABLES

Row = dict[str, Any]
Slot = tuple[str, str]


class SpillStore:
    """get/insert/update/rows like `MemoryStore`; `iter_rows`, `rows_for`, `count` and
    `last_seq_of` for replay and verify. Close it (or use it as a context manager) to
    remove the file."""

    def __init__(self, cache_rows: int = 20_000, directory: str | None = None) -> None:
        fd, self.path = tempfile.mkstemp(prefix="market-fold-", suffix=".sqlite", dir=directory)
        os.close(fd)
        self._db = sqlite3.connect(self.path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=OFF")
        self._db.execute("PRAGMA synchronous=OFF")
        self._db.execute("PRAGMA cache_size=-16000")  # 16 MB of pages
        self._db.execute(
            "CREATE TABLE rows (tbl TEXT NOT NULL, key TEXT NOT NULL, seq INTEGER NOT NULL,"
            " ord INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID"
        )
        self._db.execute("CREATE INDEX rows_by_ord ON rows (tbl, ord)")
        self._db.execute("BEGIN")
        # slot -> [row, last seq, insertion number]; least recently used first
        self._dirty: set[Slot] = set()  # cached rows the file does not have as they are
        self._cache: OrderedDict[Slot, list[Any]] = OrderedDict()
        self._cache_rows = cache_rows
        self._pks = {name: primary_key(projection_table(name)) for name in PROJECTION_TABLES}
        self.seq = 0
        self._inserted = 0

    def __enter__(self) -> SpillStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()
        if os.path.exists(self.path):
            os.remove(self.path)

    # ---- the Store protocol ------------------------------------------------------------

    def get(self, table: str, key: str) -> Row | None:
        entry = self._entry(table, key)
        return dict(entry[0]) if entry is not None else None

    def insert(self, table: str, row: Row) -> None:
        key = row[self._pks[table]]
        if self._entry(table, key) is not None:
            raise KeyError(f"{table} {key} already exists")
        self._inserted += 1
        slot = (table, key)
        self._put(slot, [dict(row_defaults(table) | row), self.seq, self._inserted])
        self._dirty.add(slot)

    def update(self, table: str, key: str, changes: Row) -> None:
        entry = self._entry(table, key)
        if entry is None:
            raise LookupError(f"{table} {key} does not exist")
        entry[0].update(changes)
        entry[1] = self.seq
        self._dirty.add((table, key))

    def rows(self, table: str, **where: Any) -> list[Row]:
        return [r for r in self.iter_rows(table) if all(r.get(c) == v for c, v in where.items())]

    # ---- reading the folded state back ---------------------------------------------------

    def iter_rows(self, table: str, batch: int = 1000) -> Iterator[Row]:
        """Every row of `table` in the order inserted (parents before the rows naming
        them, as foreign keys need), `batch` at a time."""
        self.flush()
        last = 0
        while True:
            found = self._db.execute(
                "SELECT ord, body FROM rows WHERE tbl = ? AND ord > ? ORDER BY ord LIMIT ?",
                (table, last, batch),
            ).fetchall()
            for _ord, body in found:
                yield pickle.loads(body)
            if len(found) < batch:
                return
            last = found[-1][0]

    def iter_keys(self, table: str, batch: int = 1000) -> Iterator[list[str]]:
        """The keys of `table` in key order, a batch at a time."""
        self.flush()
        last = ""
        while True:
            found = [
                k
                for (k,) in self._db.execute(
                    "SELECT key FROM rows WHERE tbl = ? AND key > ? ORDER BY key LIMIT ?",
                    (table, last, batch),
                )
            ]
            if found:
                yield found
            if len(found) < batch:
                return
            last = found[-1]

    def rows_for(self, table: str, keys: Iterable[str]) -> dict[str, Row]:
        self.flush()
        wanted = list(keys)
        marks = ",".join("?" * len(wanted))
        found = self._db.execute(
            f"SELECT key, body FROM rows WHERE tbl = ? AND key IN ({marks})",
            (table, *wanted),
        )
        return {k: pickle.loads(body) for k, body in found}

    def count(self, table: str) -> int:
        self.flush()
        found = self._db.execute("SELECT count(*) FROM rows WHERE tbl = ?", (table,)).fetchone()
        return int(found[0])

    def last_seq_of(self, table: str, key: str) -> int | None:
        entry = self._entry(table, key)
        return int(entry[1]) if entry is not None else None

    # ---- the cache -------------------------------------------------------------------------

    def _entry(self, table: str, key: str) -> list[Any] | None:
        slot = (table, key)
        entry = self._cache.get(slot)
        if entry is not None:
            self._cache.move_to_end(slot)
            return entry
        found = self._db.execute(
            "SELECT seq, ord, body FROM rows WHERE tbl = ? AND key = ?", (table, key)
        ).fetchone()
        if found is None:
            return None
        entry = [pickle.loads(found[2]), found[0], found[1]]
        self._put(slot, entry)
        return entry

    def _put(self, slot: Slot, entry: list[Any]) -> None:
        self._cache[slot] = entry
        self._cache.move_to_end(slot)
        if len(self._cache) > self._cache_rows:
            self._evict(len(self._cache) - self._cache_rows // 2)

    def _evict(self, n: int) -> None:
        dirty = []
        for _ in range(n):
            slot, (row, seq, ord_) = self._cache.popitem(last=False)
            if slot in self._dirty:
                self._dirty.discard(slot)
                body = pickle.dumps(row, pickle.HIGHEST_PROTOCOL)
                dirty.append((slot[0], slot[1], seq, ord_, body))
        self._write(dirty)

    def _write(self, rows: list[tuple[str, str, int, int, bytes]]) -> None:
        if rows:
            self._db.executemany(
                "INSERT INTO rows (tbl, key, seq, ord, body) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (tbl, key) DO UPDATE SET seq = excluded.seq, body = excluded.body",
                rows,
            )

    def flush(self) -> None:
        """Write every changed row to the file (the cache keeps them)."""
        dirty = []
        for slot in self._dirty:
            row, seq, ord_ = self._cache[slot]
            dirty.append((slot[0], slot[1], seq, ord_, pickle.dumps(row, pickle.HIGHEST_PROTOCOL)))
        self._dirty.clear()
        self._write(dirty)
