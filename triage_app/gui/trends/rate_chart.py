"""Quarantine rate per batch, with the spike rule drawn: the threshold each batch was held
to, and the batches that crossed it in red (the banner names the newest)."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from triage_app.core.locale_format import format_datetime, format_percent
from triage_app.core.trends import Trends
from triage_app.core.vocabulary import ALL, BatchKind
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.trends.base import HEADROOM, TrendChart, bars
from triage_app.gui.trends.count_axis import EndsAxis
from triage_app.gui.trends.link import Link
from triage_app.gui.trends.time_axis import BatchAxis
from triage_app.gui.trends.words import batch_link


class RateChart(TrendChart):
    table_name = "quarantine_rate"

    def __init__(self) -> None:
        self.batch_axis = BatchAxis()
        super().__init__(
            translate("RateChart", "% of rows quarantined"),
            axis_items={"bottom": self.batch_axis, "left": EndsAxis("left")},
        )
        self.legend(columns=3)
        self.normal = bars(
            x=[], height=[], width=0.8, brush=style.RATE, name=translate("RateChart", "rate")
        )
        self.spiked = bars(
            x=[], height=[], width=0.8, brush=style.ALERT, name=translate("RateChart", "spike")
        )
        self.threshold = self.plot(
            [],
            [],
            pen=pg.mkPen(style.INK, width=1.5, style=Qt.PenStyle.DashLine),
            name=translate("RateChart", "spike threshold"),
        )
        self.addItem(self.normal)
        self.addItem(self.spiked)
        self.ids: list[str] = []

    def draw(self, t: Trends) -> None:
        self.batch_axis.set_batches(t.per_batch)
        self.ids = [b.batch_id for b in t.per_batch]
        x = np.arange(len(t.per_batch), dtype=float)
        # An import (a dead-letter queue's or table's letters) is all dead letters: its
        # rate says nothing and its spike is one of volume (the failures chart's counts),
        # so it stands here as an empty place on the batch axis.
        imported = np.array([b.kind == BatchKind.IMPORT for b in t.per_batch], dtype=bool)
        rate = np.array([b.rate * 100 for b in t.per_batch], dtype=float)
        rate[imported] = 0.0
        spike = np.array([c.is_spike for c in t.checks], dtype=bool) & ~imported
        self.normal.setOpts(x=x[~spike], height=rate[~spike], width=0.8)
        self.spiked.setOpts(x=x[spike], height=rate[spike], width=0.8)
        judged = [c for c in t.checks if c.threshold is not None and not imported[c.index]]
        self.threshold.setData(
            np.array([c.index for c in judged], dtype=float),
            np.array([(c.threshold or 0) * 100 for c in judged], dtype=float),
        )
        item = self.getPlotItem()
        if len(x):
            item.setXRange(-0.8, len(x) - 0.2, padding=0)
        top = max(
            float(rate.max()) if len(rate) else 0,
            max((c.threshold or 0) * 100 for c in judged) if judged else 0,
        )
        item.setYRange(0, top * HEADROOM or 1, padding=0)

    def describe(self, x: float, y: float) -> str | None:
        if self.trends is None or self.pick(x, y) is None:
            return None
        i = round(x)
        b, c = self.trends.per_batch[i], self.trends.checks[i]
        if b.kind == BatchKind.IMPORT:
            n = b.quarantined
            return "\n".join(
                (
                    fill(
                        translate("RateChart", "import %1 · %2 · %3"),
                        b.batch_id[:8],
                        b.source_name,
                        format_datetime(b.started_at),
                    ),
                    translate("RateChart", "%Ln dead letter(s) imported (judged by volume)", "", n),
                )
            )
        if c.threshold is None:
            rule = translate("RateChart", "too few batches before it to judge")
        elif c.is_spike:
            rule = fill(
                translate("RateChart", "threshold %1: SPIKE"), format_percent(c.threshold, 2)
            )
        else:
            rule = fill(translate("RateChart", "threshold %1"), format_percent(c.threshold, 2))
        rows = b.rows
        return "\n".join(
            (
                fill(
                    translate("RateChart", "batch %1 · %2 · %3 · %4"),
                    b.batch_id[:8],
                    b.source_name,
                    b.transform,
                    format_datetime(b.started_at),
                ),
                # "40.00% of 10 rows (threshold 6.00%)"
                fill(
                    translate("RateChart", "%1 of %Ln row(s) (%2)", "", rows),
                    format_percent(b.rate, 2),
                    rule,
                ),
            )
        )

    def pick(self, x: float, y: float) -> Link | None:
        i = round(x)
        if not 0 <= i < len(self.ids) or abs(x - i) > 0.4 or self.trends is None:
            return None
        if y < 0 or y > self.trends.per_batch[i].rate * 100:
            return None
        bid = self.ids[i]
        return Link(batch_link(bid), (("batch_id", bid), ("status", ALL)))
