"""The anonymised price tape (PRODUCT.md 8.3): price per dollar of credit by program,
vintage and quarter of approval, published only where it cannot single out a deal.

Prices are exact fractions consideration / amount. A bucket's quartiles use linear
interpolation between order statistics (the "type 7" definition of R and NumPy's default:
h = (n - 1) p, x[floor h] + (h - floor h)(x[floor h + 1] - x[floor h])), computed exactly,
then rounded to whole basis points half up (a price of 2/3 is 6667 bps).

Disclosure control, against re-identification by subtraction:
- k-anonymity: a bucket is shown only with >= 3 transfers from >= 2 distinct sellers.
- across buckets: nothing is published that spans buckets (no totals, no sums, no
  means, no program-wide rows), and a filter only selects whole buckets, which are the
  same whatever the filter; so no published figure contains a suppressed bucket and
  there is nothing to subtract a visible bucket from.
- across time: only closed quarters are published (the quarter ended before the business
  date). A bucket appears once with all its transfers, so its growth from 3 to 4 is never
  seen. Quantiles only (no sums) are published, so even a change would not give a price
  by difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction

from market.domain.values import round_half_up

MIN_TRANSFERS = 3
MIN_SELLERS = 2


def quarter_of(day: date) -> str:
    return f"{day.year:04d}Q{(day.month - 1) // 3 + 1}"


def quarter_end(quarter: str) -> date:
    year, q = int(quarter[:4]), int(quarter[5:])
    if q == 4:
        return date(year, 12, 31)
    return date(year, 3 * q + 1, 1) - timedelta(days=1)


def is_closed(quarter: str, today: date) -> bool:
    return quarter_end(quarter) < today


def quantile(ordered: Sequence[Fraction], p: Fraction) -> Fraction:
    """Type-7 quantile of an ascending, non-empty sequence, exactly."""
    h = (len(ordered) - 1) * p
    lo = int(h)  # h >= 0, so this is the floor
    if lo + 1 >= len(ordered):
        return ordered[-1]
    return ordered[lo] + (h - lo) * (ordered[lo + 1] - ordered[lo])


def to_bps(price: Fraction) -> int:
    return round_half_up(price * 10_000)


@dataclass(frozen=True)
class Trade:
    seller_party_id: str
    amount_cents: int
    consideration_cents: int

    @property
    def price(self) -> Fraction:
        return Fraction(self.consideration_cents, self.amount_cents)


def publishable(trades: Sequence[Trade]) -> bool:
    sellers = {t.seller_party_id for t in trades}
    return len(trades) >= MIN_TRANSFERS and len(sellers) >= MIN_SELLERS


def bucket_figures(trades: Sequence[Trade]) -> dict[str, int]:
    ordered = sorted(t.price for t in trades)
    return {
        "count": len(ordered),
        "median_bps": to_bps(quantile(ordered, Fraction(1, 2))),
        "p25_bps": to_bps(quantile(ordered, Fraction(1, 4))),
        "p75_bps": to_bps(quantile(ordered, Fraction(3, 4))),
    }
