"""Keyset pages: fetch `limit + 1` rows, keep `limit`, and the cursor of the last one kept
is `next` only when a further row exists."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")
C = TypeVar("C")


def split_page(rows: Sequence[T], limit: int, cursor: Callable[[T], C]) -> tuple[list[T], C | None]:
    kept = list(rows[:limit])
    more = len(rows) > limit
    return kept, (cursor(kept[-1]) if more and kept else None)
