"""An axis that counts dead letters: ticks on whole numbers only (1, 2, 5, 10, 20, 50…
apart, as many as the length allows), labelled "1,000" or, past a million, "1.25M" (in
Indonesian "1.000" and "1,25 jt"). A range of one or two still shows 0, 1, 2: never a tick
at 0.5."""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF

from triage_app.core.locale_format import format_int, format_number
from triage_app.gui.i18n import fill, translate

# Room a tick needs along the axis: a text line and a gap on a vertical axis; on a
# horizontal one, the widest label and a gap.
VERTICAL_TICK_PIXELS = 28.0
LABEL_GAP_PIXELS = 18.0
END_PIXELS = 10.0  # past each end of the axis, for the first and last label's overhang


def count_text(n: int) -> str:
    """A count as a tick says it: "7", "12,500", "3.25M" (Indonesian: "12.500", "3,25 jt")."""
    if abs(n) >= 1_000_000:
        millions = n / 1_000_000
        # Up to three decimals, none of them a trailing zero: "1.25", "3".
        digits = len(f"{millions:.3f}".rstrip("0").split(".")[1])
        return fill(translate("count_axis", "%1M"), format_number(millions, digits))
    return format_int(n)


def count_steps() -> Any:
    """1, 2, 5, 10, 20, 50, … without end."""
    power = 1
    while True:
        for m in (1, 2, 5):
            yield m * power
        power *= 10


class EndsAxis(pg.AxisItem):
    """An axis that shows the labels at its ends: pyqtgraph leaves out a label its axis
    does not wholly hold (with a grid, however little it overhangs), and 0 sits on the end
    of an axis that starts at 0."""

    def boundingRect(self) -> QRectF:
        rect = super().boundingRect()
        if self.orientation in ("left", "right"):
            return rect.adjusted(0, -END_PIXELS, 0, END_PIXELS)
        return rect.adjusted(-END_PIXELS, 0, END_PIXELS, 0)


class CountAxis(EndsAxis):
    def __init__(self, orientation: str) -> None:
        super().__init__(orientation=orientation)
        # A count is a count: "12,000", never "12" with "(x1000)" in the axis label.
        self.enableAutoSIPrefix(False)

    def _tick_pixels(self, top: float) -> float:
        if self.orientation in ("left", "right"):
            return VERTICAL_TICK_PIXELS
        font = self.style.get("tickFont") or QFont()
        widest = QFontMetricsF(font).horizontalAdvance(count_text(int(abs(top))))
        return widest + LABEL_GAP_PIXELS

    def step(self, minVal: float, maxVal: float, size: float) -> int:
        """The whole-number distance between ticks that fits ``size`` pixels."""
        lo, hi = sorted((minVal, maxVal))
        span = hi - lo
        if span <= 0 or size <= 0:
            return 1
        fits = max(1.0, size / self._tick_pixels(max(abs(lo), abs(hi))))
        return next(s for s in count_steps() if span / s <= fits)

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:
        if maxVal == minVal or size <= 0:
            return []
        return [(float(self.step(minVal, maxVal, size)), 0.0)]

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[Any]:
        lo, hi = sorted((minVal, maxVal))
        if hi == lo or size <= 0:
            return []
        step = self.step(lo, hi, size)
        first = math.ceil(lo / step) * step
        last = math.floor(hi / step) * step
        return [(float(step), [float(v) for v in range(first, last + 1, step)])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [count_text(round(v)) for v in values]
