"""The backlog: how many dead letters wait for a person (open or parked) at the end of each
day, against how many have been resolved. A falling open line is the queue burning down."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from triage_app.core.trends import Trends
from triage_app.gui.trends.base import (
    DAY_SECONDS,
    HEADROOM,
    OPEN_COLOUR,
    RESOLVED_COLOUR,
    Link,
    TrendChart,
    day_x,
)
from triage_app.gui.trends.time_axis import DayAxis


class BacklogChart(TrendChart):
    table_name = "backlog"

    def __init__(self) -> None:
        super().__init__(
            "dead letters",
            axis_items={"bottom": DayAxis()},
        )
        self.legend(columns=2)
        self.open_line = self.plot(
            [], [], pen=pg.mkPen(OPEN_COLOUR, width=2.5), name="open (incl. parked)"
        )
        self.resolved_line = self.plot(
            [], [], pen=pg.mkPen(RESOLVED_COLOUR, width=2.5), name="resolved (all time)"
        )
        self._x: list[float] = []

    def draw(self, t: Trends) -> None:
        self._x = [day_x(p.day) for p in t.backlog]
        x = np.array(self._x)
        self.open_line.setData(x, np.array([p.open for p in t.backlog], dtype=float))
        self.resolved_line.setData(x, np.array([p.resolved for p in t.backlog], dtype=float))
        item = self.getPlotItem()
        if self._x:
            item.setXRange(
                min(self._x) - DAY_SECONDS / 2, max(self._x) + DAY_SECONDS / 2, padding=0
            )
        top = max((max(p.open, p.resolved) for p in t.backlog), default=1)
        item.setYRange(0, top * HEADROOM or 1, padding=0)

    def describe(self, x: float, y: float) -> str | None:
        if self.pick(x, y) is None or self.trends is None:
            return None
        i = int(np.argmin([abs(x - v) for v in self._x]))
        p = self.trends.backlog[i]
        return (
            f"end of {p.day.isoformat()}: {p.open:,} waiting, {p.resolved:,} resolved\n"
            f"that day: +{p.arrived:,} quarantined, -{p.resolved_on_day:,} resolved, "
            f"-{p.discarded_on_day:,} discarded"
        )

    def pick(self, x: float, y: float) -> Link | None:
        if not self._x or self.trends is None:
            return None
        i = int(np.argmin([abs(x - v) for v in self._x]))
        if abs(x - self._x[i]) > DAY_SECONDS / 2:
            return None
        day = self.trends.backlog[i].day
        return Link(
            f"first failed {day.isoformat()}",
            (("failed_from", day), ("failed_to", day), ("status", "all")),
        )
