"""`typed_row`: a row read as a TypedDict of its columns, by the record's declared keys."""

from __future__ import annotations

from typing import TypedDict

import pytest

from market.adapters.queries import typed_row


class Sale(TypedDict):
    id: str
    amount_cents: int


def test_a_row_keeps_the_declared_keys_in_order_and_drops_other_columns() -> None:
    found = typed_row(Sale, {"amount_cents": 5, "id": "t1", "_n": 3})
    assert list(found.items()) == [("id", "t1"), ("amount_cents", 5)]


def test_a_row_without_a_required_column_is_refused() -> None:
    with pytest.raises(KeyError, match="amount_cents"):
        typed_row(Sale, {"id": "t1"})
