"""Updates a unit of work holds back until something could read them (issue 25, item 3).

A projection handler updates a row the unit of work holds (it read it under the ledger
head, or inserted it) by changing the held copy; the database gets the change later, one
`UPDATE` a row whatever number of handlers changed it: an approval changes the seller's
certificate twice (its balance, then its count of derived certificates) and sent two.
The changes are written, in the order the rows were first changed:

- before any statement that reads projection rows (the store's `get` and `rows`, a
  repository's SQL, anyone taking the unit of work's connection);
- before an insert into the same table, when a held-back change touches a column of one
  of its unique keys (a row leaving a partial unique index must leave it before another
  row enters it);
- at commit, before the events: on PostgreSQL inside the one statement that writes them
  (market/adapters/append_statement.py).

Nothing else reads the database inside a write transaction, and the head lock keeps
every other writer out, so a change held back is seen by everything that could see it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Index, Table, UniqueConstraint

Row = dict[str, Any]


@cache
def unique_columns(table: Table) -> frozenset[str]:
    """The columns of the table's unique keys other than its primary key; every column,
    if one is a partial index (its predicate may read any column)."""
    found: set[str] = set()
    keys: list[Any] = [c for c in table.constraints if isinstance(c, UniqueConstraint)]
    keys += [i for i in table.indexes if isinstance(i, Index) and i.unique]
    for key in keys:
        dialects = getattr(key, "dialect_options", {})
        partial = any(dialects[d].get("where") is not None for d in ("sqlite", "postgresql"))
        if partial:
            return frozenset(c.name for c in table.columns)
        found.update(c.name for c in key.columns)
    found.update(c.name for c in table.columns if c.unique)
    return frozenset(found)


class PendingUpdates:
    """The changes held back, by (table, key), each row's changes merged in order."""

    def __init__(self) -> None:
        self._rows: dict[tuple[str, str], Row] = {}

    def __bool__(self) -> bool:
        return bool(self._rows)

    def add(self, table: str, key: str, changes: Row) -> None:
        self._rows.setdefault((table, key), {}).update(changes)

    def blocks_insert(self, table: Table) -> bool:
        """Whether a change held back on `table` touches one of its unique keys."""
        unique = unique_columns(table)
        return any(
            name == table.name and not unique.isdisjoint(changes)
            for (name, _), changes in self._rows.items()
        )

    def peek(self) -> list[tuple[str, str, Row]]:
        """Every change held back, oldest row first."""
        return [(table, key, dict(changes)) for (table, key), changes in self._rows.items()]

    def take(self) -> list[tuple[str, str, Row]]:
        """Every change held back, oldest row first; none is held back after."""
        rows, self._rows = self._rows, {}
        return [(table, key, changes) for (table, key), changes in rows.items()]
