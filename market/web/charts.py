"""Server-side SVG charts (pygal), always shown beside a table with the same figures."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import pygal
from markupsafe import Markup, escape
from pygal.style import Style

STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#1d2430",
    foreground_strong="#1d2430",
    foreground_subtle="#5b6675",
    colors=("#0b5cad", "#e0a100", "#1b7f3b", "#b3261e", "#6c4ab6", "#5b6675"),
    font_family="system-ui, sans-serif",
)


# used, remaining (a quiet grey: it is room, not a quantity to compare), queued
CAP_STYLE = Style(
    background="white",
    plot_background="white",
    foreground="#1d2430",
    foreground_strong="#1d2430",
    foreground_subtle="#5b6675",
    colors=("#0b5cad", "#cfd8e3", "#e0a100"),
    font_family="system-ui, sans-serif",
)

_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)


def _render(chart: pygal.Graph, alt: str) -> Markup:
    """Plain SVG, one image to assistive technology (role="img") named by `alt`, the
    chart's text alternative; the table beside every chart has the exact figures."""
    chart.config.disable_xml_declaration = True
    chart.config.js = []
    # pygal embeds its tooltip config as a script; pages stay script-free plain SVG.
    svg = _SCRIPT.sub("", chart.render(is_unicode=True))
    label = str(escape(alt))
    return Markup(svg.replace("<svg", f'<svg role="img" aria-label="{label}"', 1))


def stacked_dollars(
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[int]],
    height: int | None = None,
    alt: str | None = None,
) -> Markup:
    """Horizontal stacked bars; values are cents, shown in dollars."""
    chart = pygal.HorizontalStackedBar(
        style=STYLE,
        height=height or 60 + 40 * max(1, len(labels)),
        width=900,
        legend_at_bottom=True,
        value_formatter=lambda v: f"${v:,.0f}",
        title=title,
        print_values=False,
    )
    chart.x_labels = list(labels)
    for name, cents in series.items():
        chart.add(name, [c / 100 for c in cents])  # display only: the table has exact cents
    return _render(chart, alt or f"{title}; the table below gives the figures.")


def percent(part: int, whole: int) -> float:
    """Display only (a bar's length): the exact share is in the table."""
    return float(Fraction(part * 100, whole)) if whole else 0.0


def cap_shares(title: str, rows: Sequence[Mapping[str, Any]], names: Mapping[str, str]) -> Markup:
    """One bar per cap or pool, as a percentage of that cap (so a $20 million cap and a
    $1.75 billion one read alike): used, remaining, and what waits for a later year."""
    rows = list(reversed(rows))  # pygal draws the first bar at the bottom; read top down
    labels = [names.get(str(r["program"]), str(r["program"])) for r in rows]
    series = {
        "used": [percent(int(r["used_cents"]), int(r["cap_cents"])) for r in rows],
        "remaining": [percent(int(r["remaining_cents"]), int(r["cap_cents"])) for r in rows],
        "queued for a later year": [
            percent(int(r["queued_cents"]), int(r["cap_cents"])) for r in rows
        ],
    }
    chart = pygal.HorizontalStackedBar(
        style=CAP_STYLE,
        height=90 + 46 * max(1, len(labels)),
        width=900,
        legend_at_bottom=True,
        value_formatter=lambda v: f"{v:.1f}%",
        title=title,
        truncate_label=-1,
        margin_left=20,
        range=(0, max(100.0, *(u + q + r for u, q, r in zip(*series.values(), strict=True)))),
    )
    chart.x_labels = labels
    for name, values in series.items():
        chart.add(name, values)
    used = "; ".join(
        f"{label} {value:.1f}% used"
        for label, value in reversed(list(zip(labels, series["used"], strict=True)))
    )
    return _render(chart, f"{title}: {used}. The table below gives the exact figures.")
