"""A bottom axis for charts with one bar per batch: each tick names the batch's start day,
thinned out so the labels never overlap."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyqtgraph as pg

from triage_app.core.clock import day
from triage_app.core.trends import BatchPoint

LABEL_PIXELS = 78  # room one "2026-03-04" label needs at the tick font


class BatchAxis(pg.AxisItem):
    def __init__(self) -> None:
        super().__init__(orientation="bottom")
        self.labels: list[str] = []

    def set_batches(self, batches: Sequence[BatchPoint]) -> None:
        self.labels = [day(b.started_at) for b in batches]
        self.picture = None
        self.update()

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[Any]:
        n = len(self.labels)
        if n == 0 or size <= 0:
            return []
        span = max(maxVal - minVal, 1.0)
        fits = max(1, int(size / LABEL_PIXELS))
        step = max(1, round(span / fits + 0.4999))
        first = max(0, int(minVal))
        return [(float(step), [float(i) for i in range(first, n) if i % step == 0])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        out = []
        for v in values:
            i = round(v)
            out.append(self.labels[i] if 0 <= i < len(self.labels) else "")
        return out


DAY = 86_400.0
# Steps a day axis may take, in days; the first whose labels fit is used.
DAY_STEPS = (1, 2, 7, 14, 28, 91, 182, 364)
DAY_LABEL_PIXELS = 56  # "Mar 03" at the tick font, with a gap


class DayAxis(pg.AxisItem):
    """UTC days on a time axis (x in epoch seconds): ticks on whole days, every 1, 2, 7…
    days as the width allows, labelled "Mar 03"; a new year shows as "2027 Jan 04"."""

    def __init__(self) -> None:
        super().__init__(orientation="bottom")

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[Any]:
        if size <= 0 or maxVal <= minVal:
            return []
        days = (maxVal - minVal) / DAY
        fits = max(1.0, size / DAY_LABEL_PIXELS)
        step = next((s for s in DAY_STEPS if days / s <= fits), DAY_STEPS[-1])
        first = int(minVal // DAY) + 1
        last = int(maxVal // DAY)
        # Weekly and longer steps start on Mondays (epoch day 4 was a Monday).
        ticks = [
            d * DAY + DAY / 2
            for d in range(first - 1, last + 1)
            if (d - 4) % step == 0 and minVal <= d * DAY + DAY / 2 <= maxVal
        ]
        return [(step * DAY, ticks)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        import datetime as dt

        out = []
        previous_year = None
        for v in values:
            day = dt.datetime.fromtimestamp(v, dt.UTC).date()
            label = day.strftime("%b %d")
            if previous_year is not None and day.year != previous_year:
                label = day.strftime("%Y %b %d")
            previous_year = day.year
            out.append(label)
        return out
