"""Failures over time: dead letters quarantined per day (a date axis) or per batch, stacked
by class in the quarantine table's class colours."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pyqtgraph as pg

from triage_app.core.locale_format import format_date, format_datetime, format_int
from triage_app.core.trends import Trends
from triage_app.core.vocabulary import ALL, CLASSES
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.labels import class_label
from triage_app.gui.style import class_colour
from triage_app.gui.trends.base import (
    DAY_SECONDS,
    HEADROOM,
    TrendChart,
    bars,
    day_x,
    style_axis,
)
from triage_app.gui.trends.link import Link
from triage_app.gui.trends.time_axis import SOURCE_FILE, BatchAxis, DayAxis
from triage_app.gui.trends.words import batch_link, first_failed_link


class FailuresChart(TrendChart):
    """``mode`` is "day" (by the UTC day of the first failure) or "batch" (batch counters)."""

    def __init__(self) -> None:
        self.date_axis = DayAxis()
        super().__init__(
            translate("FailuresChart", "quarantined"),
            axis_items={"bottom": self.date_axis},
            counts=("left",),
        )
        self.batch_axis = BatchAxis()
        style_axis(self.batch_axis)
        self.mode = "day"
        self.legend(columns=3)
        self.stack: dict[str, pg.BarGraphItem] = {}
        for cls in CLASSES:
            item = bars(x=[], height=[], width=1.0, brush=class_colour(cls), name=class_label(cls))
            self.stack[cls] = item
            self.addItem(item)
        self._x: list[float] = []
        self._heights: dict[str, list[float]] = {}
        self._keys: list[object] = []  # a date per bar, or a batch id
        self._purged: list[int] = []  # per bar: rows of it a retention purge removed
        # Names each purge: its rows are still counted in the bars, no longer in the table.
        # At the right of the legend's row, above the plot: never over a bar.
        self.purge_note = pg.TextItem(
            "", color=style.NOTE_TEXT, fill=pg.mkBrush(style.NOTE_FILL), anchor=(1, 0)
        )
        self.purge_note.hide()
        self.purge_note.setParentItem(self.legend_row)
        self.legend_row.geometryChanged.connect(self._place_purge_note)

    @property
    def table_name(self) -> str:  # type: ignore[override]
        return "failures_per_day" if self.mode == "day" else "failures_per_batch"

    def set_mode(self, mode: str) -> None:
        if mode not in ("day", "batch"):
            raise ValueError(mode)
        self.mode = mode
        axis = self.date_axis if mode == "day" else self.batch_axis
        self.getPlotItem().setAxisItems({"bottom": axis})
        self._label_batches()
        if self.trends is not None:
            self.draw(self.trends)

    def _label_batches(self) -> None:
        """Per batch, the axis says what names the bars: source files, or batch ids."""
        if self.mode == "day":
            text = ""
        elif self.batch_axis.kind == SOURCE_FILE:
            text = translate("FailuresChart", "batch (source file)")
        else:
            text = translate("FailuresChart", "batch (batch id)")
        self.getPlotItem().setLabel("bottom", text, color=style.TEXT)

    def draw(self, t: Trends) -> None:
        if self.mode == "day":
            self._x = [day_x(d.day) for d in t.per_day]
            self._keys = [d.day for d in t.per_day]
            counts = {c: [float(d.by_class.get(c, 0)) for d in t.per_day] for c in CLASSES}
            self._purged = [d.purged for d in t.per_day]
            width = DAY_SECONDS * 0.8
        else:
            self._x = [float(i) for i in range(len(t.per_batch))]
            self._keys = [b.batch_id for b in t.per_batch]
            counts = {c: [float(b.by_class.get(c, 0)) for b in t.per_batch] for c in CLASSES}
            self._purged = [0] * len(t.per_batch)  # batch counters outlive a purge as they are
            self.batch_axis.set_batches(t.per_batch)
            self._label_batches()
            width = 0.8
        self._heights = counts
        base = np.zeros(len(self._x))
        for cls in CLASSES:
            h = np.array(counts[cls], dtype=float)
            self.stack[cls].setOpts(x=np.array(self._x), y0=base.copy(), height=h, width=width)
            base += h
        item = self.getPlotItem()
        if self._x:
            pad = width
            item.setXRange(min(self._x) - pad, max(self._x) + pad, padding=0)
        top = (float(base.max()) if len(base) else 1.0) * HEADROOM or 1.0
        item.setYRange(0, top, padding=0)
        self._show_purges(t)

    def purge_text(self, t: Trends) -> str:
        """One line per purge: "N rows purged on DATE", and that the bars still count them."""
        if not t.purges:
            return ""
        lines = [p.message() for p in t.purges[-2:]]
        if len(t.purges) > 2:
            n = len(t.purges) - 2
            lines.insert(0, translate("FailuresChart", "%Ln earlier purge(s)", "", n))
        lines[-1] = fill(translate("FailuresChart", "%1 · still counted in the bars"), lines[-1])
        return "\n".join(lines)

    def _show_purges(self, t: Trends) -> None:
        text = self.purge_text(t) if self.mode == "day" else ""
        self.purge_note.setText(text)
        self.purge_note.setVisible(bool(text and self._x))
        self._place_purge_note()

    def _place_purge_note(self) -> None:
        """At the right of the legend; under it where the row is too narrow for both."""
        row = self.legend_row.size().width()
        legend = self.getPlotItem().legend
        note = self.purge_note.boundingRect().width()
        beside = legend is None or legend.width() + note + 12 <= row
        self.purge_note.setPos(row, 0 if beside or legend is None else legend.height() + 2)
        self.legend_row.fit()

    def pick(self, x: float, y: float) -> Link | None:
        if not self._x:
            return None
        half = DAY_SECONDS * 0.4 if self.mode == "day" else 0.4
        i = int(np.argmin([abs(x - v) for v in self._x]))
        if abs(x - self._x[i]) > half or y < 0:
            return None
        top = 0.0
        cls = None
        for c in CLASSES:
            h = self._heights[c][i]
            if top <= y < top + h:
                cls = c
            top += h
        if y >= top:
            return None
        key = self._keys[i]
        extra: tuple[tuple[str, object], ...] = (("error_class", cls),) if cls else ()
        if self.mode == "day":
            assert isinstance(key, dt.date)
            fields = (("failed_from", key), ("failed_to", key), ("status", ALL))
            return Link(first_failed_link(key, cls), fields + extra)
        return Link(batch_link(str(key), cls), (("batch_id", key), ("status", ALL), *extra))

    def describe(self, x: float, y: float) -> str | None:
        if self.trends is None or self.pick(x, y) is None:
            return None
        i = int(np.argmin([abs(x - v) for v in self._x]))
        # "data 3, code 1, transient 0": each class's label and its count.
        parts = ", ".join(
            f"{class_label(c)} {format_int(int(self._heights[c][i]))}" for c in CLASSES
        )
        total = sum(int(self._heights[c][i]) for c in CLASSES)
        if self.mode == "day":
            key = self._keys[i]
            assert isinstance(key, dt.date)
            lines = [
                fill(
                    translate("FailuresChart", "%1: %2 quarantined (%3)"),
                    format_date(key),
                    total,
                    parts,
                )
            ]
            purged = self._purged[i] if i < len(self._purged) else 0
            if purged:
                lines.append(
                    fill(
                        translate("FailuresChart", "%1 of them purged since (not in the table)"),
                        purged,
                    )
                )
            return "\n".join(lines)
        b = self.trends.per_batch[i]
        lines = [
            fill(
                translate("FailuresChart", "batch %1 · %2 · %3 · %4"),
                b.batch_id[:8],
                b.source_name,
                b.transform,
                format_datetime(b.started_at),
            ),
            fill(translate("FailuresChart", "%1 quarantined (%2)"), total, parts),
        ]
        if b.held:
            held = b.held
            lines.append(
                translate(
                    "FailuresChart",
                    "held: %Ln row(s) wait, all or nothing, until every dead letter is fixed",
                    "",
                    held,
                )
            )
        return "\n".join(lines)
