"""Pages of a list. Keyset pages: fetch `limit + 1` rows, keep `limit`, and the cursor of
the last one kept is `next` only when a further row exists. Numbered pages: a count, then
the one page asked for (clamped to the pages there are), both in SQL."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Select, func, select
from sqlalchemy.engine import Connection

T = TypeVar("T")
C = TypeVar("C")


@dataclass(frozen=True)
class Page:
    """A keyset page asked for: the rows after cursor `after`, `limit` of them."""

    after: int | None
    limit: int


def split_page(rows: Sequence[T], limit: int, cursor: Callable[[T], C]) -> tuple[list[T], C | None]:
    kept = list(rows[:limit])
    more = len(rows) > limit
    return kept, (cursor(kept[-1]) if more and kept else None)


def numbered_page(
    conn: Connection, stmt: Select[Any], order: Sequence[Any], page: int, per_page: int
) -> tuple[list[dict[str, Any]], int, int, int]:
    """(rows of page `page`, rows in all, the page given, pages in all) of `stmt` in
    `order`; a page past the last gives the last."""
    total = int(conn.execute(select(func.count()).select_from(stmt.subquery())).scalar() or 0)
    pages = max(1, -(-total // per_page))
    page = max(1, min(page, pages))
    rows = conn.execute(stmt.order_by(*order).offset((page - 1) * per_page).limit(per_page))
    return [dict(r) for r in rows.mappings()], total, page, pages
