"""The backlog: how many dead letters wait for a person (open or parked) at the end of each
day, against how many have been resolved. A falling open line is the queue burning down."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from triage_app.core.locale_format import format_date
from triage_app.core.trends import Trends
from triage_app.core.vocabulary import ALL
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.trends.base import DAY_SECONDS, HEADROOM, TrendChart, day_x
from triage_app.gui.trends.link import Link
from triage_app.gui.trends.time_axis import DayAxis
from triage_app.gui.trends.words import first_failed_link

# Up to this many days each day is marked with a point on both lines: a line of one day is
# nothing but its point, and on a few days the points say where the days are.
MARKED_DAYS = 31
MARKER_SIZE = 7


class BacklogChart(TrendChart):
    """Two y axes: the queue (left) is a few thousand while resolved-all-time (right) grows
    without end; on one axis the burn-down would be a flat line at the bottom."""

    table_name = "backlog"

    def __init__(self) -> None:
        waiting = translate("BacklogChart", "waiting")
        super().__init__(
            waiting,
            axis_items={"bottom": DayAxis()},
            counts=("left", "right"),
        )
        item = self.getPlotItem()
        item.getAxis("left").setTextPen(pg.mkPen(style.OPEN))
        item.setLabel("left", waiting, color=style.OPEN)
        legend = self.legend(columns=2)
        self.open_line = self.plot(
            [],
            [],
            pen=pg.mkPen(style.OPEN, width=2.5),
            name=translate("BacklogChart", "open + parked (left)"),
        )
        # The right axis has a view box of its own, following the main one's x range.
        self.right = pg.ViewBox()
        self.right.setMouseEnabled(x=False, y=False)
        self.right.setMenuEnabled(False)
        item.showAxis("right")
        item.scene().addItem(self.right)
        axis = item.getAxis("right")
        axis.linkToView(self.right)
        axis.setWidth(64)
        axis.setPen(pg.mkPen(style.TEXT))
        axis.setTextPen(pg.mkPen(style.RESOLVED))
        axis.setLabel(translate("BacklogChart", "resolved, all time"), color=style.RESOLVED)
        self.right.setXLink(item)
        self.resolved_line = pg.PlotDataItem(pen=pg.mkPen(style.RESOLVED, width=2.5))
        self.right.addItem(self.resolved_line)
        legend.addItem(self.resolved_line, translate("BacklogChart", "resolved (right)"))
        item.getViewBox().sigResized.connect(self._follow)
        self._x: list[float] = []

    def _follow(self) -> None:
        vb = self.getPlotItem().getViewBox()
        self.right.setGeometry(vb.sceneBoundingRect())
        self.right.linkedViewChanged(vb, self.right.XAxis)

    def draw(self, t: Trends) -> None:
        self._x = [day_x(p.day) for p in t.backlog]
        x = np.array(self._x)
        marked = len(self._x) <= MARKED_DAYS
        for line, colour, values in (
            (self.open_line, style.OPEN, [p.open for p in t.backlog]),
            (self.resolved_line, style.RESOLVED, [p.resolved for p in t.backlog]),
        ):
            line.setData(
                x,
                np.array(values, dtype=float),
                symbol="o" if marked else None,
                symbolSize=MARKER_SIZE,
                symbolPen=pg.mkPen(colour),
                symbolBrush=pg.mkBrush(colour),
            )
        item = self.getPlotItem()
        if self._x:
            item.setXRange(
                min(self._x) - DAY_SECONDS / 2, max(self._x) + DAY_SECONDS / 2, padding=0
            )
        top_open = max((p.open for p in t.backlog), default=1)
        top_resolved = max((p.resolved for p in t.backlog), default=1)
        item.setYRange(0, top_open * HEADROOM or 1, padding=0)
        self.right.setYRange(0, top_resolved * HEADROOM or 1, padding=0)
        self._follow()

    def describe(self, x: float, y: float) -> str | None:
        if self.pick(x, y) is None or self.trends is None:
            return None
        i = int(np.argmin([abs(x - v) for v in self._x]))
        p = self.trends.backlog[i]
        return fill(
            translate(
                "BacklogChart",
                "end of %1: %2 waiting, %3 resolved\n"
                "that day: +%4 quarantined, -%5 resolved, -%6 discarded",
            ),
            format_date(p.day),
            p.open,
            p.resolved,
            p.arrived,
            p.resolved_on_day,
            p.discarded_on_day,
        )

    def pick(self, x: float, y: float) -> Link | None:
        if not self._x or self.trends is None:
            return None
        i = int(np.argmin([abs(x - v) for v in self._x]))
        if abs(x - self._x[i]) > DAY_SECONDS / 2:
            return None
        day = self.trends.backlog[i].day
        return Link(
            first_failed_link(day),
            (("failed_from", day), ("failed_to", day), ("status", ALL)),
        )
