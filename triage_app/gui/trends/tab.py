"""The Trends tab: five views a team lead reads to answer "better or worse, which cause,
did last night's release break something". All numbers come from one core call
(``compute_trends``) on the tab's own query thread; the charts only draw them.

A click on a bar, a day or a group emits ``linked`` with a narrowing of the quarantine
table's filter; the window applies it. ``spikeChanged`` carries the spike the banner shows.
"""

from __future__ import annotations

import datetime as dt
import importlib
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QTimer, Signal, Slot
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QComboBox,
    QDoubleSpinBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from triage_app.core.clock import local_time_of_day, today
from triage_app.core.db import Workspace, WorkspaceConfig
from triage_app.core.deadletters import DeadLetterFilter
from triage_app.core.trends import (
    DEFAULT_SPIKE_FACTOR,
    DEFAULT_SPIKE_WINDOW,
    AttemptsBucket,
    Spike,
    SpikeRule,
    Trends,
    attempts_histogram,
    banner_spike,
    compute_trends,
)
from triage_app.core.vocabulary import plural
from triage_app.gui import style
from triage_app.gui.settings import settings_store
from triage_app.gui.workers import QueryThread

if TYPE_CHECKING:
    from triage_app.gui.trends.base import TrendChart

SINCE_CHOICES = (("All time", None), ("Last 7 days", 7), ("Last 30 days", 30), ("Last 90 days", 90))
PANEL_MIN_HEIGHT = 200  # three rows fit a 900-pixel window under the banner
GROUPS_MIN_HEIGHT = 340
FACTOR_KEY = "trends/spike_factor"
WINDOW_KEY = "trends/spike_window"
PER_DAY_HINT = "quarantined, stacked by class (UTC days)"
PER_BATCH_HINT = "quarantined per batch, from its counters"
PRELOAD_AFTER_MS = 300


# Imported off the GUI thread ahead of the charts: numpy alone. pyqtgraph builds Qt types
# and enums as it is imported, which crashed the GUI thread painting meanwhile (a segfault
# in 1 of 40 runs of the keyboard test with the cores busy), so it is imported by the GUI
# thread when the charts are built (0.25-0.33 s more on Trends' first paint).
_THREAD_SAFE_IMPORTS = "numpy"


def _preload_chart_libraries() -> None:
    """Import what the charts need and Qt does not, in a daemon thread. Third-party modules
    only: were one of ours imported here while the GUI thread imported it too, each could
    wait on the other's module lock."""
    if _THREAD_SAFE_IMPORTS in sys.modules:
        return
    threading.Thread(
        target=importlib.import_module,
        args=(_THREAD_SAFE_IMPORTS,),
        name="chart imports",
        daemon=True,
    ).start()


# What ``_build_charts`` makes: asked for before the tab was shown, they are built then.
_CHART_ATTRIBUTES = frozenset(
    {"failures", "backlog", "rate", "attempts", "groups", "per_day", "per_batch", "panels"}
)


def _trends_call(
    f: DeadLetterFilter, since: dt.date | None, rule: SpikeRule
) -> Callable[[Workspace], Trends]:
    def run(ws: Workspace) -> Trends:
        return compute_trends(ws, f, since=since, rule=rule, top=None)  # every group: the backlog

    return run


def _spike_call(since: dt.date | None, rule: SpikeRule) -> Callable[[Workspace], Spike | None]:
    def run(ws: Workspace) -> Spike | None:
        return banner_spike(ws, since=since, rule=rule)

    return run


def _histogram_call(f: DeadLetterFilter) -> Callable[[Workspace], tuple[AttemptsBucket, ...]]:
    def run(ws: Workspace) -> tuple[AttemptsBucket, ...]:
        with ws.store.connect() as conn:
            return attempts_histogram(conn, f)

    return run


class TrendsTab(QWidget):
    linked = Signal(object)  # Link
    groupEditRequested = Signal(object, str)  # ErrorGroup, what: owner, tags or note
    spikeChanged = Signal(object)
    updated = Signal()  # the charts show fresh numbers
    message = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trendsTab")
        self.queries: QueryThread | None = None
        self.filter = DeadLetterFilter()
        self.trends: Trends | None = None
        self.last_render_ms = 0.0
        self._stale = False  # refreshed while off screen: read again when shown
        self._settings = settings_store()
        self._charts_built = False
        self._build()
        # Off the GUI thread and after the first paint: numpy, so that the charts' first
        # build (on first show) waits only for pyqtgraph's own import.
        if _THREAD_SAFE_IMPORTS not in sys.modules:
            self._preload = QTimer(self, singleShot=True, interval=PRELOAD_AFTER_MS)
            self._preload.timeout.connect(_preload_chart_libraries)
            self._preload.start()

    # -- building -------------------------------------------------------------------------
    def _build(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(8, 6, 8, 2)
        self.since_combo = QComboBox(objectName="trendsSince")
        for text, days in SINCE_CHOICES:
            self.since_combo.addItem(text, days)
        self.since_combo.currentIndexChanged.connect(self.refresh)
        self.factor_spin = QDoubleSpinBox(objectName="spikeFactor", minimum=1.0, maximum=50.0)
        self.factor_spin.setSingleStep(0.5)
        self.factor_spin.setDecimals(1)
        self.factor_spin.setSuffix(" ×")
        self.factor_spin.setValue(float(self._settings.value(FACTOR_KEY, DEFAULT_SPIKE_FACTOR)))
        self.window_spin = QSpinBox(objectName="spikeWindow", minimum=1, maximum=100)
        self.window_spin.setValue(int(self._settings.value(WINDOW_KEY, DEFAULT_SPIKE_WINDOW)))
        for spin in (self.factor_spin, self.window_spin):
            spin.setToolTip(
                "The spike rule: a batch whose quarantine rate exceeds this many "
                "times the median of this many previous batches"
            )
            spin.valueChanged.connect(self._on_rule_changed)
        self.since_combo.setAccessibleName("Trends period")
        self.factor_spin.setAccessibleName("Spike factor")
        self.window_spin.setAccessibleName("Spike window in batches")
        self.updated_label = QLabel(objectName="trendsUpdated")
        self.updated_label.setStyleSheet(style.HINT)
        bar.addWidget(QLabel("Show"))
        bar.addWidget(self.since_combo)
        bar.addSpacing(16)
        bar.addWidget(QLabel("Spike: rate above"))
        bar.addWidget(self.factor_spin)
        bar.addWidget(QLabel("the median of the previous"))
        bar.addWidget(self.window_spin)
        bar.addWidget(QLabel("batches"))
        bar.addStretch(1)
        bar.addWidget(self.updated_label)

        # The charts come when the tab is first shown (``_build_charts``): they import
        # pyqtgraph and numpy, a third of a second the window's first page need not wait
        # for (issue 23: the first page at ten million rows under 0.5 s).
        self._scroll = QScrollArea()
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        v = QVBoxLayout(self)
        v.setContentsMargins(0, 0, 0, 0)
        v.setSpacing(0)
        v.addLayout(bar)
        v.addWidget(self._scroll, 1)

    def __getattr__(self, name: str) -> Any:
        # A chart asked for before the tab was shown (a link, a test, the report): built
        # now. Only for the charts' own names; anything else is a plain AttributeError.
        if name in _CHART_ATTRIBUTES and not self.__dict__.get("_charts_built", False):
            self._build_charts()
            return self.__dict__[name]
        raise AttributeError(name)

    def _build_charts(self) -> None:
        from triage_app.gui.trends.attempts_chart import AttemptsChart
        from triage_app.gui.trends.backlog_chart import BacklogChart
        from triage_app.gui.trends.failures_chart import FailuresChart
        from triage_app.gui.trends.groups_view import GroupsView
        from triage_app.gui.trends.panel import ChartPanel
        from triage_app.gui.trends.rate_chart import RateChart

        self._charts_built = True
        self.failures = FailuresChart()
        self.backlog = BacklogChart()
        self.rate = RateChart()
        self.attempts = AttemptsChart()
        self.groups = GroupsView()
        self.groups.editRequested.connect(self.groupEditRequested)

        mode = QWidget()
        mh = QHBoxLayout(mode)
        mh.setContentsMargins(0, 0, 0, 0)
        self.per_day = QRadioButton("per day", objectName="failuresPerDay", checked=True)
        self.per_batch = QRadioButton("per batch", objectName="failuresPerBatch")
        group = QButtonGroup(mode)
        for b in (self.per_day, self.per_batch):
            group.addButton(b)
            mh.addWidget(b)
        self.per_batch.toggled.connect(self._on_mode)

        hint = "click a bar: the table shows those rows"
        self.panels = {
            "failures": ChartPanel(
                "failures",
                "Failures over time",
                PER_DAY_HINT,
                self.failures,
                self.failures,
                mode,
            ),
            "backlog": ChartPanel(
                "backlog", "Backlog", "waiting for a person vs resolved", self.backlog, self.backlog
            ),
            "rate": ChartPanel(
                "rate", "Quarantine rate per batch", "spikes in red", self.rate, self.rate
            ),
            "attempts": ChartPanel(
                "attempts",
                "Attempts",
                "over the table's filter; parked in red",
                self.attempts,
                self.attempts,
            ),
            "groups": ChartPanel(
                "groups",
                "Error groups",
                "one cause each: click to select its rows in the table",
                self.groups,
                self.groups.chart,
            ),
        }
        for chart in (self.failures, self.backlog, self.rate, self.attempts):
            chart.setToolTip(hint)
        for chart in (self.failures, self.backlog, self.rate, self.attempts, self.groups):
            chart.linked.connect(self.linked)
        for panel in self.panels.values():
            panel.setMinimumHeight(PANEL_MIN_HEIGHT)
            panel.exported.connect(self.message)
        # The groups are the team's backlog, worked in: room for a dozen of them.
        self.panels["groups"].setMinimumHeight(GROUPS_MIN_HEIGHT)

        grid_host = QWidget()
        grid = QGridLayout(grid_host)
        grid.setContentsMargins(6, 4, 6, 6)
        grid.setSpacing(6)
        grid.addWidget(self.panels["failures"], 0, 0)
        grid.addWidget(self.panels["backlog"], 0, 1)
        grid.addWidget(self.panels["rate"], 1, 0)
        grid.addWidget(self.panels["attempts"], 1, 1)
        grid.addWidget(self.panels["groups"], 2, 0, 1, 2)
        grid.setRowStretch(0, 2)
        grid.setRowStretch(1, 2)
        grid.setRowStretch(2, 3)
        grid.setColumnStretch(0, 3)
        grid.setColumnStretch(1, 2)
        self._scroll.setWidget(grid_host)

    def charts(self) -> list[TrendChart]:
        return [self.failures, self.backlog, self.rate, self.attempts, self.groups.chart]

    # -- the workspace --------------------------------------------------------------------
    def open_workspace(self, config: WorkspaceConfig | None) -> None:
        """Its own query thread: a trends refresh never delays the table's counts."""
        self.close_workspace()
        if config is not None:
            self.queries = QueryThread(config, self)
            self.queries.thread.setObjectName("trend queries")
            self.refresh()

    def close_workspace(self) -> None:
        if self.queries is not None:
            self.queries.release()
            self.queries = None

    def rule(self) -> SpikeRule:
        return SpikeRule(factor=self.factor_spin.value(), window=self.window_spin.value())

    def since(self) -> dt.date | None:
        days = self.since_combo.currentData()
        if days is None:
            return None
        return today() - dt.timedelta(days=int(days) - 1)

    # -- reading --------------------------------------------------------------------------
    @Slot()
    def refresh(self) -> None:
        """Read every chart again (after a batch, a re-drive, a change of status). Off
        screen only the banner's spike is read (batch counters, no dead letters counted);
        the charts are read when the tab is shown, so they are current whenever seen."""
        if self.queries is None:
            return
        if not self.isVisible():
            self._stale = True
            self.queries.submit(
                _spike_call(self.since(), self.rule()),
                self.spikeChanged.emit,
                self._failed,
                key="trends-spike",
            )
            return
        self._stale = False
        self.queries.submit(
            _trends_call(self.filter, self.since(), self.rule()),
            self.show_trends,
            self._failed,
            key="trends",
        )

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        # The numbers first: the query thread reads them while this one imports pyqtgraph
        # and builds the charts; they are drawn when they come, after the build.
        if self._stale:
            self.refresh()
        if not self._charts_built:
            self._build_charts()
            if self.trends is not None:  # numbers read before the charts existed
                self._draw(self.trends)

    def set_filter(self, f: DeadLetterFilter) -> None:
        """The table's filter changed: only the attempts histogram follows it."""
        if f == self.filter:
            return
        self.filter = f
        if self.queries is not None and self.isVisible():
            self.queries.submit(
                _histogram_call(f), self.attempts.show_buckets, self._failed, key="trends-attempts"
            )
        else:
            self._stale = True

    def busy(self) -> bool:
        return self.queries is not None and self.queries.busy()

    @Slot(object)
    def show_trends(self, t: Trends) -> None:
        self.trends = t
        self._draw(t)
        total = sum(g.count for g in t.groups)
        self.updated_label.setText(
            f"{plural(len(t.per_batch), 'batch')} · updated {local_time_of_day()}"
            if t.per_batch or total
            else "no dead letters yet"
        )
        self.spikeChanged.emit(t.banner_spike())
        self.updated.emit()

    def _draw(self, t: Trends) -> None:
        started = time.perf_counter()
        for chart in (self.failures, self.backlog, self.rate, self.attempts):
            chart.show_trends(t)
        self.groups.show_trends(t)
        self.last_render_ms = (time.perf_counter() - started) * 1000

    def _failed(self, message: str) -> None:
        self.message.emit(f"trends: {message}")

    @Slot(bool)
    def _on_mode(self, per_batch: bool) -> None:
        self.failures.set_mode("batch" if per_batch else "day")
        self.panels["failures"].hint.setText(PER_BATCH_HINT if per_batch else PER_DAY_HINT)

    @Slot()
    def _on_rule_changed(self) -> None:
        self._settings.setValue(FACTOR_KEY, self.factor_spin.value())
        self._settings.setValue(WINDOW_KEY, self.window_spin.value())
        self.refresh()
