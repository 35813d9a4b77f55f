"""Bottom axes: one bar per batch (named by its source file, or its id), and UTC days."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QFont, QFontMetricsF

from triage_app.core.locale_format import format_date
from triage_app.core.trends import BatchPoint
from triage_app.gui.trends.words import day_and_month

SHORT_ID = 8  # a batch id's characters shown where the source names do not tell batches apart
LABEL_GAP = 10.0  # pixels between two batch labels
MIN_LABEL_PIXELS = 110.0  # the narrowest a batch label is elided to before ticks are thinned
# Past each end of the axis: the first bar is 0.8 of a bar's room in, a label one or two.
END_PIXELS = 40.0


def source_stem(source_name: str) -> str:
    """The file's name without its folder and last suffix, on one line of printable text."""
    name = PureWindowsPath(PurePosixPath(source_name).name).name
    stem = PurePosixPath(name).stem or name
    return "".join(c if c.isprintable() else " " for c in stem)


# What a batch axis's labels are (a key: the chart's axis title says it in words).
SOURCE_FILE = "source file"
BATCH_ID = "batch id"


def batch_labels(batches: Sequence[BatchPoint]) -> tuple[list[str], str]:
    """A label per batch that tells them apart, and what the labels are (``SOURCE_FILE``
    or ``BATCH_ID``): the source files' stems where those differ (batches of one day share
    their start date), else the batch ids' first characters."""
    stems = [source_stem(b.source_name) for b in batches]
    if all(stems) and len(set(stems)) == len(stems):
        return stems, SOURCE_FILE
    return [b.batch_id[:SHORT_ID] for b in batches], BATCH_ID


def without_shared_start(labels: Sequence[str]) -> list[str]:
    """The labels less the start all of them share, cut at a separator ("_", "-", ".",
    a space) and marked "…": ["pesanan_2026-03-01_4", "pesanan_2026-03-02_5"] become
    ["…03-01_4", "…03-02_5"]. Unchanged where they share none, or are fewer than two."""
    if len(labels) < 2:
        return list(labels)
    # The start the first and last in sort order share is the one all of them share.
    lo, hi = min(labels), max(labels)
    same = 0
    while same < min(len(lo), len(hi)) and lo[same] == hi[same]:
        same += 1
    shared = lo[:same]
    cut = max(shared.rfind(c) for c in "_-. ") + 1
    if cut == 0 or any(len(label) <= cut for label in labels):
        return list(labels)
    return ["…" + label[cut:] for label in labels]


class BatchAxis(pg.AxisItem):
    """Batch i sits at x = i. Each tick names its batch (``batch_labels``); where the
    names do not fit whole, without the start they all share, elided in the middle to the
    room each has; ticks are thinned once a label would be narrower than MIN_LABEL_PIXELS.
    The full name and the start time are in the chart's tooltip."""

    def __init__(self) -> None:
        super().__init__(orientation="bottom")
        self.labels: list[str] = []  # whole
        self.tails: list[str] = []  # without the start they share
        self.shown: list[str] = []  # one of the two, chosen with the ticks
        self.kind = BATCH_ID
        self.room = 0.0  # pixels each shown label may take, set with the ticks

    def set_batches(self, batches: Sequence[BatchPoint]) -> None:
        self.labels, self.kind = batch_labels(batches)
        self.tails = without_shared_start(self.labels)
        self.shown = self.labels
        self.picture = None
        self.update()

    def boundingRect(self) -> QRectF:
        """Room past both ends for half a label: pyqtgraph leaves out a label its axis does
        not wholly hold, and the first batch's bar is less than a label's width in."""
        return super().boundingRect().adjusted(-END_PIXELS, 0, END_PIXELS, 0)

    def _metrics(self) -> QFontMetricsF:
        return QFontMetricsF(self.style.get("tickFont") or QFont())

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[Any]:
        n = len(self.labels)
        if n == 0 or size <= 0:
            return []
        per_batch = size / max(maxVal - minVal, 1.0)
        metrics = self._metrics()

        def widest(labels: list[str]) -> float:
            return max(metrics.horizontalAdvance(label) for label in labels) + LABEL_GAP

        self.shown = self.labels if widest(self.labels) <= per_batch else self.tails
        need = min(widest(self.shown), MIN_LABEL_PIXELS)
        step = max(1, math.ceil(need / per_batch - 1e-9))
        self.room = step * per_batch - LABEL_GAP
        first = max(0, math.ceil(minVal))
        last = min(n - 1, math.floor(maxVal))
        # Counted back from the newest batch, which is always named.
        ticks = [float(i) for i in range(first, last + 1) if (n - 1 - i) % step == 0]
        return [(float(step), ticks)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        metrics = self._metrics()
        out = []
        for v in values:
            i = round(v)
            label = self.shown[i] if 0 <= i < len(self.shown) else ""
            if self.room > 0:
                label = metrics.elidedText(label, Qt.TextElideMode.ElideMiddle, self.room)
            out.append(label)
        return out


DAY = 86_400.0
# Steps a day axis may take, in days; the first whose labels fit is used.
DAY_STEPS = (1, 2, 7, 14, 28, 91, 182, 364)
DAY_LABEL_PIXELS = 56  # "30 Nov" at the tick font, with a gap


class DayAxis(pg.AxisItem):
    """UTC days on a time axis (x in epoch seconds): ticks on whole days, every 1, 2, 7…
    days as the width allows, labelled "3 Mar" (Indonesian "3 Agu"); a new year shows as
    "4 Jan 2027"."""

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
            label = day_and_month(day)
            if previous_year is not None and day.year != previous_year:
                label = format_date(day)
            previous_year = day.year
            out.append(label)
        return out
