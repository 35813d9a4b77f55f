"""Attempts histogram: how many dead letters failed 1, 2, 3… times, parked ones marked."""

from __future__ import annotations

import numpy as np

from triage_app.core.locale_format import format_int
from triage_app.core.trends import AttemptsBucket, Trends
from triage_app.core.vocabulary import Status
from triage_app.gui import style
from triage_app.gui.i18n import fill, translate
from triage_app.gui.trends.base import HEADROOM, TrendChart, bars, dead_letters
from triage_app.gui.trends.link import Link


class AttemptsChart(TrendChart):
    table_name = "attempts"

    def __init__(self) -> None:
        super().__init__(
            translate("AttemptsChart", "dead letters"),
            translate("AttemptsChart", "attempts"),
            counts=("left",),
        )
        self.legend(columns=2)
        self.waiting = bars(
            x=[],
            height=[],
            width=0.6,
            brush=style.WAITING,
            name=translate("AttemptsChart", "not parked"),
        )
        self.parked = bars(
            x=[], height=[], width=0.6, brush=style.ALERT, name=translate("AttemptsChart", "parked")
        )
        self.addItem(self.waiting)
        self.addItem(self.parked)
        self.buckets: tuple[AttemptsBucket, ...] = ()

    def draw(self, t: Trends) -> None:
        self.show_buckets(t.attempts)

    def show_buckets(self, buckets: tuple[AttemptsBucket, ...]) -> None:
        """Only the histogram follows the table's filter, so it is redrawn on its own."""
        self.buckets = buckets
        x = np.array([b.attempts for b in buckets], dtype=float)
        waiting = np.array([b.not_parked for b in buckets], dtype=float)
        parked = np.array([b.parked for b in buckets], dtype=float)
        self.waiting.setOpts(x=x, height=waiting, width=0.6)
        self.parked.setOpts(x=x, y0=waiting, height=parked, width=0.6)
        axis = self.getPlotItem().getAxis("bottom")
        axis.setTicks([[(float(b.attempts), format_int(b.attempts)) for b in buckets]])
        top = max((b.total for b in buckets), default=1)
        lo = min((b.attempts for b in buckets), default=1)
        hi = max((b.attempts for b in buckets), default=1)
        self.getPlotItem().setXRange(lo - 0.7, hi + 0.7, padding=0)
        self.getPlotItem().setYRange(0, top * HEADROOM or 1, padding=0)

    def describe(self, x: float, y: float) -> str | None:
        for b in self.buckets:
            if abs(x - b.attempts) <= 0.3 and 0 <= y <= b.total:
                n = b.attempts
                attempts = translate("AttemptsChart", "%Ln attempt(s)", "", n)
                # "3 attempts: 12 dead letters, 4 parked"
                return fill(
                    translate("AttemptsChart", "%1: %2, %3 parked"),
                    attempts,
                    dead_letters(b.total),
                    b.parked,
                )
        return None

    def pick(self, x: float, y: float) -> Link | None:
        for b in self.buckets:
            if abs(x - b.attempts) <= 0.3 and 0 <= y <= b.total:
                n = b.attempts
                if y > b.not_parked:
                    return Link(
                        translate("AttemptsChart", "%Ln attempt(s) · parked", "", n),
                        (("attempts", b.attempts), ("status", Status.PARKED.value)),
                    )
                return Link(
                    translate("AttemptsChart", "%Ln attempt(s)", "", n), (("attempts", b.attempts),)
                )
        return None
