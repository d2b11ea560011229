"""Server-side SVG charts (pygal), always shown beside a table with the same figures."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import pygal
from markupsafe import Markup
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


_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)


def _render(chart: pygal.Graph) -> Markup:
    chart.config.disable_xml_declaration = True
    chart.config.js = []
    # pygal embeds its tooltip config as a script; pages stay script-free plain SVG.
    return Markup(_SCRIPT.sub("", chart.render(is_unicode=True)))


def stacked_dollars(
    title: str,
    labels: Sequence[str],
    series: Mapping[str, Sequence[int]],
    height: int | None = None,
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
    return _render(chart)


def dated_points(
    title: str, series: dict[str, Sequence[tuple[str, float]]], y_title: str
) -> Markup:
    """A scatter of (ISO date label, value) per series, in order of the labels."""
    chart = pygal.Line(
        style=STYLE,
        height=360,
        width=900,
        legend_at_bottom=True,
        stroke=False,
        title=title,
        y_title=y_title,
        x_label_rotation=30,
        show_minor_x_labels=False,
    )
    labels = sorted({d for points in series.values() for d, _ in points})
    chart.x_labels = labels
    chart.x_labels_major = labels[:: max(1, len(labels) // 8)]
    for name, points in series.items():
        by_label = dict(points)
        chart.add(name, [by_label.get(label) for label in labels])
    return _render(chart)
