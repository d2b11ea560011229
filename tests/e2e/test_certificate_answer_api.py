"""PRODUCT.md 8 over the API, on SQLite and PostgreSQL: the answer to POST /certificates
carries every field GET /certificates/{id} does, with the same values."""

from __future__ import annotations

from typing import Any

from tests.e2e.test_trading_api import Market

M = 100_000_000


def test_the_create_answer_is_the_read(client: Any) -> None:
    m = Market(client)
    for body in (
        {"program": "BRRAG", "face_cents": M, "fiscal_year": 2014, "credit_year": 2014},
        {"program": "DM_CBT", "face_cents": 6 * M, "fiscal_year": 2014, "credit_year": 2014},
    ):
        created = m.issue(**body)
        read = m.cert(created["id"])
        assert created == read
        assert created["usable_through"] is not None  # issue 26: it was null on create
