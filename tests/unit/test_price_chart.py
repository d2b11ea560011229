"""The price chart's SVG (market.web.price_chart): a viewBox, a text alternative, axis
titles, readable series names, and no text drawn past the viewBox by its estimated width,
so it fits a 390 px phone screen scaled down and still readable."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import pairwise

import pytest

from market.web.price_chart import CHAR_EM, FONT, price_chart, series_name

NS = "{http://www.w3.org/2000/svg}"


def _chart(series: dict[str, list[tuple[str, float]]]) -> ET.Element:
    svg = price_chart(
        "Median price per dollar of credit",
        series,
        "Calendar quarter of approval",
        "Median price, % of face",
    )
    return ET.fromstring(str(svg))


def _boxes(root: ET.Element) -> list[tuple[str, float, float, float, float]]:
    """(text, left, top, right, bottom) of every text, from its estimated width."""
    out = []
    for t in root.iter(f"{NS}text"):
        text, size = t.text or "", float(t.get("font-size", FONT))
        x, y, width = float(t.get("x", 0)), float(t.get("y", 0)), len(text) * size * CHAR_EM
        left = {"start": x, "middle": x - width / 2, "end": x - width}[
            t.get("text-anchor", "start")
        ]
        if "rotate(-90" in (t.get("transform") or ""):  # turned a quarter: width runs upwards
            out.append((text, x - size, y - width / 2, x, y + width / 2))
        else:
            out.append((text, left, y - size, left + width, y + size * 0.3))
    return out


QUARTERS = [f"{y}Q{q}" for y in range(2013, 2018) for q in range(1, 5)]  # 20 quarters


@pytest.mark.parametrize(
    "series",
    [
        {series_name("BRRAG", 2014): [("2014Q1", 77.5)]},
        {
            series_name("UTH", 2013): [(q, 85 + i % 7) for i, q in enumerate(QUARTERS)],
            series_name("DM_CBT", 2014): [(q, 88.0) for q in QUARTERS[::3]],
            series_name("TECH", 2026): [("2017Q4", 94.25)],
            "A program whose name is far too long to fit on one line of a phone's chart, FY 2099": [
                ("2015Q2", 81.0)
            ],
        },
    ],
)
def test_every_label_is_inside_the_viewbox(series: dict[str, list[tuple[str, float]]]) -> None:
    root = _chart(series)
    assert root.get("role") == "img"
    x0, y0, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert (x0, y0) == (0, 0) and width <= 440
    # At a 390 px screen, the chart in a card about 340 px wide, a label is 10 px or more.
    assert FONT * 340 / width >= 10
    for text, left, top, right, bottom in _boxes(root):
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, text
    labels = [b for b in _boxes(root) if "Q" in b[0] and len(b[0]) == 6]
    for a, b in pairwise(labels):  # the quarter labels never overlap
        assert a[3] < b[1], (a[0], b[0])


def test_the_chart_names_its_axes_series_and_figures_in_words() -> None:
    root = _chart({series_name("BRRAG", 2014): [("2014Q1", 77.5), ("2014Q2", 80.0)]})
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert not [t for t in texts if t and t.endswith("…")]  # nothing had to be shortened
    assert "Calendar quarter of approval" in texts and "Median price, % of face" in texts
    assert "Business relocation (BRRAG), FY 2014 credits" in texts
    assert "2014Q1" in texts and "2014Q2" in texts
    assert root.get("aria-labelledby") == "price-chart-title price-chart-desc"
    title, desc = root.find(f"{NS}title"), root.find(f"{NS}desc")
    assert title is not None and title.text == "Median price per dollar of credit"
    assert desc is not None and desc.text
    assert "77.5% in 2014Q1, 80.0% in 2014Q2" in desc.text
    assert "table below" in desc.text
