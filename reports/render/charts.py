"""The fees-per-hour bar chart."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from dealer_assist.money import format_cents
from dealer_assist.reports.render.state import scaled
from dealer_assist.reports.render.style import INK, fonts
from dealer_assist.reports.render.text import local, plain


def nice_step(top: int, ticks: int = 5) -> int:
    """A round axis step in cents (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    if top <= 0:
        return 100
    raw = -(-top // ticks)
    base = 1
    while base * 10 <= raw:
        base *= 10
    for m in (1, 2, 5, 10):
        if m * base >= raw:
            return m * base
    return 10 * base


def fees_chart(points: Sequence[tuple[datetime, int]], width: float, height: float = 50 * mm,
               title: str = "Fees and drops collected per hour") -> Drawing:
    """A bar chart of cents collected in each clock hour; axis labels in money."""
    f = fonts()
    width = scaled([width])[0]
    d = Drawing(width, height)
    if title:
        d.add(String(0, height - 10, plain(title), fontName=f.bold, fontSize=9, fillColor=INK))
    chart = VerticalBarChart()
    chart.x, chart.y = 18 * mm, 14 * mm
    chart.width, chart.height = width - 22 * mm, height - 14 * mm - (16 if title else 4)
    values = [int(v) for _, v in points] or [0]
    top = max(values)
    bottom = min(0, *values)  # an hour in which more time was given back than collected
    step = nice_step(max(top, -bottom))
    chart.data = [values]
    chart.categoryAxis.categoryNames = [local(t).strftime("%H:%M") for t, _ in points] or [""]
    chart.categoryAxis.labels.fontName = f.regular
    chart.categoryAxis.labels.fontSize = 7
    if len(points) > 16:
        chart.categoryAxis.labels.angle = 45
        chart.categoryAxis.labels.boxAnchor = "ne"
    chart.valueAxis.valueMin = -step * (-bottom // step + (1 if -bottom % step else 0))
    chart.valueAxis.valueMax = step * max(1, -(-top // step))
    chart.valueAxis.valueStep = step
    chart.valueAxis.labels.fontName = f.regular
    chart.valueAxis.labels.fontSize = 7
    chart.valueAxis.labelTextFormat = _axis_money
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    chart.bars[0].fillColor = colors.HexColor("#4A6FA5")
    chart.bars[0].strokeColor = None
    chart.barSpacing = 1
    d.add(chart)
    return d


def _axis_money(value: Any) -> str:
    return format_cents(round(value))

