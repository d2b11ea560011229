"""Shared arithmetic of the statutory reports (PRODUCT.md 9.2): price figures under the
price tape's disclosure thresholds, exact means, groupings by industry and size."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from datetime import date
from fractions import Fraction
from typing import Any, TypeVar

from market.domain.rules import price_tape
from market.domain.rules.records import employees_in, sector_of, size_class
from market.domain.rules.statutory_ledger import PartyFacts, StatutoryLedger, TransferFacts
from market.domain.values import fiscal_year

T = TypeVar("T")


def approved_in(state: StatutoryLedger, fy: int, programs: Iterable[str]) -> list[TransferFacts]:
    """Approved transfers of `programs` whose exchange date falls in State FY `fy`."""
    wanted = set(programs)
    return [
        t
        for t in state.transfers.values()
        if t.exchange_date is not None
        and t.program in wanted
        and fiscal_year(date.fromisoformat(t.exchange_date)) == fy
    ]


def prices(transfers: list[TransferFacts]) -> dict[str, Any]:
    """Price per dollar of credit (basis points): published only when the price tape
    would publish the bucket (at least MIN_TRANSFERS transfers by MIN_SELLERS sellers),
    so no single seller's price can be read off a public report."""
    trades = [
        price_tape.Trade(t.seller_party_id, t.amount_cents, t.consideration_cents)
        for t in transfers
    ]
    base: dict[str, Any] = {
        "transfers": len(trades),
        "sellers": len({t.seller_party_id for t in trades}),
        "min_transfers": price_tape.MIN_TRANSFERS,
        "min_sellers": price_tape.MIN_SELLERS,
    }
    if not trades or not price_tape.publishable(trades):
        return base | {"published": False, "figures": None}
    return base | {"published": True, "figures": price_tape.bucket_figures(trades)}


def exact_mean(total_cents: int, count: int) -> dict[str, Any] | None:
    """total / count: exact as a fraction, and in whole cents (half to even)."""
    if count == 0:
        return None
    mean = Fraction(total_cents, count)
    return {"cents": round(mean), "exact": f"{mean.numerator}/{mean.denominator}"}


def party_sector(state: StatutoryLedger, party_id: str) -> str:
    p = state.parties.get(party_id)
    return sector_of(p.naics_code if p else None)


def party_size(state: StatutoryLedger, party_id: str, fy: int) -> str:
    p: PartyFacts | None = state.parties.get(party_id)
    if p is None:
        return size_class(None)
    count = employees_in(p.employees, fy)
    return size_class(count if count is not None else p.nj_full_time_employees)


def grouped(
    items: Iterable[T], key: Callable[[T], str], cents: Mapping[str, Callable[[T], int]]
) -> list[dict[str, Any]]:
    """Rows per key: a count and each named sum, ordered by key."""
    rows: dict[str, dict[str, Any]] = defaultdict(lambda: {"count": 0} | dict.fromkeys(cents, 0))
    for item in items:
        row = rows[key(item)]
        row["count"] += 1
        for name, value in cents.items():
            row[name] += value(item)
    return [{"key": k} | rows[k] for k in sorted(rows)]
