"""Server-drawn SVG bar charts for the statutory report pages (PRODUCT.md 9.2): plain
SVG, no script, named for assistive technology by its <title> and <desc> (which states
every figure), always printed beside a table with the exact figures. Bars are sized by
exact fractions of the largest value; the drawing is display only."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import count

from markupsafe import Markup, escape

from market.domain.values import format_cents

WIDTH = 640
BAR = 22
GAP = 8
LABEL = 200
VALUE = 130
TOP = 34
_ids = count(1)


def bars(title: str, rows: Sequence[tuple[str, int]], unit: str = "cents") -> Markup:
    """One horizontal bar per (label, value); `unit` "cents" shows dollars, else counts."""
    n = next(_ids)
    shown = [(str(label), int(value)) for label, value in rows]

    def text(value: int) -> str:
        return format_cents(value) if unit == "cents" else f"{value:,}"

    desc = "; ".join(f"{label}: {text(v)}" for label, v in shown) or "No figures for this year."
    height = TOP + max(1, len(shown)) * (BAR + GAP) + GAP
    largest = max((v for _, v in shown), default=0)
    span = WIDTH - LABEL - VALUE
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" class="statutory-chart" '
        f'viewBox="0 0 {WIDTH} {height}" width="100%" '
        f'aria-labelledby="chart{n}-title chart{n}-desc">',
        f'<title id="chart{n}-title">{escape(title)}</title>',
        f'<desc id="chart{n}-desc">{escape(desc)}</desc>',
        f'<text x="0" y="20" font-size="15" font-weight="600" fill="#1d2430">'
        f"{escape(title)}</text>",
    ]
    if not shown:
        parts.append(f'<text x="0" y="{TOP + 16}" font-size="13" fill="#5b6675">No figures.</text>')
    for i, (label, value) in enumerate(shown):
        y = TOP + i * (BAR + GAP)
        length = int(Fraction(value, largest) * span) if largest else 0
        parts.append(
            f'<text x="{LABEL - 8}" y="{y + BAR - 6}" font-size="13" text-anchor="end" '
            f'fill="#1d2430">{escape(label[:28])}</text>'
            f'<rect x="{LABEL}" y="{y}" width="{max(length, 1)}" height="{BAR}" fill="#0b5cad"/>'
            f'<text x="{LABEL + max(length, 1) + 6}" y="{y + BAR - 6}" font-size="13" '
            f'fill="#1d2430">{escape(text(value))}</text>'
        )
    parts.append("</svg>")
    return Markup("".join(parts))
