"""The public price tape (PRODUCT.md 8.3): approved transfers' price per dollar by program,
vintage (the fiscal year of the lineage's original certificate) and calendar quarter of
the approval's exchange date, under the disclosure rules of
`market.domain.rules.price_tape` (whose docstring gives the reasoning)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import TypedDict

from market.adapters.reads import trading as reads
from market.domain.rules import price_tape
from market.services.kernel import clock
from market.services.kernel.reads import Connection

Key = tuple[str, int, str]


class PriceBucket(TypedDict):
    """A published bucket: its trades' count and price per dollar quartiles."""

    program: str
    vintage: int
    quarter: str
    count: int
    median_bps: int
    p25_bps: int
    p75_bps: int


class PriceTape(TypedDict):
    items: list[PriceBucket]
    next: None
    as_of: str
    min_transfers: int
    min_sellers: int


def _trades(conn: Connection, program: str | None) -> dict[Key, list[price_tape.Trade]]:
    buckets: dict[Key, list[price_tape.Trade]] = defaultdict(list)
    for r in reads.approved_trades(conn, program):
        quarter = price_tape.quarter_of(date.fromisoformat(r["exchange_date"]))
        buckets[(r["program"], r["vintage"], quarter)].append(
            price_tape.Trade(r["seller_party_id"], r["amount_cents"], r["consideration_cents"])
        )
    return buckets


def price_tape_rows(
    conn: Connection, program: str | None = None, fiscal_year: int | None = None
) -> PriceTape:
    """Published buckets, ordered by program, vintage and quarter. `fiscal_year` selects
    a vintage; either filter only picks whole buckets, never merges them."""
    today = clock.today()
    items: list[PriceBucket] = []
    for (prog, vintage, quarter), trades in sorted(_trades(conn, program).items()):
        if fiscal_year is not None and vintage != fiscal_year:
            continue
        if not price_tape.is_closed(quarter, today) or not price_tape.publishable(trades):
            continue
        figures = price_tape.bucket_figures(trades)
        items.append(
            {
                "program": prog,
                "vintage": vintage,
                "quarter": quarter,
                "count": figures["count"],
                "median_bps": figures["median_bps"],
                "p25_bps": figures["p25_bps"],
                "p75_bps": figures["p75_bps"],
            }
        )
    return {
        "items": items,
        "next": None,
        "as_of": today.isoformat(),
        "min_transfers": price_tape.MIN_TRANSFERS,
        "min_sellers": price_tape.MIN_SELLERS,
    }
