"""The error groups as horizontal bars, largest on top, in the class colours: one of the
Trends charts (the groups' table is ``groups_view.py``). A bar chooses its group."""

from __future__ import annotations

from typing import Any

import numpy as np

from triage_app.core.deadletters import ErrorGroup
from triage_app.core.trends import Trends
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import class_label
from triage_app.gui.style import class_colour
from triage_app.gui.trends.base import TrendChart, bars, dead_letters
from triage_app.gui.trends.groups_view import group_link
from triage_app.gui.trends.link import Link

BARS = 10  # the chart shows the largest few; the table has them all
LABEL_CHARS = 30


def short(signature: str) -> str:
    return signature if len(signature) <= LABEL_CHARS else signature[: LABEL_CHARS - 1] + "…"


class GroupsChart(TrendChart):
    """Horizontal bars, largest group on top, coloured by class."""

    table_name = "error_groups"

    def __init__(self) -> None:
        super().__init__("", translate("GroupsChart", "dead letters"), counts=("bottom",))
        self.items: dict[str, Any] = {}
        self.groups: tuple[ErrorGroup, ...] = ()
        self.getPlotItem().showGrid(x=True, y=False, alpha=0.15)
        self.getPlotItem().getAxis("left").setWidth(250)
        self.bar_items: list[Any] = []

    def draw(self, t: Trends) -> None:
        for item in self.bar_items:
            self.removeItem(item)
        self.bar_items = []
        self.groups = t.groups[:BARS]
        n = len(self.groups)
        # One item per class, so each keeps the table's class colour.
        for cls in sorted({g.error_class for g in self.groups}):
            idx = [i for i, g in enumerate(self.groups) if g.error_class == cls]
            item = bars(
                x0=np.zeros(len(idx)),
                y=np.array([n - 1 - i for i in idx], dtype=float),
                width=np.array([self.groups[i].count for i in idx], dtype=float),
                height=0.7,
                brush=class_colour(cls),
            )
            self.addItem(item)
            self.bar_items.append(item)
        axis = self.getPlotItem().getAxis("left")
        axis.setTicks([[(float(n - 1 - i), short(g.signature)) for i, g in enumerate(self.groups)]])
        top = max((g.count for g in self.groups), default=1)
        self.getPlotItem().setXRange(0, top * 1.05, padding=0)
        self.getPlotItem().setYRange(-0.6, max(n, 1) - 0.4, padding=0)

    def describe(self, x: float, y: float) -> str | None:
        link = self.pick(x, y)
        if link is None:
            return None
        g = next(g for g in self.groups if ("signature", g.signature) in link.changes)
        counted = fill(
            translate("GroupsChart", "%1: %2, %3 open"),
            class_label(g.error_class),
            dead_letters(g.count),
            g.open,
        )
        return f"{g.signature}\n{counted}"

    def pick(self, x: float, y: float) -> Link | None:
        n = len(self.groups)
        row = n - 1 - round(y)
        if not 0 <= row < n or abs(y - round(y)) > 0.35 or x < 0:
            return None
        g = self.groups[row]
        return group_link(g) if x <= g.count else None
