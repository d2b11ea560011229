"""The price chart, drawn by hand as plain SVG so it reads on a phone: a 440-unit-wide
viewBox (at 390 px, in a padded card, its 14-unit labels are still 10 px), axis titles,
every series named in words in a legend of one line each, markers of different shapes as
well as colours, and a text alternative (`<title>`, `<desc>`, role="img") beside the
exact table.

Every text is kept inside the viewBox by estimating its width (`text_width`); a label too
long for its room is shortened with an ellipsis rather than drawn past the edge."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import ceil, floor

from markupsafe import Markup, escape

PROGRAM_NAMES = {
    "BRRAG": "Business relocation (BRRAG)",
    "UTH": "Urban transit hub (UTH)",
    "DM_GIT": "Digital media, GIT (DM_GIT)",
    "DM_CBT": "Digital media, CBT (DM_CBT)",
    "TECH": "Technology business (TECH)",
}
COLOURS = ("#0b5cad", "#b35c00", "#1b7f3b", "#b3261e", "#6c4ab6", "#3d4653")
WIDTH = 440
LEFT, RIGHT, TOP = 52, 14, 44  # room for the y labels, the right edge, the title
PLOT_HEIGHT = 210
FONT, TITLE_FONT = 14, 16
CHAR_EM = 0.6  # a generous average glyph width of a sans-serif face, in ems
LEGEND_ROW = 20


def text_width(text: str, size: float) -> float:
    """An over-estimate of `text`'s drawn width at font `size` (no font metrics server-side)."""
    return len(text) * size * CHAR_EM


def fit(text: str, size: float, room: float) -> str:
    """`text`, shortened with an ellipsis until its estimated width fits `room`."""
    if text_width(text, size) <= room:
        return text
    keep = max(1, int(room / (size * CHAR_EM)) - 1)
    return text[:keep].rstrip() + "…"


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float = FONT
    anchor: str = "start"  # SVG text-anchor
    rotate: bool = False  # the y axis title, turned a quarter

    def svg(self) -> str:
        turn = f' transform="rotate(-90 {self.x:.1f} {self.y:.1f})"' if self.rotate else ""
        return (
            f'<text x="{self.x:.1f}" y="{self.y:.1f}" font-size="{self.size}" '
            f'text-anchor="{self.anchor}"{turn}>{escape(self.text)}</text>'
        )


def series_name(program: str, vintage: int) -> str:
    return f"{PROGRAM_NAMES.get(program, program)}, FY {vintage} credits"


def _marker(shape: int, x: float, y: float, colour: str) -> str:
    if shape % 4 == 0:
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" fill="{colour}"/>'
    if shape % 4 == 1:
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" fill="{colour}"/>'
    if shape % 4 == 2:
        d = 5.5
        pts = f"{x:.1f},{y - d:.1f} {x + d:.1f},{y:.1f} {x:.1f},{y + d:.1f} {x - d:.1f},{y:.1f}"
    else:
        pts = f"{x:.1f},{y - 5:.1f} {x + 5:.1f},{y + 4.5:.1f} {x - 5:.1f},{y + 4.5:.1f}"
    return f'<polygon points="{pts}" fill="{colour}"/>'


def _y_range(values: Sequence[float]) -> tuple[float, float, float]:
    """(low, high, step): whole-percent gridlines around the data, 2 or 5 apart."""
    least, most = floor(min(values)), ceil(max(values))
    step = 2.0 if most - least <= 10 else 5.0
    low = max(0.0, floor(least / step) * step - step)
    return low, ceil(most / step) * step + step, step


def price_chart(
    title: str,
    series: Mapping[str, Sequence[tuple[str, float]]],
    x_title: str,
    y_title: str,
) -> Markup:
    """One line of markers per series over shared category labels (quarters or months)."""
    labels = sorted({label for points in series.values() for label, _ in points})
    values = [v for points in series.values() for _, v in points]
    low, high, step = _y_range(values)
    plot_w = WIDTH - LEFT - RIGHT
    bottom = TOP + PLOT_HEIGHT

    def x_of(i: int) -> float:
        return LEFT + plot_w * (i + 0.5) / len(labels)

    def y_of(v: float) -> float:
        return bottom - PLOT_HEIGHT * (v - low) / (high - low)

    texts = [Text(WIDTH / 2, 22, fit(title, TITLE_FONT, WIDTH - 8), TITLE_FONT, "middle")]
    grid = []
    tick = low
    while tick <= high + 1e-9:
        y = y_of(tick)
        grid.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}"/>')
        texts.append(Text(LEFT - 6, y + 4, f"{tick:.0f}%", FONT, "end"))
        tick += step
    # As many x labels as fit side by side; the rest are in the table.
    widest = max(text_width(label, FONT) for label in labels) + 10
    every = max(1, ceil(len(labels) / max(1, floor(plot_w / widest))))
    for i, label in enumerate(labels):
        if i % every == 0:
            half = text_width(label, FONT) / 2  # an edge label is kept inside the frame
            x = min(max(x_of(i), half + 2), WIDTH - half - 2)
            texts.append(Text(x, bottom + 18, label, FONT, "middle"))
    texts.append(Text(LEFT + plot_w / 2, bottom + 40, fit(x_title, FONT, plot_w), FONT, "middle"))
    texts.append(
        Text(14, TOP + PLOT_HEIGHT / 2, fit(y_title, FONT, PLOT_HEIGHT), FONT, "middle", True)
    )

    marks, legend = [], []
    legend_top = bottom + 62
    for n, (name, points) in enumerate(series.items()):
        colour = COLOURS[n % len(COLOURS)]
        at = {label: v for label, v in points}
        xy = [(x_of(i), y_of(at[label])) for i, label in enumerate(labels) if label in at]
        if len(xy) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
            marks.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"/>'
            )
        marks += [_marker(n, x, y, colour) for x, y in xy]
        row_y = legend_top + n * LEGEND_ROW
        legend.append(_marker(n, 14, row_y - 4, colour))
        legend.append(Text(26, row_y, fit(name, FONT, WIDTH - 26 - 4)).svg())
    height = legend_top + len(series) * LEGEND_ROW
    desc = _description(series, y_title)
    return Markup(
        f'<svg role="img" aria-labelledby="price-chart-title price-chart-desc" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg" class="price-chart" '
        f'font-family="system-ui, sans-serif">'
        f'<title id="price-chart-title">{escape(title)}</title>'
        f'<desc id="price-chart-desc">{escape(desc)}</desc>'
        f'<rect width="{WIDTH}" height="{height}" fill="#fff"/>'
        f'<g stroke="#d5dbe3" stroke-width="1">{"".join(grid)}</g>'
        f'<line x1="{LEFT}" y1="{bottom}" x2="{WIDTH - RIGHT}" y2="{bottom}" stroke="#5b6675"/>'
        f'{"".join(marks)}<g fill="#1d2430">{"".join(t.svg() for t in texts)}</g>'
        f'<g fill="#1d2430">{"".join(legend)}</g></svg>'
    )


def _description(series: Mapping[str, Sequence[tuple[str, float]]], y_title: str) -> str:
    parts = []
    for name, points in series.items():
        ordered = sorted(points)
        first, last = ordered[0], ordered[-1]
        parts.append(
            f"{name}: {first[1]:.1f}% in {first[0]}"
            + (f", {last[1]:.1f}% in {last[0]}" if len(ordered) > 1 else "")
        )
    return f"{y_title}. " + "; ".join(parts) + ". The table below gives every figure."
