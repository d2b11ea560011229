"""The public price tape (PRODUCT.md 8.3): approved transfers' price per dollar by program,
vintage (the fiscal year of the lineage's original certificate) and calendar quarter of
the approval's exchange date, under the disclosure rules of
`market.domain.rules.price_tape` (whose docstring gives the reasoning)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased

from market.adapters.tables import Certificate, Transfer
from market.domain.rules import price_tape
from market.services.kernel import clock

transfers_t = Transfer.__table__  # type: ignore[attr-defined]
certs_t = Certificate.__table__  # type: ignore[attr-defined]

Key = tuple[str, int, str]


def _trades(conn: Connection, program: str | None) -> dict[Key, list[price_tape.Trade]]:
    seller_cert = aliased(certs_t)
    root = aliased(certs_t)
    stmt = (
        select(
            transfers_t.c.program,
            root.c.fiscal_year.label("vintage"),
            transfers_t.c.exchange_date,
            transfers_t.c.seller_party_id,
            transfers_t.c.amount_cents,
            transfers_t.c.consideration_cents,
        )
        .select_from(
            transfers_t.join(seller_cert, seller_cert.c.id == transfers_t.c.certificate_id).join(
                root, root.c.id == seller_cert.c.root_id
            )
        )
        .where(transfers_t.c.status == "approved", transfers_t.c.exchange_date.is_not(None))
    )
    if program:
        stmt = stmt.where(transfers_t.c.program == program)
    buckets: dict[Key, list[price_tape.Trade]] = defaultdict(list)
    for r in conn.execute(stmt):
        quarter = price_tape.quarter_of(date.fromisoformat(r.exchange_date))
        buckets[(r.program, int(r.vintage), quarter)].append(
            price_tape.Trade(r.seller_party_id, int(r.amount_cents), int(r.consideration_cents))
        )
    return buckets


def price_tape_rows(
    conn: Connection, program: str | None = None, fiscal_year: int | None = None
) -> dict[str, Any]:
    """Published buckets, ordered by program, vintage and quarter. `fiscal_year` selects
    a vintage; either filter only picks whole buckets, never merges them."""
    today = clock.today()
    items = []
    for (prog, vintage, quarter), trades in sorted(_trades(conn, program).items()):
        if fiscal_year is not None and vintage != fiscal_year:
            continue
        if not price_tape.is_closed(quarter, today) or not price_tape.publishable(trades):
            continue
        items.append(
            {"program": prog, "vintage": vintage, "quarter": quarter}
            | price_tape.bucket_figures(trades)
        )
    return {
        "items": items,
        "next": None,
        "as_of": today.isoformat(),
        "min_transfers": price_tape.MIN_TRANSFERS,
        "min_sellers": price_tape.MIN_SELLERS,
    }
